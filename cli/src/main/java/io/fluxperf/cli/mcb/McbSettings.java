package io.fluxperf.cli.mcb;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.Settings;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import java.time.Duration;
import java.util.Locale;

/**
 * mcb's options, checked, and the run they make (seeds/mcb.txt): {@code threads} threads, each
 * with one connection of its own and one command in flight, each sending exactly
 * {@code perThread} commands on keys below {@code maxKey}.
 *
 * @param command    set, add or get
 * @param address    {@code -a}: host or IP address (TCP and UDP)
 * @param port       {@code -p}: TCP or UDP port
 * @param socketPath {@code -f}: the Unix socket (UNIX_SOCKET only), else null
 * @param perThread  {@code -n}: commands each thread sends
 * @param maxKey     {@code -m}: keys are 0 … maxKey-1
 * @param length     {@code -l}: value bytes of set and add
 * @param single     {@code -s}: a new connection for every command
 */
public record McbSettings(Command command, String address, int port, McbTransport transport, String socketPath,
                          int threads, long perThread, long maxKey, int length, boolean single) {
    public static final String DEFAULT_ADDRESS = "127.0.0.1";
    public static final int DEFAULT_PORT = 11211;
    /**
     * Long enough that the command count, not the clock, ends the run (mcb has no time limit);
     * it only matters for a run that would take a year.
     */
    static final Duration WINDOW = Duration.ofDays(365);
    /** mcb waits for every reply; a reply this late counts as a timeout (a lost UDP datagram). */
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    static final long SEED = RunConfig.DEFAULT_SEED;
    /** mcb is memcached's benchmark: it speaks memcached's text protocol, whatever the default. */
    static final String PROTOCOL = "memcache";

    /** Checks the options as given on the command line; every mistake is one sentence naming its flag. */
    public static McbSettings of(String command, String address, int port, String transport, String socketPath,
                                 int threads, long perThread, long maxKey, int length, boolean single) {
        Command c = switch (command.trim().toLowerCase(Locale.ROOT)) {
            case "set" -> Command.SET;
            case "add" -> Command.ADD;
            case "get" -> Command.GET;
            default -> throw new UserError("-c: unknown command '" + command + "'; expected set, add or get");
        };
        McbTransport t = McbTransport.parse(transport);
        if (t == McbTransport.UNIX_SOCKET) {
            if (socketPath == null || socketPath.isBlank()) {
                throw new UserError("-T UNIX_SOCKET needs the socket's path: -f PATH");
            }
        } else {
            if (socketPath != null) {
                throw new UserError("-f: a socket path is only used with -T UNIX_SOCKET, not with -T " + t.name());
            }
            if (port < 1 || port > 65535) {
                throw new UserError("-p: port " + port + " is outside 1..65535");
            }
            if (address == null || address.isBlank()) {
                throw new UserError("-a: the server address is empty");
            }
        }
        Settings.THREADS.checked("-t", threads); // run's limit and message
        if (perThread < 1) {
            throw new UserError("-n: the number of commands a thread must be at least 1, not " + perThread);
        }
        if (perThread > Long.MAX_VALUE / threads) {
            throw new UserError("-n: " + perThread + " commands a thread times " + threads + " threads is too many");
        }
        if (maxKey < 1) {
            throw new UserError("-m: the max key must be at least 1, not " + maxKey);
        }
        if (length < 0 || length > ValueSize.MAX_BYTES) {
            throw new UserError("-l: the data length must be 0 to " + ValueSize.MAX_BYTES + " bytes, not " + length);
        }
        if (single && t == McbTransport.UDP) {
            throw new UserError("-s: UDP has no connection to renew per command; use -s with TCP or UNIX_SOCKET");
        }
        return new McbSettings(c, address, port, t, socketPath, threads, perThread, maxKey, length, single);
    }

    /** Commands of the whole run: threads × commands a thread. */
    public long totalCommands() {
        return threads * perThread;
    }

    /** Whether the command carries a value ({@code data length} in the report). */
    public boolean writes() {
        return command != Command.GET;
    }

    /** The target as {@code run --server} spells it: HOST:PORT, [IPv6]:PORT or unix:PATH. */
    public String server() {
        if (transport == McbTransport.UNIX_SOCKET) {
            return "unix:" + socketPath;
        }
        String host = address.indexOf(':') >= 0 && !address.startsWith("[") ? "[" + address + "]" : address;
        return host + ":" + port;
    }

    /**
     * Keys as mcb sends them: a number below {@code -m} (0-based here), drawn at random; written
     * with as many digits as the largest key has, so that {@code -m 1000} means 1000 distinct keys.
     */
    KeyspaceConfig keyspace() {
        int digits = Long.toString(maxKey - 1).length();
        return new KeyspaceConfig(maxKey, digits, KeyDistribution.UNIFORM, KeyspaceConfig.DEFAULT_ZIPF_EXPONENT);
    }

    /**
     * The run: one thread per mcb thread, one connection each, one command in flight, closed loop,
     * {@code threads × perThread} requests in total (split evenly: exactly {@code perThread} per
     * thread), a window long enough that the request count ends it.
     */
    public RunConfig runConfig() {
        WorkloadConfig workload = WorkloadConfig.of(command).withName(command.label()).withBytes(ValueSize.fixed(length))
                .withKeyspace(keyspace());
        ConnectionOptions connection = ConnectionOptions.builder().udp(transport == McbTransport.UDP)
                .connectPerRequest(single).build();
        return RunConfig.builder().server(server()).protocol(PROTOCOL).threads(threads).connections(1).pipeline(1)
                .duration(WINDOW).timeout(TIMEOUT).requests(totalCommands()).seed(SEED).workload(workload)
                .connection(connection).build();
    }
}
