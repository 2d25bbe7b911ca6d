package io.fluxperf.replay.cachetrace;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.SecondCounts;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Twitter's published cache traces (twitter/cache-trace, OSDI'20): CSV lines of
 * {@code timestamp,anonymized key,key size,value size,client id,operation,TTL}, plain or
 * zstd-compressed as published ({@code clusterN.0.zst}; {@link LogInput} tells compression by
 * magic bytes). It belongs to no protocol: the operations are memcache's, sent with the default
 * protocol unless {@code --protocol} names another ({@link Operations}).
 */
public final class CacheTraceFormat implements LogFormat {
    public static final CacheTraceFormat INSTANCE = new CacheTraceFormat();
    /** Seven fields, a whole-second timestamp, numeric sizes and TTL, an operation word. */
    private static final Pattern FIRST_LINE = Pattern.compile("^\\d+,[^,]+,\\d+,\\d+,[^,]*,[A-Za-z]+,\\d+$");
    static final String SPREAD_NOTE = "cache-trace timestamps are whole seconds: each second's commands are spread"
            + " evenly across it";
    static final String SYNTHESISED = "keys are padded to their key size with '" + CacheTraceReader.PAD_CHAR
            + "'; values are synthesised at the traced sizes";

    private CacheTraceFormat() {
    }

    @Override
    public String label() {
        return "twitter-cache-trace";
    }

    @Override
    public boolean recognizes(String firstLine) {
        return FIRST_LINE.matcher(firstLine).matches();
    }

    /**
     * A first pass counts each second's commands, to spread them over it. Every line parses on its
     * own, so the trace splits into runs of lines read by several threads; the spreading needs the
     * log's order and is done as the runs are put back in it.
     */
    @Override
    public PreparedLog prepare(Path log, Path sendTimes) {
        SecondCounts seconds = CacheTraceReader.countSeconds(LogInput.open(log));
        return PreparedLog.splitting(ctx -> new CacheTraceReader(LogInput.open(log), ctx, seconds),
                (part, ctx) -> new CacheTraceReader(part, ctx, null), ctx -> seconds.spreading(),
                List.of(SPREAD_NOTE, SYNTHESISED));
    }

    @Override
    public String toString() {
        return label();
    }
}
