package io.fluxperf.engine.log.capture;

/**
 * A run of bytes whose length the protocol states (a bulk string, a body, a chunk, a data block),
 * then the line end that may follow it, read across segments. A gap that falls inside it is
 * skipped exactly: the protocol's framing goes on after it.
 */
public final class StatedLength {
    private long left;
    private int lineEndLeft;

    /** The next {@code bytes} bytes are the run's, then {@code lineEnd} bytes of CRLF (0 or 2). */
    public void start(long bytes, int lineEnd) {
        left = bytes;
        lineEndLeft = lineEnd;
    }

    /** Whether bytes of the run itself (not of its line end) are still to come. */
    public boolean inData() {
        return left > 0;
    }

    /** Takes as many of the run's bytes as the {@code available} ones hold; returns how many. */
    public int take(int available) {
        int n = (int) Math.min(left, available);
        left -= n;
        return n;
    }

    /** Takes {@code c} as the line end's next byte; false when it is not that byte. */
    public boolean takeLineEnd(byte c) {
        if (c != (lineEndLeft == 2 ? '\r' : '\n')) {
            return false;
        }
        lineEndLeft--;
        return true;
    }

    /** Whether the run and its line end are whole. */
    public boolean done() {
        return left == 0 && lineEndLeft == 0;
    }

    /** A gap of {@code n} bytes: true when it falls inside the run or its line end (skipped), false when it goes past. */
    public boolean skip(long n) {
        if (n > left + lineEndLeft) {
            return false;
        }
        long fromData = Math.min(n, left);
        left -= fromData;
        lineEndLeft -= (int) (n - fromData);
        return true;
    }
}
