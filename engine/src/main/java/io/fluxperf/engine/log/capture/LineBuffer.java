package io.fluxperf.engine.log.capture;

import java.util.Arrays;

/**
 * One line of a text protocol gathered across segments, without its line end (CRLF, or a bare LF),
 * up to a length limit. The buffer grows to the longest line seen and is reused.
 */
public final class LineBuffer {
    private byte[] bytes = new byte[256];
    private int length;
    private boolean done;
    private boolean tooLong;

    /** Readies the buffer for the next line. */
    public void clear() {
        length = 0;
        done = false;
        tooLong = false;
    }

    /**
     * Feeds {@code b[p, to)} up to the line's end; returns where it stopped: past the LF once the
     * line is {@link #done()}, else {@code to}. A line that would pass {@code max} bytes is
     * {@link #tooLong()} and its bytes are not kept.
     */
    public int feed(byte[] b, int p, int to, int max) {
        int nl = p;
        while (nl < to && b[nl] != '\n') {
            nl++;
        }
        int n = nl - p;
        if (length + n > max) {
            tooLong = true;
            return to;
        }
        if (length + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + n, bytes.length * 2));
        }
        System.arraycopy(b, p, bytes, length, n);
        length += n;
        if (nl == to) {
            return to;
        }
        if (length > 0 && bytes[length - 1] == '\r') {
            length--;
        }
        done = true;
        return nl + 1;
    }

    public boolean done() {
        return done;
    }

    public boolean tooLong() {
        return tooLong;
    }

    /** The line's bytes, {@code bytes()[0, length())}; the array is the buffer's own. */
    public byte[] bytes() {
        return bytes;
    }

    /** The bytes gathered: the whole line without its line end once {@link #done()}. */
    public int length() {
        return length;
    }
}
