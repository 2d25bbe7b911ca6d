package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.config.DurationParser;
import io.fluxperf.engine.config.Settings;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.Listeners;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.target.TargetStats;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fluxperf serve}: the embedded target server on its own, like dperf's server mode, until
 * SIGINT or SIGTERM; with a line of the server's own statistics per interval.
 */
@Command(name = "serve",
        header = "Runs the embedded memcache, redis or HTTP server on its own.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Runs an embedded memcache (text and binary), redis or HTTP server, in memory and LRU-bounded,",
                "until Ctrl-C or SIGTERM, printing its own statistics every second.",
                "It listens on loopback only unless --bind says otherwise."},
        footer = {"",
                "Examples:",
                "  fluxperf serve                                   # memcache on 127.0.0.1:11211",
                "  fluxperf serve -p 11311 -t 2 --memory 1024       # two event loops, 1 GiB of items",
                "  fluxperf serve --bind 0.0.0.0                    # reachable from other hosts",
                "  fluxperf serve --delay 2ms                       # every reply 2 ms after its request",
                "  fluxperf serve --protocol redis -p 6379          # the embedded redis server",
                "  fluxperf serve --protocol http -p 8080           # the embedded HTTP server",
                "  fluxperf serve --stall-every 1s --stall-for 100ms   # hold all replies 100 ms each second",
                "  fluxperf serve --stats-interval 0                # no statistics lines",
                "  fluxperf serve --udp-port 11211                  # memcache over UDP too (memcached's -U)",
                "  fluxperf serve --unix /tmp/mc.sock               # and on a Unix socket (memcached's -s)",
                "  fluxperf serve --tls-cert cert.pem --tls-key key.pem   # TLS on the TCP port",
                "",
                "Then point a client at it, e.g.:",
                "  fluxperf run -s 127.0.0.1:11211 --method get --hit -d 10",
                "  memtier_benchmark -s 127.0.0.1 -p 11211 -P memcache_text",
                "  printf 'set k 0 0 1\\r\\nv\\r\\nget k\\r\\n' | nc -q1 127.0.0.1 11211",
                "  fluxperf run -s 127.0.0.1:11211 --udp            # against --udp-port 11211",
                "  fluxperf run -s unix:/tmp/mc.sock                # against --unix /tmp/mc.sock",
                "  fluxperf run -s 127.0.0.1:11211 --tls --tls-ca cert.pem",
                "",
                "--delay and --stall-* are test knobs for checking latency measurement: replies keep their",
                "order and are never early; timers are precise to a few tens of microseconds."})
public final class ServeCommand implements Callable<Integer>, Streams.Aware {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private Streams streams = Streams.system();
    private final CountDownLatch stopped = new CountDownLatch(1);

    @Option(names = "--protocol", paramLabel = "NAME", defaultValue = "memcache",
            description = "Protocol to serve: memcache (default; the same server answers memcache-binary and memcache-meta), redis or http.")
    private String protocol;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "11211",
            description = "TCP port (default ${DEFAULT-VALUE}; 0 picks a free one).")
    private int port;

    @Option(names = "--bind", paramLabel = "ADDR", defaultValue = TargetOptions.DEFAULT_BIND_ADDRESS,
            description = "Address to listen on (default ${DEFAULT-VALUE}); 0.0.0.0 for every interface.")
    private String bind;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", defaultValue = "1",
            description = "Event-loop threads (default ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--memory", paramLabel = "MIB", defaultValue = "64",
            description = "Memory for items in MiB, as memcached's -m (default ${DEFAULT-VALUE}); LRU eviction beyond it.")
    private long memoryMiB;

    @Option(names = "--delay", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Test knob: write every reply this long after its request arrived, e.g. 2ms, 500us.")
    private Duration delay;

    @Option(names = "--stall-every", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Test knob: period of stalls, e.g. 1s (with --stall-for).")
    private Duration stallEvery;

    @Option(names = "--stall-for", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Test knob: length of each stall; replies due during it wait for its end.")
    private Duration stallFor;

    @Option(names = "--udp-port", paramLabel = "PORT",
            description = "Also serve memcache over UDP on this port (memcached's -U; 0 picks a free one). Default: no UDP.")
    private Integer udpPort;

    @Option(names = "--unix", paramLabel = "PATH",
            description = "Also listen on a Unix socket at PATH (memcached's -s); a stale socket file there is replaced.")
    private Path unixPath;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "PEM certificate (chain): TLS on the TCP port (with --tls-key).")
    private Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM private key (PKCS#8) of --tls-cert.")
    private Path tlsKey;

    @Option(names = "--stats-interval", paramLabel = "TIME", defaultValue = "1", converter = DurationConverter.class,
            description = "Print the server's statistics this often: seconds or 500ms (default 1; 0 = never).")
    private Duration statsInterval;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() throws InterruptedException {
        TargetOptions options = options();
        PrintStream out = streams.out();
        TargetServer server;
        try {
            server = Protocols.startTarget(protocol, options);
        } catch (IllegalStateException e) {
            throw new UserError(flagOf(e.getMessage()) + ": " + e.getMessage(), e);
        }
        checkListeners(server, options);
        long started = System.nanoTime();
        Thread hook = new Thread(() -> {
            close(server);
            out.println("fluxperf serve: stopped after " + (System.nanoTime() - started) / 1_000_000_000L + " s; "
                    + server.stats().totalCommands() + " commands on " + server.stats().totalConnections() + " connections");
            out.flush();
        }, "fluxperf-serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("fluxperf serve: " + protocol + " on " + listeners(server) + knobs(options));
        out.flush();
        warnIfHeapIsSmall(options);
        ScheduledExecutorService ticker = statsInterval.isZero() ? null : startStatsLines(server, out);
        try {
            stopped.await();
        } finally {
            if (ticker != null) {
                ticker.shutdownNow();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // a signal started the JVM's shutdown; the hook closes the server
            }
            close(server);
        }
        return 0;
    }

    /** Ends {@link #call()} as SIGINT would; for tests and embedding. */
    void stop() {
        stopped.countDown();
    }

    private void close(TargetServer server) {
        server.close(); // idempotent
        stopped.countDown();
    }

    /** Checks the flags (naming the flag in each message) and turns them into server options. */
    TargetOptions options() {
        if (!Protocols.withTarget().contains(protocol)) {
            throw new UserError("--protocol: unknown protocol '" + protocol + "'; expected " + String.join(", ", Protocols.withTarget()));
        }
        if (port < 0 || port > 65535) {
            throw new UserError("--port: " + port + " is not a TCP port; use 1..65535, or 0 for a free one");
        }
        if (bind.isBlank()) {
            throw new UserError("--bind: the address is empty; use an IP address or host name such as 127.0.0.1");
        }
        Settings.THREADS.checked("--threads", threads); // run's limit and message
        long minMiB = Math.max(1, TargetOptions.MIN_MEMORY_LIMIT_BYTES >> 20);
        if (memoryMiB < minMiB || memoryMiB > (1L << 24)) {
            throw new UserError("--memory: " + memoryMiB + " MiB is out of range; use " + minMiB + ".." + (1L << 24) + " (MiB)");
        }
        Duration d = delay == null ? Duration.ZERO : delay;
        if (d.isNegative()) {
            throw new UserError("--delay: " + DurationParser.format(d) + " is negative");
        }
        if ((stallEvery == null) != (stallFor == null)) {
            throw new UserError(stallEvery == null ? "--stall-for needs --stall-every (how often to stall)"
                    : "--stall-every needs --stall-for (how long each stall lasts)");
        }
        Duration every = stallEvery == null ? Duration.ZERO : stallEvery;
        Duration length = stallFor == null ? Duration.ZERO : stallFor;
        if (stallEvery != null) {
            if (every.isZero() || every.isNegative()) {
                throw new UserError("--stall-every: " + DurationParser.format(every) + " must be longer than zero");
            }
            if (length.isZero() || length.isNegative()) {
                throw new UserError("--stall-for: " + DurationParser.format(length) + " must be longer than zero");
            }
            if (length.compareTo(every) >= 0) {
                throw new UserError("--stall-for: " + DurationParser.format(length) + " must be shorter than --stall-every "
                        + DurationParser.format(every));
            }
        }
        if (udpPort != null && (udpPort < 0 || udpPort > 65535)) {
            throw new UserError("--udp-port: " + udpPort + " is not a UDP port; use 1..65535, or 0 for a free one");
        }
        Protocol served = Protocols.find(protocol);
        if (udpPort != null && served != null && served.datagramFraming() == null) {
            throw new UserError("--udp-port: protocol " + protocol + " has no UDP framing, so it is not served over UDP");
        }
        if (unixPath != null) {
            checkUnixPath(unixPath);
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UserError(tlsCert == null ? "--tls-key needs --tls-cert (the certificate of the key)"
                    : "--tls-cert needs --tls-key (the certificate's private key)");
        }
        if (tlsCert != null) {
            checkReadable(tlsCert, "--tls-cert");
            checkReadable(tlsKey, "--tls-key");
            try {
                Listeners.serverTls(tlsCert, tlsKey);
            } catch (IllegalStateException e) {
                throw new UserError("--tls-cert/--tls-key: " + e.getMessage(), e);
            }
        }
        if (statsInterval.isNegative()) {
            throw new UserError("--stats-interval: " + DurationParser.format(statsInterval) + " is negative; use 0 for no lines");
        }
        return TargetOptions.builder()
                .bindAddress(bind).port(port).threads(threads).memoryLimitBytes(memoryMiB << 20)
                .responseDelay(d).stall(every, length)
                .udpPort(udpPort == null ? -1 : udpPort).unixPath(unixPath).tls(tlsCert, tlsKey)
                .build();
    }

    private static void checkReadable(Path file, String flag) {
        if (!Files.exists(file)) {
            throw new UserError(flag + ": " + file + ": no such file");
        }
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new UserError(flag + ": " + file + ": not a readable file");
        }
    }

    private static void checkUnixPath(Path path) {
        Path dir = path.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            throw new UserError("--unix: " + path + ": the directory " + dir + " does not exist");
        }
        if (Files.isDirectory(path) || Files.isRegularFile(path)) {
            throw new UserError("--unix: " + path + " is a " + (Files.isDirectory(path) ? "directory" : "file")
                    + ", not a socket; choose another path");
        }
        if (path.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 107) {
            throw new UserError("--unix: " + path + " is longer than the 107 bytes a Unix socket path may have");
        }
    }

    /** The flag to name for a listener that could not start, from the server's message. */
    private static String flagOf(String message) {
        if (message.contains("cannot listen on UDP")) {
            return "--udp-port";
        }
        if (message.contains("cannot listen on Unix socket")) {
            return "--unix";
        }
        if (message.startsWith("TLS")) {
            return "--tls-cert/--tls-key";
        }
        return "--bind/--port";
    }

    /** A target that does not (yet) have a listener asked for must not be silently without it. */
    private void checkListeners(TargetServer server, TargetOptions options) {
        String missing = null;
        if (options.unixPath() != null && server.unixPath() == null) {
            missing = "--unix: the " + protocol + " target has no Unix-socket listener";
        } else if (options.tls() && !server.tls()) {
            missing = "--tls-cert: the " + protocol + " target does not serve TLS";
        } else if (options.udpPort() >= 0 && server.udpAddress() == null) {
            missing = "--udp-port: the " + protocol + " target has no UDP listener";
        }
        if (missing != null) {
            server.close();
            throw new UserError(missing);
        }
    }

    private static String listeners(TargetServer server) {
        StringBuilder s = new StringBuilder(hostPort(server));
        if (server.tls()) {
            s.append(" (TLS)");
        }
        InetSocketAddress udp = server.udpAddress();
        if (udp != null) {
            s.append(", UDP ").append(ServerAddress.format(udp));
        }
        if (server.unixPath() != null) {
            s.append(", Unix socket ").append(server.unixPath());
        }
        return s.toString();
    }

    private ScheduledExecutorService startStatsLines(TargetServer server, PrintStream out) {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fluxperf-serve-stats");
            t.setDaemon(true);
            return t;
        });
        StatsLine line = new StatsLine(server.stats(), System.nanoTime());
        long periodNanos = statsInterval.toNanos();
        ticker.scheduleAtFixedRate(() -> out.println(line.next(server.stats(), System.nanoTime())),
                periodNanos, periodNanos, TimeUnit.NANOSECONDS);
        return ticker;
    }

    private void warnIfHeapIsSmall(TargetOptions options) {
        long heap = Runtime.getRuntime().maxMemory();
        if (options.memoryLimitBytes() > heap / 2) {
            streams.err().println("fluxperf serve: warning: --memory " + memoryMiB + " MiB is more than half the JVM heap ("
                    + (heap >> 20) + " MiB); items cost more on the heap than they count, so raise -Xmx");
        }
    }

    /** The address as {@code -s} takes it: {@code [::1]:PORT} for IPv6. */
    private static String hostPort(TargetServer server) {
        return ServerAddress.format(server.address());
    }

    private static String knobs(TargetOptions o) {
        StringBuilder s = new StringBuilder();
        if (!o.responseDelay().isZero()) {
            s.append(", reply delay ").append(DurationParser.format(o.responseDelay()));
        }
        if (!o.stallEvery().isZero()) {
            s.append(", stalls of ").append(DurationParser.format(o.stallFor()))
                    .append(" every ").append(DurationParser.format(o.stallEvery()));
        }
        return s.toString();
    }

    /** dperf-style per-interval line: differences between two snapshots, as rates. */
    static final class StatsLine {
        private TargetStats previous;
        private long previousNanos;

        StatsLine(TargetStats first, long nanos) {
            this.previous = first;
            this.previousNanos = nanos;
        }

        String next(TargetStats now, long nanos) {
            double seconds = Math.max(1e-9, (nanos - previousNanos) / 1e9);
            TargetStats p = previous;
            long opened = now.totalConnections() - p.totalConnections();
            long closed = opened - (now.currentConnections() - p.currentConnections());
            long keys = now.keysRequested() - p.keysRequested();
            long hits = now.getHits() - p.getHits();
            long gets = now.command("get") + now.command("gets") + now.command("gat") + now.command("gats")
                    - p.command("get") - p.command("gets") - p.command("gat") - p.command("gats");
            String hitRate = keys == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * hits / keys);
            String line = String.format(Locale.ROOT,
                    "%s  conns %d (+%d -%d)  cmds/s %.0f  gets/s %.0f  hit %s  in %.2f MB/s  out %.2f MB/s  items %d (%.1f MiB)  evictions %d",
                    LocalTime.now().format(CLOCK), now.currentConnections(), opened, closed,
                    (now.totalCommands() - p.totalCommands()) / seconds, gets / seconds, hitRate,
                    (now.bytesIn() - p.bytesIn()) / seconds / 1e6, (now.bytesOut() - p.bytesOut()) / seconds / 1e6,
                    now.items(), now.bytesStored() / 1048576.0, now.evictions());
            previous = now;
            previousNanos = nanos;
            return line;
        }
    }
}
