package io.fluxperf.replay;

/**
 * The part every line-based log reader shares: its input, a line reader over it, and the progress
 * and close methods of {@link LogReader}.
 */
abstract class LineLogReader implements LogReader {
    protected final LogInput input;
    protected final LineReader lines;

    /** @param maxLine the longest line accepted, bytes */
    LineLogReader(LogInput input, int maxLine) {
        this.input = input;
        this.lines = new LineReader(input.stream(), maxLine);
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
