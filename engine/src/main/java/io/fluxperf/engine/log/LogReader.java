package io.fluxperf.engine.log;

import java.io.IOException;

/**
 * Streams the commands of one pass over a log. Lines that are not commands are counted as skipped
 * (with their reason) or as bad (through {@link BadLines}, which throws under {@code --strict});
 * {@link #next} returns only commands.
 */
public interface LogReader extends AutoCloseable {
    /**
     * Reads the next command into {@code e} (already reset).
     *
     * @return false at the end of the log
     * @throws IOException when the log cannot be read (a damaged gzip stream, a vanished file)
     */
    boolean next(LogEntry e) throws IOException;

    /** Progress: how far into the log the reader is, in the unit of {@link #size()}. */
    long position();

    /** Progress: the log's size (file bytes, or trace records), or -1 when unknown. */
    long size();

    /** Lines (or records) read so far. */
    long lines();

    @Override
    void close();
}
