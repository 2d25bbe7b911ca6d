package io.fluxperf.replay;

import io.fluxperf.engine.log.LogFormat;
import java.nio.file.Path;
import java.util.List;

/**
 * A fluxperf trace directory (from {@code run --trace} or {@code replay --trace}) read as a
 * command log. It belongs to no protocol: its header names the one its requests were sent with.
 */
final class TraceFormat implements LogFormat {
    static final TraceFormat INSTANCE = new TraceFormat();

    private TraceFormat() {
    }

    @Override
    public String label() {
        return "trace";
    }

    /** A trace is a directory, told apart before any line is read. */
    @Override
    public boolean recognizes(String firstLine) {
        return false;
    }

    @Override
    public boolean binary() {
        return true;
    }

    @Override
    public PreparedLog prepare(Path log, Path sendTimes) {
        return PreparedLog.of(ctx -> new TraceLogReader(log, ctx), List.of("values are synthesised at the logged sizes"));
    }

    @Override
    public String toString() {
        return label();
    }
}
