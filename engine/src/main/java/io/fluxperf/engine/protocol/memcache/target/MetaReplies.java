package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.Base64Keys;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/** The pieces of a meta command's reply as memcached 1.6.18 writes them: return flags, the key, error lines, me's numbers. */
final class MetaReplies {
    /** memcached's MFLAG_MAX_OPAQUE_LENGTH, the O included. */
    static final int MAX_OPAQUE = 32;
    static final byte[] CRLF = ascii("\r\n");
    private static final byte[] BINARY_KEY = ascii(" b");

    private MetaReplies() {
    }

    static void flag(ByteBuf out, char f) {
        out.writeByte(' ');
        out.writeByte(f);
    }

    /** Copies an O flag as given; false when it is too long. */
    static boolean opaque(CommandLine line, int i, ByteBuf out) {
        if (line.length(i) > MAX_OPAQUE) {
            return false;
        }
        out.writeByte(' ');
        out.writeBytes(line.bytes, line.start(i), line.length(i));
        return true;
    }

    /** The k flag: the key, base64-encoded and followed by b when it is binary. */
    static void writeKey(ByteBuf out, byte[] k, int offset, int length, boolean binary) {
        out.writeByte(' ');
        out.writeByte('k');
        if (binary) {
            Base64Keys.encode(k, offset, length, out);
            out.writeBytes(BINARY_KEY);
        } else {
            out.writeBytes(k, offset, length);
        }
    }

    /** Whole seconds until the item expires, as memcached's clock of whole seconds shows them. */
    static long secondsLeft(Item it, long now) {
        return Math.max(0, (it.expiresAtMillis - now + 999) / 1000);
    }

    static long digits(long v) {
        long n = 1;
        for (long q = Long.divideUnsigned(v, 10); q != 0; q /= 10) {
            n++;
        }
        return n;
    }

    /** memcached's slab class for an item of {@code total} bytes with its defaults (-n 48, -f 1.25). */
    static long slabClass(long total) {
        long size = 96; // sizeof(item) + the 48-byte minimum chunk
        long cls = 1;
        while (total > size && cls < 63) {
            size = (long) (size * 1.25);
            if (size % 8 != 0) {
                size += 8 - size % 8;
            }
            cls++;
        }
        return cls;
    }

    /** A CLIENT_ERROR or SERVER_ERROR line, which quiet mode never leaves out. */
    static void errorLine(ByteBuf out, String text) {
        out.writeCharSequence(text, StandardCharsets.US_ASCII);
        out.writeBytes(CRLF);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
