package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.DurationParser;
import io.fluxperf.engine.config.PoolOptions;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.protocol.ProtocolOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Everything that shapes a replay, checked where it enters (each mistake a {@link UserError}
 * naming its flag). Immutable; build with {@link #builder(Path)}.
 *
 * @param log           the command log: a file (plain or gzip) or a trace directory
 * @param format        null: told from the content
 * @param server        HOST:PORT; null: the embedded target of the log's protocol
 * @param protocol      null: the log's (redis for MONITOR, memcache for the others, a trace's own)
 * @param speed         log time / replay time; 0 = as fast as the connections allow ({@code max})
 * @param maxWait       longest idle gap in replay time; null = as logged
 * @param loops         passes over the log
 * @param only          verbs to replay (empty: all)
 * @param keyPrefix     prepended to every key; null = none
 * @param rateCap       most commands per second in total; 0 = no cap
 * @param times         send times of a raw memcache stream; null = {@code LOG.times.csv} when it exists
 * @param anyConnection ignore the original clients: any free connection (faster at max, order per client lost)
 * @param allowFlush    replay flush_all/FLUSHALL/FLUSHDB (skipped otherwise)
 * @param strict        the first bad line ends the replay with an error
 * @param window        report a window every this long; null = one window for the whole replay
 * @param readAhead     commands read ahead and sorted by time (the reordering window); 0 = the format's
 *                      ({@link LogFormat#readAhead()})
 * @param trace         write a trace directory; null = none
 * @param json          write the JSON result; null = none
 * @param live          print the progress line on stderr once a second
 * @param warmup        the replay's first stretch, sent as logged but left out of the report (as
 *                      {@code run --warmup}): it warms up this JVM; null = none
 * @param protocolOptions the protocol's settings ({@code --user}, {@code --db}, {@code --resp}, …), as {@code run} takes them
 * @param connection    how connections are made ({@code --tls}, Unix sockets, {@code --udp}, {@code --io-uring}, …), as {@code run}'s
 * @param earlySend     how long before its time a paced command may leave with others ({@code --early-send})
 * @param statsInterval a statistics block every this long while the replay runs, as {@code run --stats-interval}
 *                      prints, with the interval's send lag and the place in the log; zero = none
 * @param pool          several servers ({@code --server} repeated) or a cluster's seeds ({@code --cluster}), each
 *                      command sent to its key's server as {@code run} places keys; {@link PoolOptions#single()} otherwise
 * @param readAheadBytes the heap the load threads may give to commands read ahead that are due but wait
 *                      for their client's busy connection ({@code --read-ahead-memory}); 0 = 64 MiB
 * @param flush         flush the server before the replay (a capacity sweep's {@code --flush} between steps)
 * @param readerThreads threads that read and parse the log in parts ({@code --reader-threads}), where its format
 *                      splits; 0 = chosen from the cores and the log's size ({@link SplitLogReader#threadsFor})
 * @param scale         copies of every original client ({@code --scale}), each with its keys in a namespace of its
 *                      own ({@code s1:} … {@code sN:}); 1 = the log as it is
 * @param captureServers a packet capture's servers whose traffic is replayed ({@code --capture-server HOST:PORT});
 *                      empty: the capture's only server
 */
public record ReplayOptions(Path log, LogFormat format, String server, String protocol, double speed,
                            Duration maxWait, int loops, List<String> only, String keyPrefix, double rateCap,
                            int threads, int connections, int pipeline, Duration timeout, boolean tcpNoDelay,
                            Path times, boolean anyConnection, boolean allowFlush, boolean strict, Duration window,
                            int readAhead, Path trace, Path json, boolean live, Duration warmup,
                            ProtocolOptions protocolOptions, ConnectionOptions connection, Duration earlySend,
                            Duration statsInterval, PoolOptions pool, int scale, List<String> captureServers,
                            long readAheadBytes, boolean flush, int readerThreads) {
    /** The most copies --scale makes: each copy reads the log (the page cache serves the rest). */
    public static final int MAX_SCALE = 1_000;
    /** The least --read-ahead-bytes: a few thousand commands. */
    public static final long MIN_READ_AHEAD_BYTES = 64L << 10;
    /** The read-ahead's budget unless told. */
    public static final long DEFAULT_READ_AHEAD_BYTES = 64L << 20;

    /** {@code --reader-threads N} as given, checked: 1 to {@link SplitLogReader#MAX_THREADS}. */
    public static int checkedReaderThreads(int n) {
        if (n < 1 || n > SplitLogReader.MAX_THREADS) {
            throw new UserError("--reader-threads: must be between 1 and " + SplitLogReader.MAX_THREADS + ", not " + n);
        }
        return n;
    }

    /** The budget of the commands waiting for their client's busy connection, as given or the default. */
    public long readAheadBudget() {
        return readAheadBytes > 0 ? readAheadBytes : DEFAULT_READ_AHEAD_BYTES;
    }


    public ReplayOptions {
        if (log == null) {
            throw new UserError("--log: a command log is required (--log FILE)");
        }
        if (!(speed >= 0) || Double.isInfinite(speed)) {
            throw new UserError("--speed: must be a number above 0 or max, not " + speed);
        }
        if (loops < 1) {
            throw new UserError("--loop: must be at least 1, not " + loops);
        }
        if (!(rateCap >= 0) || Double.isInfinite(rateCap)) {
            throw new UserError("--rate-cap: must be a number above 0, not " + rateCap);
        }
        if (threads < 1 || threads > 1024) {
            throw new UserError("--threads: must be between 1 and 1024, not " + threads);
        }
        if (connections < 1 || connections > 100_000) {
            throw new UserError("--connections: must be between 1 and 100000, not " + connections);
        }
        if (pipeline < 1 || pipeline > 1024) {
            throw new UserError("--pipeline: must be between 1 and 1024, not " + pipeline);
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new UserError("--timeout: must be above 0");
        }
        if (maxWait != null && (maxWait.isNegative() || maxWait.isZero())) {
            throw new UserError("--max-wait: must be above 0");
        }
        if (window != null && (window.isNegative() || window.isZero())) {
            throw new UserError("--window: must be above 0");
        }
        statsInterval = statsInterval == null ? Duration.ZERO : statsInterval;
        if (statsInterval.isNegative()) {
            throw new UserError("--stats-interval: must be at least 0, not "
                    + DurationParser.format(statsInterval));
        }
        if (warmup != null && (warmup.isNegative() || warmup.isZero())) {
            warmup = null;
        }
        if (readAhead != 0) {
            checkedReadAhead(readAhead);
        }
        if (readAheadBytes < 0 || readAheadBytes > 0 && readAheadBytes < MIN_READ_AHEAD_BYTES) {
            throw new UserError("--read-ahead-memory: must be at least " + (MIN_READ_AHEAD_BYTES >> 10) + "k, not "
                    + readAheadBytes + " bytes");
        }
        if (readerThreads != 0) {
            checkedReaderThreads(readerThreads);
        }
        if (scale < 1 || scale > MAX_SCALE) {
            throw new UserError("--scale: must be between 1 and " + MAX_SCALE + " copies, not " + scale);
        }
        if (keyPrefix != null && keyPrefix.isEmpty()) {
            keyPrefix = null;
        }
        protocolOptions = protocolOptions == null ? ProtocolOptions.none() : protocolOptions;
        connection = connection == null ? ConnectionOptions.defaults() : connection;
        pool = pool == null ? PoolOptions.single() : pool;
        earlySend = earlySend == null ? RunConfig.DEFAULT_EARLY_SEND : earlySend;
        only = only == null ? List.of() : only.stream().map(s -> s.trim().toLowerCase(Locale.ROOT))
                .filter(s -> !s.isEmpty()).toList();
        captureServers = captureServers == null ? List.of() : List.copyOf(captureServers);
    }

    public static Builder builder(Path log) {
        return new Builder(log);
    }

    /** {@code 1}, {@code 2.5}, {@code 2x} or {@code max} (0). */
    public static double parseSpeed(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("max")) {
            return 0;
        }
        if (t.endsWith("x")) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            double v = Double.parseDouble(t);
            if (v > 0 && !Double.isInfinite(v)) {
                return v;
            }
        } catch (NumberFormatException notANumber) {
            // below
        }
        throw new UserError("--speed: '" + text + "' is neither a number above 0 (1, 2.5) nor max");
    }

    /** A --read-ahead-memory as the user gave it: bytes, or with a k, m or g suffix (powers of 1024). */
    public static long parseReadAheadMemory(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        if (t.endsWith("k") || t.endsWith("m") || t.endsWith("g")) {
            unit = t.endsWith("k") ? 1L << 10 : t.endsWith("m") ? 1L << 20 : 1L << 30;
            t = t.substring(0, t.length() - 1);
        }
        try {
            long v = Long.parseLong(t.trim());
            if (v > 0 && v <= (64L << 30) / unit) {
                long bytes = v * unit;
                if (bytes >= MIN_READ_AHEAD_BYTES) {
                    return bytes;
                }
            }
        } catch (NumberFormatException notANumber) {
            // below
        }
        throw new UserError("--read-ahead-memory: '" + text + "' is not a size from 64k to 64g (such as 512k, 64m, 1g)");
    }

    /** A --read-ahead as the user gave it: 1 to 10,000,000 commands (0 stands for the format's own). */
    public static int checkedReadAhead(int given) {
        if (given < 1 || given > 10_000_000) {
            throw new UserError("--read-ahead: must be between 1 and 10000000 commands, not " + given);
        }
        return given;
    }

    /** The read-ahead of a replay of a {@code f} log: the one given, or the format's. */
    public int readAheadOf(LogFormat f) {
        return readAhead > 0 ? readAhead : f.readAhead();
    }

    /** As the report shows the speed: "1x", "2.5x", "max". */
    public String speedText() {
        if (speed == 0) {
            return "max";
        }
        return (speed == Math.rint(speed) ? Long.toString((long) speed) : Double.toString(speed)) + "x";
    }

    /** Mutable builder with the defaults of {@code fluxperf replay}. */
    public static final class Builder {
        private final Path log;
        private LogFormat format;
        private String server;
        private PoolOptions pool;
        private String protocol;
        private double speed = 1.0;
        private Duration maxWait;
        private int loops = 1;
        private List<String> only = List.of();
        private String keyPrefix;
        private double rateCap;
        private int threads = RunConfig.DEFAULT_THREADS;
        private int connections = RunConfig.DEFAULT_CONNECTIONS;
        private int pipeline = RunConfig.DEFAULT_PIPELINE;
        private Duration timeout = RunConfig.DEFAULT_TIMEOUT;
        private boolean tcpNoDelay = RunConfig.DEFAULT_TCP_NODELAY;
        private Path times;
        private boolean anyConnection;
        private boolean allowFlush;
        private boolean strict;
        private Duration window;
        private int readAhead;
        private Path trace;
        private Path json;
        private boolean live = true;
        private Duration warmup;
        private ProtocolOptions protocolOptions = ProtocolOptions.none();
        private ConnectionOptions connection = ConnectionOptions.defaults();
        private Duration earlySend = RunConfig.DEFAULT_EARLY_SEND;
        private Duration statsInterval = Duration.ZERO;
        private int scale = 1;
        private long readAheadBytes;
        private int readerThreads;
        private boolean flush;
        private List<String> captureServers = List.of();

        private Builder(Path log) {
            this.log = log;
        }

        public Builder format(LogFormat v) {
            format = v;
            return this;
        }

        /** Several servers or a cluster's seeds; its first server is {@link #server}'s. */
        public Builder pool(PoolOptions v) {
            pool = v;
            return this;
        }

        public Builder server(String v) {
            server = v;
            return this;
        }

        public Builder protocol(String v) {
            protocol = v;
            return this;
        }

        /** 0 = max. */
        public Builder speed(double v) {
            speed = v;
            return this;
        }

        public Builder maxWait(Duration v) {
            maxWait = v;
            return this;
        }

        public Builder loops(int v) {
            loops = v;
            return this;
        }

        public Builder only(List<String> v) {
            only = v;
            return this;
        }

        public Builder keyPrefix(String v) {
            keyPrefix = v;
            return this;
        }

        public Builder rateCap(double v) {
            rateCap = v;
            return this;
        }

        public Builder threads(int v) {
            threads = v;
            return this;
        }

        public Builder connections(int v) {
            connections = v;
            return this;
        }

        public Builder pipeline(int v) {
            pipeline = v;
            return this;
        }

        public Builder timeout(Duration v) {
            timeout = v;
            return this;
        }

        public Builder tcpNoDelay(boolean v) {
            tcpNoDelay = v;
            return this;
        }

        public Builder times(Path v) {
            times = v;
            return this;
        }

        public Builder anyConnection(boolean v) {
            anyConnection = v;
            return this;
        }

        public Builder allowFlush(boolean v) {
            allowFlush = v;
            return this;
        }

        public Builder strict(boolean v) {
            strict = v;
            return this;
        }

        public Builder window(Duration v) {
            window = v;
            return this;
        }

        public Builder readAhead(int v) {
            readAhead = v;
            return this;
        }

        public Builder trace(Path v) {
            trace = v;
            return this;
        }

        public Builder json(Path v) {
            json = v;
            return this;
        }

        public Builder live(boolean v) {
            live = v;
            return this;
        }

        /** The protocol's settings as {@code run} takes them (checked by the protocol when the replay starts). */
        public Builder protocolOptions(ProtocolOptions v) {
            protocolOptions = v;
            return this;
        }

        /** The redis ACL user ({@code --user}), added to the protocol options. */
        public Builder user(String v) {
            if (v != null) {
                protocolOptions = protocolOptions.with("user", v, "--user");
            }
            return this;
        }

        /** The redis password ({@code --password}), added to the protocol options. */
        public Builder password(String v) {
            if (v != null) {
                protocolOptions = protocolOptions.with("password", v, "--password");
            }
            return this;
        }

        public Builder connection(ConnectionOptions v) {
            connection = v;
            return this;
        }

        public Builder earlySend(Duration v) {
            earlySend = v;
            return this;
        }

        public Builder warmup(Duration v) {
            warmup = v;
            return this;
        }

        /** A statistics block every {@code v} (zero or null: none). */
        public Builder statsInterval(Duration v) {
            statsInterval = v;
            return this;
        }

        /** N copies of every original client, keys prefixed s1: … sN: (--scale). */
        public Builder scale(int v) {
            scale = v;
            return this;
        }

        /** {@code --reader-threads}; 0: chosen from the cores and the log's size. */
        public Builder readerThreads(int v) {
            readerThreads = v;
            return this;
        }

        /** Bytes of the heap for commands waiting for their client's busy connection (0: the default). */
        public Builder readAheadBytes(long v) {
            readAheadBytes = v;
            return this;
        }

        /** Flush the server before the replay. */
        public Builder flush(boolean v) {
            flush = v;
            return this;
        }

        /** The servers of a packet capture whose traffic is replayed ({@code --capture-server}, repeatable). */
        public Builder captureServers(List<String> v) {
            captureServers = v;
            return this;
        }

        public ReplayOptions build() {
            return new ReplayOptions(log, format, server, protocol, speed, maxWait, loops, only, keyPrefix, rateCap,
                    threads, connections, pipeline, timeout, tcpNoDelay, times, anyConnection, allowFlush, strict,
                    window, readAhead, trace, json, live, warmup, protocolOptions, connection, earlySend, statsInterval, pool,
                    scale, captureServers, readAheadBytes, flush, readerThreads);
        }
    }
}
