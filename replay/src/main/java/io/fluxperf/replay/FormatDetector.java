package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.capture.CaptureFile;
import io.fluxperf.engine.log.capture.CaptureFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells a log's format from its content (never its name): a packet capture by its magic number
 * (pcap or pcapng, after any gzip or zstd), otherwise the first line that is not blank (and not the
 * {@code OK} that redis-cli and memcached print first) decides. A file whose first bytes hold NUL
 * or other control bytes is no command log; an empty file is an error, as is a first line that no
 * format matches. A file named like a capture ({@code .pcap}, {@code .pcapng}, {@code .cap}) that
 * is none is told so.
 */
final class FormatDetector {
    private static final int SNIFF_BYTES = 64 * 1024;
    private FormatDetector() {
    }

    /** The format of {@code path}, or a {@link UserError} that says why it cannot be told. */
    static LogFormat detect(Path path) {
        if (Files.isDirectory(path)) {
            TraceLogReader.open(path).close(); // a directory is a trace or a mistake; this says which
            return TraceFormat.INSTANCE;
        }
        byte[] head = head(path);
        if (head.length == 0) {
            throw new UserError(path + ": empty log (no commands)");
        }
        if (CaptureFile.recognizes(head, head.length)) {
            return CaptureFormat.INSTANCE;
        }
        if (namedLikeCapture(path)) {
            throw new UserError(path + ": not a packet capture (it starts with " + hex(head, 4)
                    + ", not the magic number of pcap or pcapng)");
        }
        String first = firstLine(head);
        if (first != null) {
            for (LogFormat f : LogFormats.all()) {
                if (f.recognizes(first)) {
                    return f;
                }
            }
        }
        int binary = binaryAt(head);
        if (binary >= 0) {
            throw new UserError(path + ": not a command log (binary content at byte " + binary + ")");
        }
        if (first == null) {
            throw new UserError(path + ": empty log (only blank lines)");
        }
        throw new UserError(path + ":1: cannot tell the log format from its first line ('" + abbreviate(first)
                + "'); name it with --format " + LogFormats.labels().replace(", ", "|"));
    }

    /**
     * For a text format named with --format: a file with NUL bytes in its first 64 KiB is no such
     * log (a raw memcache stream may carry binary values, so it is not checked).
     */
    static void checkText(Path path, LogFormat format) {
        if (format.binary() || Files.isDirectory(path)) {
            return;
        }
        byte[] head = head(path);
        if (head.length == 0) {
            throw new UserError(path + ": empty log (no commands)");
        }
        int binary = nulAt(head);
        if (binary >= 0) {
            throw new UserError(path + ": not a " + format.label() + " log (binary content at byte " + binary + ")");
        }
    }

    /** A name tcpdump, Wireshark or editcap would give a capture, compressed or not. */
    private static boolean namedLikeCapture(Path path) {
        String n = path.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        n = n.endsWith(".gz") ? n.substring(0, n.length() - 3) : n.endsWith(".zst") ? n.substring(0, n.length() - 4) : n;
        return n.endsWith(".pcap") || n.endsWith(".pcapng") || n.endsWith(".cap");
    }

    private static String hex(byte[] b, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n && i < b.length; i++) {
            s.append(i > 0 ? " " : "").append(String.format("%02x", b[i] & 0xff));
        }
        return s.toString();
    }

    private static byte[] head(Path path) {
        try (LogInput in = LogInput.open(path)) {
            InputStream s = in.stream();
            byte[] buf = new byte[SNIFF_BYTES];
            int n = 0;
            while (n < buf.length) {
                int k = s.read(buf, n, buf.length - n);
                if (k < 0) {
                    break;
                }
                n += k;
            }
            return java.util.Arrays.copyOf(buf, n);
        } catch (IOException e) {
            throw new UserError(path + ": cannot read: " + e.getMessage());
        }
    }

    /** The first line that is not blank and not "OK", as Latin-1 text; null when there is none. */
    private static String firstLine(byte[] head) {
        int p = 0;
        while (p < head.length) {
            int nl = p;
            while (nl < head.length && head[nl] != '\n') {
                nl++;
            }
            int end = nl > p && head[nl - 1] == '\r' ? nl - 1 : nl;
            String line = new String(head, p, Math.min(end - p, 4096), java.nio.charset.StandardCharsets.ISO_8859_1);
            if (!line.isBlank() && !line.equals("OK")) {
                return line;
            }
            p = nl + 1;
        }
        return null;
    }

    /** The offset of the first byte that text logs do not hold (NUL and other C0 controls but tab, CR, LF, ESC), or -1. */
    private static int binaryAt(byte[] head) {
        for (int i = 0; i < head.length; i++) {
            int c = head[i] & 0xFF;
            if (c < 0x20 && c != '\t' && c != '\r' && c != '\n' && c != 0x1b) {
                return i;
            }
        }
        return -1;
    }

    private static int nulAt(byte[] head) {
        for (int i = 0; i < head.length; i++) {
            if (head[i] == 0) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String s) {
        StringBuilder p = new StringBuilder();
        for (int i = 0; i < s.length() && i < 40; i++) {
            char c = s.charAt(i);
            p.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
        }
        return s.length() > 40 ? p + "…" : p.toString();
    }
}
