package io.fluxperf.engine;

import io.netty.buffer.ByteBuf;

/**
 * Text from outside, made safe to print: a server's reply, a key, a log line, a file name. Such
 * text reaches the terminal through reports and messages, and a control character in it would
 * act there (ESC sequences clear the screen, retitle the window or move the cursor). Every control
 * character (C0, DEL, C1) is written as an escape: {@code \r}, {@code \n}, {@code \t}, else
 * {@code \xNN}. Nothing else changes, so text without control characters is returned as it is,
 * and escaping twice changes nothing more.
 *
 * <p>Used wherever such text is quoted, and once more where messages leave for the terminal
 * ({@link #message}), so that a place that forgot to quote cannot reach it either.
 */
public final class Printable {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Printable() {
    }

    /** {@code text} with every control character escaped. */
    public static String quote(CharSequence text) {
        return escape(text, false);
    }

    /**
     * A message of one or more lines: control characters escaped except the line ends between
     * its lines ({@code \n}), which a multi-line message means.
     */
    public static String message(CharSequence text) {
        return escape(text, true);
    }

    /** Bytes read as ISO-8859-1 (one character per byte), escaped: a reply or log excerpt. */
    public static String bytes(byte[] b, int offset, int length) {
        StringBuilder out = new StringBuilder(length + 8);
        for (int i = offset; i < offset + length; i++) {
            append(out, (char) (b[i] & 0xff));
        }
        return out.toString();
    }

    /** {@code in[from, from + length)} read as ISO-8859-1, escaped; the buffer's indexes do not move. */
    public static String bytes(ByteBuf in, int from, int length) {
        StringBuilder out = new StringBuilder(length + 8);
        for (int i = from; i < from + length; i++) {
            append(out, (char) (in.getByte(i) & 0xff));
        }
        return out.toString();
    }

    private static String escape(CharSequence text, boolean keepLineEnds) {
        if (text == null) {
            return null;
        }
        int n = text.length();
        int first = 0;
        while (first < n && !escaped(text.charAt(first), keepLineEnds)) {
            first++;
        }
        if (first == n) {
            return text.toString();
        }
        StringBuilder out = new StringBuilder(n + 16).append(text, 0, first);
        for (int i = first; i < n; i++) {
            char c = text.charAt(i);
            if (keepLineEnds && c == '\n') {
                out.append(c);
            } else {
                append(out, c);
            }
        }
        return out.toString();
    }

    private static boolean escaped(char c, boolean keepLineEnds) {
        return Character.isISOControl(c) && !(keepLineEnds && c == '\n');
    }

    private static void append(StringBuilder out, char c) {
        if (!Character.isISOControl(c)) {
            out.append(c);
            return;
        }
        switch (c) {
            case '\r' -> out.append("\\r");
            case '\n' -> out.append("\\n");
            case '\t' -> out.append("\\t");
            default -> out.append("\\x").append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
        }
    }
}
