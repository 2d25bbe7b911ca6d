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

    @Override
    public PreparedLog prepare(Path log, Path sendTimes) {
        return PreparedLog.of(ctx -> new RedisMonitorReader(LogInput.open(log), ctx), List.of());
    }

    @Override
    public String toString() {
        return label();
    }
}
