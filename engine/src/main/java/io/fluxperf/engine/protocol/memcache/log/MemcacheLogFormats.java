package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.SecondCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The memcache command logs replay reads: memcached's {@code watch} output, a raw text stream (text
 * and meta commands), twemcache's klog. {@link #ALL} are the text protocol's; {@link #META}, a raw
 * stream that starts with a meta command, is the meta protocol's.
 */
public final class MemcacheLogFormats {
    /** memcached's {@code watch fetchers mutations} output: {@code ts=… gid=… type=item_get key=…}. */
    public static final LogFormat WATCH = new Format("memcache-watch", "^ts=\\d+\\.\\d+ gid=\\d+ .*") {
        /**
         * Every line parses on its own, so the log splits into runs of lines read by several threads;
         * dropping the fetch memcached logs inside a store needs the log's order and is done as the
         * runs are put back in it.
         */
        @Override
        public PreparedLog prepare(Path log, Path sendTimes) {
            return PreparedLog.splitting(ctx -> new MemcacheWatchReader(LogInput.open(log), ctx, true),
                    (part, ctx) -> new MemcacheWatchReader(part, ctx, false), MemcacheWatchReader.InternalFetches::new,
                    List.of(SYNTHESISED));
        }
    };

    /** The bytes a client sent in memcached's text protocol, with an optional sidecar CSV of send times. */
    public static final LogFormat ASCII = new Format("memcache-ascii",
            "^(get|gets|set|add|replace|append|prepend|cas|delete|incr|decr|touch|flush_all|version|stats|verbosity) ?.*") {
        @Override
        public boolean binary() {
            return true; // values are bytes as the client sent them
        }

        @Override
        public boolean takesSendTimes() {
            return true;
        }

        /** Send times from {@code sendTimes}, else from {@code LOG.times.csv} beside the log when there is one. */
        @Override
        public PreparedLog prepare(Path log, Path sendTimes) {
            Path times = sendTimes;
            if (times == null) {
                Path sibling = log.resolveSibling(log.getFileName() + ".times.csv");
                times = Files.isRegularFile(sibling) ? sibling : null;
            } else if (!Files.isRegularFile(times)) {
                throw new UserError("--times: " + times + ": no such file");
            }
            Path csv = times;
            return PreparedLog.of(ctx -> new MemcacheAsciiReader(LogInput.open(log), ctx, csv), List.of(csv != null
                    ? "send times from " + csv
                    : "the stream has no send times (no --times file): commands go as fast as allowed"));
        }
    };

    /**
     * A raw stream whose first command is a meta one ({@code mg}, {@code ms}, …): read as
     * {@link #ASCII} is, and replayed with the meta protocol.
     */
    public static final LogFormat META = new Format("memcache-meta-ascii", "^m[gsdaen]( .*)?") {
        @Override
        public boolean binary() {
            return true;
        }

        @Override
        public boolean takesSendTimes() {
            return true;
        }

        @Override
        public PreparedLog prepare(Path log, Path sendTimes) {
            return ASCII.prepare(log, sendTimes);
        }
    };

    /** twemcache's command log: {@code peer - [09/Jul/2012:18:15:45 -0700] "get key" 0 14}. */
    public static final LogFormat KLOG = new Format("klog",
            "^\\S+ - \\[\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d [-+]\\d{4}] \".*") {
        /**
         * klog's times are whole seconds: a first pass counts each second's commands, to spread them
         * over it. Every line parses on its own, so the log splits into runs of lines read by several
         * threads; the spreading needs the log's order and is done as the runs are put back in it.
         */
        @Override
        public PreparedLog prepare(Path log, Path sendTimes) {
            SecondCounts perSecond = KlogReader.countSeconds(LogInput.open(log));
            return PreparedLog.splitting(ctx -> new KlogReader(LogInput.open(log), ctx, perSecond),
                    (part, ctx) -> new KlogReader(part, ctx, null), ctx -> perSecond.spreading(),
                    List.of(KlogReader.SPREAD_NOTE, SYNTHESISED));
        }
    };

    /** In the order replay tries them on a log's first line. */
    public static final List<LogFormat> ALL = List.of(WATCH, KLOG, ASCII);

    private static final String SYNTHESISED = "values are synthesised at the logged sizes";

    private MemcacheLogFormats() {
    }

    private abstract static class Format implements LogFormat {
        private final String label;
        private final Pattern firstLine;

        Format(String label, String firstLine) {
            this.label = label;
            this.firstLine = Pattern.compile(firstLine);
        }

        @Override
        public String label() {
            return label;
        }

        @Override
        public boolean recognizes(String line) {
            return firstLine.matcher(line).matches();
        }

        @Override
        public String toString() {
            return label;
        }
    }
}
