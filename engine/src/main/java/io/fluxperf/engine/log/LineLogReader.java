package io.fluxperf.engine.log;

import java.io.IOException;

/**
 * The part every line-based log reader shares: its input, a line reader over it, the reader's
 * context, skipping overlong lines, and the progress and close methods of {@link LogReader}.
 */
public abstract class LineLogReader implements LogReader {
    protected final LogInput input;
    protected final LineReader lines;
    protected final ReaderContext ctx;

    /** @param maxLine the longest line accepted, bytes */
    protected LineLogReader(LogInput input, int maxLine, ReaderContext ctx) {
        this.input = input;
        this.lines = new LineReader(input.stream(), maxLine);
        this.ctx = ctx;
    }

    /** Moves to the next line that is not too long; each one that is counts as a bad line. */
    protected boolean nextLine() throws IOException {
        while (lines.next()) {
            if (!lines.tooLong()) {
                return true;
            }
            ctx.bad.add(ctx.place(lines.lineNumber()), "line longer than " + lines.maxLine() + " bytes");
        }
        return false;
    }

    /**
     * Reads on after {@link #next} returned false at the end of a part, once the part's input holds
     * the next part ({@link LogInput#part}); its first line is number {@code linesBefore + 1}.
     */
    public void restart(long linesBefore) {
        lines.restart(linesBefore);
    }

    @Override
    public long position() {
        return input.filePosition();
    }

    @Override
    public long size() {
        return input.fileSize();
    }

    @Override
    public long lines() {
        return lines.lineNumber();
    }

    @Override
    public void close() {
        input.close();
    }
}
