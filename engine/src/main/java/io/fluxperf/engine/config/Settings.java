package io.fluxperf.engine.config;

import static io.fluxperf.engine.config.Setting.Commands.NONE;
import static io.fluxperf.engine.config.Setting.Commands.RUN_AND_REPLAY;
import static io.fluxperf.engine.config.Setting.Scope.COMMAND_LINE;
import static io.fluxperf.engine.config.Setting.Scope.CONNECTION;
import static io.fluxperf.engine.config.Setting.Scope.GENERAL;
import static io.fluxperf.engine.config.Setting.Scope.POOL;
import static io.fluxperf.engine.config.Setting.Scope.WORKLOAD;

import io.fluxperf.engine.config.Setting.Table;
import io.fluxperf.engine.protocol.Protocols;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every setting of a run, each declared once: its flag and --help line, its config key, type,
 * check and default, and its row in docs/run.md ({@code SettingsDocsTest} fails when the docs
 * differ).
 *
 * <p>A new setting of [general] is one declaration here, its row in docs/run.md, and the code
 * that reads it ({@code config.get(Settings.NEW)}): {@link ConfigResolver} takes it from the
 * flag, else the file, else the default, a config file's key is read and checked by its type, and
 * a run directory's config.toml writes it, and the cli makes its option from the declaration (its
 * flags, value label and help line) for the commands {@link Setting#commands()} names. A setting
 * of the servers ({@link Setting.Scope#POOL}) is read and resolved the same way and kept by
 * {@link PoolOptions}, where its reader finds it ({@code config.pool().get(Settings.NEW)}).
 *
 * <p>A new key of each [[workload]] is one declaration ({@link Setting.Scope#WORKLOAD}, with how a
 * resolved workload holds its value, {@code inWorkload(...)}), its row, and its reader in
 * {@code WorkloadResolver}: the table takes the key and its type reads it, the reader gets the
 * flag, else the key, else the default, and config.toml writes it back from the declaration. A key
 * whose form in a file differs from its flag's says so ({@code ownFormInWorkload()}) and is read
 * and written by hand.
 */
public final class Settings {
    private static final List<Setting<?>> ALL = new ArrayList<>();

    // the limits, each with the one message its type gives ("must be at most 1024, not 2000")
    public static final int MAX_THREADS = 1024;
    public static final int MAX_CONNECTIONS = 100_000;
    public static final int MAX_PIPELINE = 1024;
    public static final int MAX_KEYS_PER_REQUEST = 1024;
    public static final int MAX_KEY_LENGTH = 250;
    /** memcached reads an expiry above 30 days as a Unix time, so larger ttls would expire at once. */
    public static final int MAX_TTL = 30 * 24 * 3600;
    public static final int MAX_HELD_CONNECTIONS = 1_000_000;

    // ---- the config file itself, a flag only (first in --help)

    public static final Setting<Path> CONFIG = declare(Setting.of("config", COMMAND_LINE, SettingType.path(Path::of))
            .flag("FILE", "TOML config: fluxperf's own, or rpc-perf's (2.x, 3.x or 5.x, told by its shape).")
            .doc(Table.WORKLOAD, "TOML file with `[general]` and `[[workload]]` tables ([config.md](config.md)),"
                    + " or an rpc-perf 2.x, 3.x or 5.x config as it is ([rpc-perf.md](rpc-perf.md))", "none"));

    public static final Setting<String> CONFIG_FORMAT = declare(Setting.of("config-format", COMMAND_LINE, SettingType.text())
            .flag("FORMAT", "Read --config as rpc-perf-2, rpc-perf-3, rpc-perf-5 or fluxperf, whatever its shape.")
            .doc(Table.WORKLOAD, "read `--config` as `rpc-perf-2`, `rpc-perf-3`, `rpc-perf-5` or `fluxperf`,"
                    + " whatever its shape (default: told by its tables)", "by shape"));

    // ---- [general]: in the order config.toml writes them and a refused key's message lists them

    /** Repeatable: one server, or several (HOST:PORT[:WEIGHT]) for a pool, or a cluster's seeds. */
    public static final Setting<List<String>> SERVER = declare(Setting.of("server", POOL, SettingType.servers(false))
            .flag("HOST:PORT", "Target server; [::1]:PORT for IPv6, unix:/path for a Unix socket. Repeat it for a pool"
                    + " whose keys are placed by ketama (HOST:PORT:WEIGHT for a weight), or name a cluster's node with"
                    + " --cluster. Default: an embedded server of the protocol.", "-s", "--server")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "the target; `[::1]:11211` for IPv6, `unix:/path/to.sock` for a Unix socket. Repeated: a"
                    + " pool, each key sent to its server (`HOST:PORT:WEIGHT` for a ketama weight; [servers.md](servers.md))", "the embedded server of the protocol"));

    public static final Setting<String> PROTOCOL = declare(Setting.of("protocol", GENERAL,
                    SettingType.text(Checks::protocol, p -> p))
            .byDefault(() -> Protocols.defaultProtocol().name())
            .flag("NAME", "memcache (default), memcache-binary, memcache-meta, redis or http.")
            .doc(Table.WORKLOAD, "`memcache` (text), `memcache-binary`, `memcache-meta` (the meta commands),"
                    + " `redis` (RESP2/RESP3) or `http` (HTTP/1.1)", "memcache"));

    public static final Setting<Integer> THREADS = declare(Setting.of("threads", GENERAL,
                    SettingType.integer(1, MAX_THREADS))
            .byDefault(1)
            .flag("N", "Event-loop threads (default 1).", "-t", "--threads")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "event-loop threads, each with its own connections, {range}", "1"));

    public static final Setting<Integer> CONNECTIONS = declare(Setting.of("connections", GENERAL,
                    SettingType.integer(1, MAX_CONNECTIONS))
            .byDefault(25)
            .flag("N", "Connections per thread (default 25).", "-c", "--connections")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "connections per thread, {range}. They must fit in the open-file limit (`ulimit -n`)"
                    + " with what the process has open: a run that needs more is refused before it connects, naming the"
                    + " limit (against the embedded target both ends of each connection count), and a connect that fails"
                    + " with \"Too many open files\" all the same stops a run that is connecting", "25"));

    public static final Setting<Integer> PIPELINE = declare(Setting.of("pipeline", GENERAL,
                    SettingType.integer(1, MAX_PIPELINE))
            .byDefault(1)
            .flag("N", "Requests in flight per connection (default 1).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "requests in flight per connection, {range}; not with `--connect-per-request`", "1"));

    public static final Setting<Duration> DURATION = declare(Setting.of("duration", GENERAL,
                    SettingType.duration(Checks::positive))
            .byDefault(Duration.ofSeconds(60))
            .flag("TIME", "Length of each window: seconds, or 500ms, 2m (default 60).", "-d", "--duration")
            .doc(Table.TIME, "length of each window", "60"));

    public static final Setting<Integer> WINDOWS = declare(Setting.of("windows", GENERAL,
                    SettingType.integer(1, Integer.MAX_VALUE))
            .byDefault(1)
            .flag("N", "Number of windows (default 1).", "-w", "--windows")
            .doc(Table.TIME, "number of windows", "1"));

    public static final Setting<Duration> WARMUP = declare(Setting.of("warmup", GENERAL,
                    SettingType.duration(Checks::notNegative))
            .byDefault(Duration.ZERO)
            .flag("TIME", "Load before the first window, not reported (default 0).")
            .doc(Table.TIME, "load before the first window, not reported; with `--warmup-hitrate`, the longest the warm-up"
                    + " may last", "0 (60 s with `--warmup-hitrate`)"));

    public static final Setting<Duration> TIMEOUT = declare(Setting.of("timeout", GENERAL,
                    SettingType.duration(Checks::positive))
            .byDefault(Duration.ofSeconds(1))
            .flag("TIME", "Per-request timeout (default 1s).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.TIME, "per-request timeout", "1s"));

    /**
     * On, as memtier_benchmark and memaslap set it: with Nagle's algorithm a small request can wait
     * for the ACK of the previous segment, which measured 40% fewer requests/s against memcached.
     */
    public static final Setting<Boolean> TCP_NODELAY = declare(Setting.of("tcp-nodelay", GENERAL, SettingType.bool())
            .byDefault(true)
            .flag("true|false", "TCP_NODELAY on the connections (default true); --tcp-nodelay=false lets Nagle coalesce"
                    + " writes.")
            .valueOptional()
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "TCP_NODELAY on the connections; `false` lets Nagle's algorithm coalesce small writes"
                    + " (measured: 40 % fewer requests/s against memcached)", "true"));

    /** Stop after this many requests in total; 0: no limit. */
    public static final Setting<Long> REQUESTS = declare(Setting.of("requests", GENERAL,
                    SettingType.longInteger(0, Long.MAX_VALUE))
            .byDefault(0L)
            .flag("N", "Stop after N requests in total (mcb's -n).")
            .doc(Table.WORKLOAD, "stop after N requests in total (mcb's `-n`)", "no limit"));

    public static final Setting<Long> SEED = declare(Setting.of("seed", GENERAL,
                    SettingType.longInteger(Long.MIN_VALUE, Long.MAX_VALUE))
            .byDefault(42L)
            .flag("N", "Seed of the key, size and value generators (default 42).")
            .doc(Table.WORKLOAD, "seed of the key, size and value generators", "42"));

    public static final Setting<Boolean> UDP = declare(Setting.of("udp", CONNECTION, SettingType.bool())
            .byDefault(false)
            .flag(null, "memcache over UDP (the 8-byte frame header); a lost datagram counts as a timeout.")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "(memcache) over UDP: the 8-byte frame header, replies matched by request id and"
                    + " reassembled from several datagrams; a lost datagram ends its request as a Timeout; a port that"
                    + " refuses datagrams before any reply came (nothing listens) ends the run as a refused connect"
                    + " does, exit code 2; refused after replies (a restart), they count as connection errors; not with"
                    + " `--tls` or `--connect-per-request`", "TCP"));

    public static final Setting<Boolean> TLS = declare(Setting.of("tls", CONNECTION, SettingType.bool())
            .byDefault(false)
            .flag(null, "TLS on every connection.")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "TLS on every connection", "off"));

    /** Null: the JVM's trusted certificates. */
    public static final Setting<Path> TLS_CA = declare(Setting.of("tls-ca", CONNECTION, SettingType.path(Checks::readable))
            .flag("FILE", "PEM file of the CA certificates to trust.")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "PEM file of the CA certificates to trust (needs `--tls`)", "the JVM's"));

    public static final Setting<Boolean> TLS_INSECURE = declare(Setting.of("tls-insecure", CONNECTION, SettingType.bool())
            .byDefault(false)
            .flag(null, "Accept any server certificate (tests only).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "accept any server certificate, for tests (needs `--tls`)", "off"));

    /** Null: the host of --server. */
    public static final Setting<String> SNI = declare(Setting.of("sni", CONNECTION, SettingType.text())
            .flag("NAME", "TLS server name to send and verify (default: the host of --server).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "the TLS server name to send and verify (needs `--tls`)", "the host of `--server`"));

    public static final Setting<Boolean> CONNECT_PER_REQUEST = declare(Setting.of("connect-per-request", CONNECTION,
                    SettingType.bool())
            .byDefault(false)
            .flag(null, "Connect, send one request, close (mcb's -s, dperf's CPS).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "connect, send one request, close (mcb's `-s`, dperf's CPS); the report adds"
                    + " connections/s and connect latency, apart from request latency; one request per connection, so"
                    + " not with `--pipeline` above 1 or `--hold-connections`", "off"));

    /** 0: threads × connections. */
    public static final Setting<Integer> HOLD_CONNECTIONS = declare(Setting.of("hold-connections", CONNECTION,
                    SettingType.integer(0, MAX_HELD_CONNECTIONS))
            .byDefault(0)
            .flag("N", "Open N connections and keep them open (dperf's concurrent connections).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "open N connections in all (instead of threads × connections) and keep them open (dperf's"
                    + " concurrent connections); not with `--connect-per-request`", "off"));

    /** New connections per second while opening; 0: as fast as possible. */
    public static final Setting<Double> CONNECT_RATE = declare(Setting.of("connect-rate", CONNECTION,
                    SettingType.number(Checks::rate))
            .byDefault(0.0)
            .flag("N", "New connections per second while opening (default: as fast as possible).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "new connections per second while opening them", "as fast as possible"));

    public static final Setting<Boolean> IO_URING = declare(Setting.of("io-uring", CONNECTION, SettingType.bool())
            .byDefault(false)
            .flag(null, "Use Netty's io_uring transport for the load connections (TCP, UDP, Unix sockets) instead of"
                    + " epoll.")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "the load connections (TCP, UDP, Unix sockets) on Netty's io_uring transport instead of"
                    + " epoll ([internals.md](internals.md#io_uring))", "epoll"));

    public static final Setting<Boolean> BUSY_POLL = declare(Setting.of("busy-poll", CONNECTION, SettingType.bool())
            .byDefault(false)
            .flag(null, "Keep each load thread polling for I/O instead of sleeping until the next reply or send:"
                    + " latency without the client's own wake-up in it, at the price of a whole CPU per thread"
                    + " (--threads).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "each load thread polls for I/O instead of sleeping until the next reply or send: the"
                    + " client's own wake-up leaves the latency, at the price of a whole CPU per thread"
                    + " ([internals.md](internals.md#busy-poll))", "off"));

    /** Zero: never. */
    public static final Setting<Duration> STATS_INTERVAL = declare(Setting.of("stats-interval", GENERAL,
                    SettingType.duration(Checks::notNegative))
            .byDefault(Duration.ZERO)
            .flag("TIME", "Print a statistics block every TIME while running (dperf), e.g. 1 (default 0: off).")
            .doc(Table.OUTPUT, "print a statistics block every TIME (dperf's per-second lines, below)", "0 (off)"));

    /**
     * How long before its intended time a paced request may leave when the loop is awake anyway:
     * requests closer together than this share a wake-up and a flush (fewer context switches on
     * both sides), and one that leaves early has its latency measured from its actual write.
     */
    public static final Setting<Duration> EARLY_SEND = declare(Setting.of("early-send", GENERAL,
                    SettingType.duration(Checks::notNegative))
            .byDefault(Duration.ofNanos(50_000))
            .flag("TIME", "A paced request may leave up to TIME before its intended time when the loop is awake anyway,"
                    + " so that requests that close share a wake-up (default 50us; more: fewer wake-ups, less CPU).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.TIME, "a paced request may leave up to TIME before its intended time when the loop is awake anyway,"
                    + " so that requests that close share a wake-up; more: fewer wake-ups, less CPU, burstier sends; 0:"
                    + " each request waits for its own time", "50us"));

    public static final Setting<Arrivals> ARRIVALS = declare(Setting.of("arrivals", GENERAL,
                    SettingType.text(Checks::arrivals, Arrivals::label))
            .byDefault(Arrivals.SMOOTH)
            .flag("NAME", "Gaps between paced sends: smooth (default), uniform, normal or exponential (Poisson).")
            .doc(Table.TIME, "gaps between a paced workload's intended send times: `smooth` (evenly spaced), `uniform` (on"
                    + " [0, 2 × mean]), `normal` (sd of a quarter of the mean, cut at 0) or `exponential` (Poisson"
                    + " arrivals); each keeps the rate as its mean ([measurement.md](measurement.md#arrival-distributions))",
                    "smooth"));

    /** Percent; 0: off, the warm-up lasts --warmup. */
    public static final Setting<Double> WARMUP_HITRATE = declare(Setting.of("warmup-hitrate", GENERAL,
                    SettingType.number(Checks::hitrate))
            .byDefault(0.0)
            .flag("PERCENT", "Warm up until the hit rate reaches PERCENT, for at most --warmup (default bound 60 s).")
            .doc(Table.TIME, "warm up until the hit rate of the reads answered in one second reaches PERCENT (checked once a"
                    + " second, as rpc-perf does), or until `--warmup` has passed; the report says which: `Warmup"
                    + " complete: hit rate 91.3 % after 2.0 s (target 90 %)` or `Warmup ended at its bound of 5 s: hit"
                    + " rate 41.0 %, short of the 90 % target`; 0: off", "0"));

    /** Null: twice the request timeout, within 1 to 5 s. */
    public static final Setting<Duration> CONNECT_TIMEOUT = declare(Setting.of("connect-timeout", GENERAL,
                    SettingType.duration(Checks::positive))
            .flag("TIME", "How long a connect may take (default: twice --timeout, within 1 to 5 s).")
            .doc(Table.TIME, "how long a connect may take", "twice `--timeout`, within 1 to 5 s"));

    public static final Setting<Path> WATERFALL = declare(Setting.of("waterfall", GENERAL, SettingType.path(Checks::png))
            .output()
            .flag("FILE.png", "Draw the run's latency heatmap into FILE.png at its end (from --trace, or a temporary"
                    + " trace).")
            .doc(Table.OUTPUT, "at the run's end, draw the latency heatmap of the measured requests into FILE.png (rpc-perf"
                    + " 3's `waterfall`): from `--trace` when given, else from a trace kept in a temporary directory and"
                    + " deleted; the report adds `Waterfall: FILE.png (N requests, latency heatmap of the measured run)`",
                    "none"));

    /** [general] servers: several servers; the flag is --server, repeated, which replaces both keys. */
    public static final Setting<List<String>> SERVERS = declare(Setting.of("servers", POOL, SettingType.servers(true))
            .flag(null, "", "--server")
            .commands(NONE));

    /** --distribution ketama or modula, which shares its flag with the key distribution ({@link #DISTRIBUTION}). */
    public static final Setting<ServerDistribution> SERVER_DISTRIBUTION = declare(Setting.of("server-distribution", POOL,
                    SettingType.text(Checks::serverDistribution, Checks::serverDistributionKey, ServerDistribution::label))
            .byDefault(ServerDistribution.KETAMA)
            .key("distribution")
            .sharesFlagOf(() -> Settings.DISTRIBUTION)
            .flag("ketama|modula", "", "--distribution")
            .commands(NONE)
            .doc(Table.CONNECTIONS, "with several servers: how keys are placed on them, libmemcached's weighted ketama or"
                    + " modula ([servers.md](servers.md#where-a-key-goes)); the same flag names the key distribution,"
                    + " give it twice for both", "ketama"));

    public static final Setting<Boolean> CLUSTER = declare(Setting.of("cluster", POOL, SettingType.bool())
            .byDefault(false)
            .flag(null, "The servers are nodes of a redis Cluster: read its slot map, connect to every master, send each"
                    + " key to its slot's node, and follow MOVED and ASK.")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "(redis) the servers are nodes of a redis Cluster: its slot map is read from them, every"
                    + " master gets connections, MOVED and ASK are followed ([servers.md](servers.md#redis-cluster))",
                    "off"));

    public static final Setting<ReadFrom> READ_FROM = declare(Setting.of("read-from", POOL,
                    SettingType.text(SettingType.choice(ReadFrom::parse, "master or replica"), ReadFrom::label))
            .byDefault(ReadFrom.MASTER)
            .flag("master|replica", "With --cluster: send reads to the replicas of each slot (READONLY) where it has"
                    + " them (default master).")
            .commands(RUN_AND_REPLAY)
            .doc(Table.CONNECTIONS, "with `--cluster`: reads go to the replicas of their slot (`READONLY`) where it has them",
                    "master"));

    public static final Setting<Path> OUT = declare(Setting.of("out", GENERAL, SettingType.path(Path::of))
            .output()
            .flag("DIR", "Write the run directory: config.toml, result.json, windows.hlog, seconds.hlog, report.txt,"
                    + " environment.json (docs/results.md); read it with 'fluxperf report DIR'.")
            .doc(Table.OUTPUT, "write the run directory: config.toml, result.json, windows.hlog, seconds.hlog, report.txt,"
                    + " environment.json ([results.md](results.md)); `fluxperf report DIR` prints the report again. When"
                    + " the run is done, a line on stderr says where the directory is (`fluxperf: run directory"
                    + " /abs/path ('fluxperf report DIR' prints this report again)`); stdout stays the report, as"
                    + " report.txt holds it. TOML: `[general] out`", "none"));

    /** The admin endpoint's [ADDR:]PORT; null: none. */
    public static final Setting<String> ADMIN = declare(Setting.of("admin", GENERAL,
                    SettingType.text(Checks::admin, a -> a))
            .output()
            .flag("[ADDR:]PORT", "Serve the admin endpoint (GET / dashboard, /metrics, /metrics.json, /vars; PUT"
                    + " /ratelimit/RATE; POST /quitquitquit) on PORT of 127.0.0.1, or of ADDR; 0 takes a free port.")
            .doc(Table.OUTPUT, "serve the admin endpoint on PORT of 127.0.0.1 (or of ADDR; 0: a free port, printed on"
                    + " stderr): the live dashboard, Prometheus `/metrics`, `/metrics.json`, `/vars`, `PUT"
                    + " /ratelimit/RATE` and `POST /quitquitquit` ([admin.md](admin.md))", "none"));

    // ---- each [[workload]] (the flag sets it in every workload)

    public static final Setting<String> METHOD = declare(Setting.of("method", WORKLOAD, SettingType.text())
            .ownFormInWorkload()
            .flag("CMD", "memcache: get, gets, set, add, replace, append, prepend, cas, delete, incr, decr, touch; redis:"
                    + " also del, exists, expire, mget, mset, hget, hset, hgetall, hdel, hexists, lpush, rpush, lpop, rpop,"
                    + " lrange, llen, sadd, srem, smembers, zadd, zrange, zrank, zrem, ping, publish; http: get, post, put, delete"
                    + " (default get).")
            .doc(Table.WORKLOAD, "memcache: get, gets, set, add, replace, append, prepend, cas, delete, incr, decr,"
                    + " touch; redis: get, set, del, exists, expire, incr, decr, mget, mset, hget, hset, hgetall, hdel,"
                    + " hexists, lpush, rpush, lpop, rpop, lrange, llen, sadd, srem, smembers, zadd, zrange, zrank, zrem,"
                    + " ping, publish; http: get, post, put, delete", "get"));

    public static final Setting<Integer> KEYS_PER_REQUEST = declare(Setting.of("keys-per-request", WORKLOAD,
                    SettingType.integer(1, MAX_KEYS_PER_REQUEST))
            .byDefault(1)
            .inWorkload(w -> w.keysPerRequest() > 1 ? w.keysPerRequest() : null)
            .flag("N", "Keys per get (multi-key get), default 1.")
            .doc(Table.WORKLOAD, "keys per get/gets (a multi-key get; redis MGET), {range}", "1"));

    /** A publish workload's subscriber connections. */
    public static final Setting<Integer> SUBSCRIBERS = declare(Setting.of("subscribers", WORKLOAD,
                    SettingType.integer(1, WorkloadShape.MAX_SUBSCRIBERS))
            .ownFormInWorkload()
            .flag("N", "With --method publish (redis): N subscriber connections, each subscribed to every channel"
                    + " (the keyspace's keys; sharded on a cluster), that measure each message from its send time.")
            .doc(Table.WORKLOAD, "with `--method publish` (redis): N subscriber connections that receive every message"
                    + " and measure it ([below](#publish-and-subscribe)); a file's `subscribers = N`, {range}", "none"));

    public static final Setting<ValueSize> BYTES = declare(Setting.of("bytes", WORKLOAD,
                    SettingType.text(ValueSizeParser::parse, ValueSize::describe))
            .byDefault(ValueSize.fixed(ValueSize.DEFAULT_BYTES))
            .ownFormInWorkload()
            .flag("SIZE", "Value size: 64, a range 16..1024, or weighted sizes 64:9,4096:1 (default 64).")
            .doc(Table.WORKLOAD, "value size: `64`, a uniform range `16..1024`, or weighted sizes `64:9,4096:1`", "64"));

    public static final Setting<Boolean> HIT = declare(Setting.of("hit", WORKLOAD, SettingType.bool())
            .byDefault(false)
            .inWorkload(WorkloadConfig::hit)
            .flag(null, "Write every key before measuring, so that gets hit.")
            .doc(Table.WORKLOAD, "write every key of the key space before measuring, so that gets hit", "off"));

    public static final Setting<Boolean> FLUSH = declare(Setting.of("flush", WORKLOAD, SettingType.bool())
            .byDefault(false)
            .inWorkload(WorkloadConfig::flush)
            .flag(null, "Send flush_all before the run, so that gets miss.")
            .doc(Table.WORKLOAD, "flush the server before the run (memcache `flush_all`, redis `FLUSHALL`), so"
                    + " that gets miss; not with `--hit`; an error for http", "off"));

    /** As typed, so that "abc" or "-5" is told with the flag's name rather than picocli's words. */
    public static final Setting<Double> RATE = declare(Setting.of("rate", WORKLOAD,
                    SettingType.text(Checks::rate, SettingType::tomlNumber))
            .ownFormInWorkload()
            .flag("N", "Requests per second in total (open loop; latency from the intended send time), at most 1e9 and"
                    + " at least one per window; 0 or absent: no pacing, as fast as possible (closed loop).")
            .doc(Table.WORKLOAD, "requests/s in total, open loop; 0 or absent: no pacing, as fast as the connections"
                    + " allow (closed loop), as a workload's `rate = 0` and rpc-perf's. Above 0, a plain decimal (`5000`,"
                    + " `2500.5`, `1e4`, `10_000`), at most 1,000,000,000 (one request a nanosecond, the schedule's"
                    + " resolution) and at least one request per window (`1/--duration`: 0.0167 for 60 s windows); outside"
                    + " those, or below 0, one sentence and exit 2. The same bounds hold for a workload's `rate`, and for"
                    + " `--ramp` and `PUT /ratelimit`, which take no 0 ([admin.md](admin.md#setting-the-rate-while-it-runs))",
                    "unlimited"));

    public static final Setting<Long> KEYSPACE = declare(Setting.of("keyspace", WORKLOAD,
                    SettingType.longInteger(1, Long.MAX_VALUE))
            .byDefault(KeyspaceConfig.DEFAULT_COUNT)
            .inWorkload(w -> w.keyspace().count())
            .flag("N", "Number of keys (default 10000).")
            .doc(Table.WORKLOAD, "number of keys", "10000"));

    public static final Setting<Integer> KEY_LENGTH = declare(Setting.of("key-length", WORKLOAD,
                    SettingType.integer(1, MAX_KEY_LENGTH))
            .byDefault(KeyspaceConfig.DEFAULT_KEY_LENGTH)
            .inWorkload(w -> w.keyspace().keyLength())
            .flag("N", "Key length in bytes (default 16).")
            .doc(Table.WORKLOAD, "key length in bytes, {range}: the key index, zero-padded; it must hold the"
                    + " digits of the largest index", "16"));

    /**
     * Repeatable: each value is a key distribution (uniform, zipf, sequential) or, with several
     * servers, how keys are placed on them ({@link #SERVER_DISTRIBUTION}, ketama or modula).
     */
    public static final Setting<List<String>> DISTRIBUTION = declare(Setting.of("distribution", WORKLOAD,
                    SettingType.strings())
            .ownFormInWorkload()
            .flag("NAME", "Key distribution: uniform (default), zipf or sequential; with several servers, how keys are"
                    + " placed on them: ketama (default, libmemcached's weighted ketama) or modula. Repeat it to give both.")
            .doc(Table.WORKLOAD, "key popularity: uniform, zipf, sequential (ketama and modula place keys on"
                    + " several servers: below)", "uniform"));

    public static final Setting<Double> EXPONENT = declare(Setting.of("exponent", WORKLOAD,
                    SettingType.number(Checks::exponent))
            .byDefault(KeyspaceConfig.DEFAULT_ZIPF_EXPONENT)
            .inWorkload(w -> w.keyspace().distribution() == KeyDistribution.ZIPF ? w.keyspace().exponent() : null)
            .flag("X", "Zipf exponent (default 0.99).")
            .doc(Table.WORKLOAD, "zipf exponent, greater than 0 (zipf only)", "0.99"));

    public static final Setting<Integer> TTL = declare(Setting.of("ttl", WORKLOAD, SettingType.integer(0, MAX_TTL))
            .byDefault(0)
            .ownFormInWorkload()
            .flag("SECONDS", "Expiry time that writes carry (default 0: none).")
            .doc(Table.WORKLOAD, "expiry that writes carry, {range}", "0 (none)"));

    public static final Setting<String> COMMAND = declare(Setting.of("command", WORKLOAD, SettingType.text())
            .ownFormInWorkload()
            .flag("WORDS", "A command workload (redis): words with __key__, __data__ and __counter__, e.g."
                    + " \"SET __key__ __data__\".")
            .doc(Table.WORKLOAD, "(redis) a command workload: words with `__key__`, `__data__`, `__counter__`,"
                    + " e.g. `\"SET user:__key__ __data__\"`; not together with `--method`", "none"));

    public static final Setting<String> PATH = declare(Setting.of("path", WORKLOAD, SettingType.text(Checks::path, p -> p))
            .ownFormInWorkload()
            .flag("TEMPLATE", "HTTP path; __key__ in it is each request's key, e.g. /items/__key__ (default /).")
            .doc(Table.WORKLOAD, "(http) the request path; `__key__` in it is each request's key, e.g."
                    + " `/items/__key__`", "`/`"));

    /** START:END:STEP:INTERVAL; in a file, each workload's [workload.ratelimit]. */
    public static final Setting<String> RAMP = declare(Setting.of("ramp", WORKLOAD, SettingType.text())
            .key("ratelimit")
            .ownFormInWorkload()
            .flag("START:END:STEP:INTERVAL", "Step the rate from START to END by STEP requests/s, each step INTERVAL"
                    + " long (e.g. 10000:40000:10000:2s); without --duration, one window per step.")
            .doc(Table.OUTPUT, "step the run's rate from START to END by STEP requests/s, each step INTERVAL long; without"
                    + " `--duration`, one window per step ([admin.md](admin.md#rate-ramps))", "none"));

    // ---- the command line only

    /** Objectives as written (p99<2ms), added to the config file's [[slo]] tables. */
    public static final Setting<List<String>> SLO = declare(Setting.of("slo", COMMAND_LINE, SettingType.strings())
            .flag("EXPR", "A service-level objective checked per window and over the run, e.g. p99<2ms, get.p999<=10ms,"
                    + " success>=99.9%%, rate>=49500 (repeatable; adds to the config's [[slo]]). Exit code 3 when one"
                    + " fails.")
            .doc(Table.OUTPUT, "a service-level objective, checked in every window and over the run: `p99<2ms`,"
                    + " `get.p999<=10ms`, `success>=99.9%`, `errors<=0.1%`, `rate>=49500`; repeatable, adds to the"
                    + " config's `[[slo]]`; the report ends with each one's verdict and value, and the exit code is 3"
                    + " when one failed ([slo.md](slo.md))", "none"));

    public static final Setting<Boolean> SLO_ABORT = declare(Setting.of("slo-abort", COMMAND_LINE, SettingType.bool())
            .flag(null, "Stop the run at the end of the first window in which an objective fails (exit code 3).")
            .doc(Table.OUTPUT, "stop the run at the end of the first window in which an objective failed (exit 3)", "off"));

    public static final Setting<Boolean> SLO_STRICT = declare(Setting.of("slo-strict", COMMAND_LINE, SettingType.bool())
            .flag(null, "Fail an objective whose verdict is too close to call at the run's sample size (its 95 %% interval"
                    + " holds the threshold), as if missed.")
            .doc(Table.OUTPUT, "an objective that is too close to call at the run's sample size (its 95 % interval holds"
                    + " the threshold) fails, as if missed ([slo.md](slo.md#verdicts))", "off"));

    private Settings() {
    }

    private static <T> Setting<T> declare(Setting<T> s) {
        for (Setting<?> other : ALL) {
            if (other.name().equals(s.name())) {
                throw new IllegalStateException("two settings are called " + s.name());
            }
        }
        ALL.add(s);
        return s;
    }

    /** Every declared setting, in declaration order. */
    public static List<Setting<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    /** The setting whose key in [general] is {@code key}, or null. */
    static Setting<?> byGeneralKey(String key) {
        for (Setting<?> s : ALL) {
            if (key.equals(s.key()) && s.isGeneral()) {
                return s;
            }
        }
        return null;
    }

    /** The default of every setting that has one. */
    public static SettingValues defaults() {
        SettingValues v = SettingValues.none();
        for (Setting<?> s : ALL) {
            v = withDefault(v, s);
        }
        return v;
    }

    private static <T> SettingValues withDefault(SettingValues v, Setting<T> s) {
        return v.with(s, s.defaultValue());
    }
}
