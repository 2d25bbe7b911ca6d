package io.fluxperf.engine.log;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads lines (and, for raw protocol streams, data blocks) from a byte stream into one growing
 * buffer, without allocating per line. A line is returned as {@link #buffer()}[{@link #start()},
 * {@link #end()}) without its "\n" or "\r\n". Lines longer than {@code maxLine} bytes are skipped
 * and reported as such.
 */
public final class LineReader {
    private final InputStream in;
    private final int maxLine;
    private byte[] buf = new byte[1 << 16];
    private int pos;
    private int limit;
    private boolean eof;
    private long lineNumber;
    private long offset;
    private int start;
    private int end;
    private boolean terminated;
    private boolean tooLong;

    public LineReader(InputStream in, int maxLine) {
        this.in = in;
        this.maxLine = maxLine;
    }

    /**
     * Reads the next line. Returns false at the end of the stream. A last line without a line end is
     * returned too, with {@link #terminated()} false. A line longer than the limit is consumed and
     * returned empty with {@link #tooLong()} true.
     */
    public boolean next() throws IOException {
        tooLong = false;
        int scan = pos;
        while (true) {
            int nl = indexOf(buf, scan, limit, (byte) '\n');
            if (nl >= 0) {
                setLine(pos, nl, true);
                advance(nl + 1);
                return true;
            }
            scan = limit;
            if (limit - pos > maxLine) {
                skipLongLine();
                return true;
            }
            if (eof) {
                if (pos == limit) {
                    return false;
                }
                setLine(pos, limit, false);
                advance(limit);
                return true;
            }
            int shift = fill();
            scan -= shift;
        }
    }

    private void setLine(int from, int nl, boolean hasNewline) {
        start = from;
        end = hasNewline && nl > from && buf[nl - 1] == '\r' ? nl - 1 : nl;
        terminated = hasNewline;
        lineNumber++;
    }

    private void skipLongLine() throws IOException {
        lineNumber++;
        tooLong = true;
        terminated = true;
        while (true) {
            int nl = indexOf(buf, pos, limit, (byte) '\n');
            if (nl >= 0) {
                advance(nl + 1);
                break;
            }
            advance(limit);
            if (eof) {
                terminated = false;
                break;
            }
            fill();
        }
        start = pos;
        end = pos;
    }

    private void advance(int to) {
        offset += to - pos;
        pos = to;
    }

    /**
     * Makes {@code n} more bytes available from the current position (after the last line) and
     * consumes them. Returns their offset in {@link #buffer()}, or -1 when the stream ends first
     * (what was there is consumed). Invalidates the last line's offsets. Line ends inside the block
     * count as lines.
     */
    public int block(int n) throws IOException {
        while (limit - pos < n) {
            if (eof) {
                advance(limit);
                return -1;
            }
            fill();
        }
        int at = pos;
        for (int i = at; i < at + n; i++) {
            if (buf[i] == '\n') {
                lineNumber++; // so that later lines keep the numbers an editor shows
            }
        }
        advance(pos + n);
        return at;
    }

    /**
     * Reads more input behind {@link #limit}, moving the unread part to the front first (or growing
     * the buffer when it is full). Returns how far the unread part moved to the left.
     */
    private int fill() throws IOException {
        int shift = 0;
        if (pos > 0 && (limit == buf.length || pos > buf.length / 2)) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            shift = pos;
            limit -= pos;
            start = Math.max(0, start - pos);
            end = Math.max(0, end - pos);
            pos = 0;
        }
        if (limit == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
        } else {
            limit += n;
        }
        return shift;
    }

    private static int indexOf(byte[] b, int from, int to, byte c) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Goes on after the end of the stream, which now holds more (the next part of a log read in
     * parts, {@code LogInput.part}): the next line is number {@code linesBefore + 1}.
     */
    public void restart(long linesBefore) {
        pos = limit;
        eof = false;
        lineNumber = linesBefore;
    }

    public byte[] buffer() {
        return buf;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    /** 1-based number of the last line returned. */
    public long lineNumber() {
        return lineNumber;
    }

    /** Bytes of the (decompressed) stream consumed so far. */
    public long offset() {
        return offset;
    }

    /** False for a last line that ended without a line end. */
    public boolean terminated() {
        return terminated;
    }

    public boolean tooLong() {
        return tooLong;
    }

    public int maxLine() {
        return maxLine;
    }
}
