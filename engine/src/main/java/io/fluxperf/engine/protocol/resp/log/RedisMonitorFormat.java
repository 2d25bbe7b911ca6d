package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogInput;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** {@code redis-cli monitor} output: {@code 1700000000.123456 [0 127.0.0.1:50000] "SET" "k" "v"}. */
public final class RedisMonitorFormat implements LogFormat {
    public static final LogFormat INSTANCE = new RedisMonitorFormat();
    private static final Pattern FIRST_LINE = Pattern.compile("^\\d+\\.\\d+ \\[\\d+ .*");

    private RedisMonitorFormat() {
    }

    @Override
    public String label() {
        return "redis-monitor";
    }

    @Override
    public boolean recognizes(String firstLine) {
        return FIRST_LINE.matcher(firstLine).matches();
    }

    /**
     * Redis feeds MONITOR from the one thread that runs its commands, in the order it runs them,
     * so a MONITOR log is in order: a small window suffices, and keeps the reader's pooled entries
     * in the CPU's caches (figures in the bench history, pass 29).
     */
    @Override
    public int readAhead() {
        return 1_024;
    }

    @Override
    public PreparedLog prepare(Path log, Path sendTimes) {
        // every MONITOR line stands on its own: the log splits into runs of lines, read by several threads
        return PreparedLog.splitting(ctx -> new RedisMonitorReader(LogInput.open(log), ctx), RedisMonitorReader::new,
                List.of());
    }

    @Override
    public String toString() {
        return label();
    }
}
