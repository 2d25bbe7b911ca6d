package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import java.io.IOException;

/** The first commands of a log and no more: what replay's in-process warm-up plays. */
final class FirstCommands implements LogReader {
    private final LogReader reader;
    private final long limit;
    private long read;

    FirstCommands(LogReader reader, long limit) {
        this.reader = reader;
        this.limit = limit;
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        if (read >= limit || !reader.next(e)) {
            return false;
        }
        read++;
        return true;
    }

    @Override
    public long position() {
        return reader.position();
    }

    @Override
    public long size() {
        return reader.size();
    }

    @Override
    public long lines() {
        return reader.lines();
    }

    @Override
    public void close() {
        reader.close();
    }
}
