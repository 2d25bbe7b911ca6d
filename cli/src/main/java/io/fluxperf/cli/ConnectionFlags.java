package io.fluxperf.cli;

import io.fluxperf.engine.config.RunSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The flags of where and how to connect, and of the protocol's settings, that {@code run} and
 * {@code replay} share: the same names, meanings and checks ({@code ConfigResolver}) in both.
 */
final class ConnectionFlags {
    @Option(names = {"-s", "--server"}, paramLabel = "HOST:PORT",
            description = "Target server; [::1]:PORT for IPv6, unix:/path for a Unix socket. Repeat it for a pool whose keys "
                    + "are placed by ketama (HOST:PORT:WEIGHT for a weight), or name a cluster's node with --cluster. "
                    + "Default: an embedded server of the protocol.")
    List<String> server;

    @Option(names = "--cluster",
            description = "The servers are nodes of a redis Cluster: read its slot map, connect to every master, send each "
                    + "key to its slot's node, and follow MOVED and ASK.")
    Boolean cluster;

    @Option(names = "--read-from", paramLabel = "master|replica",
            description = "With --cluster: send reads to the replicas of each slot (READONLY) where it has them (default master).")
    String readFrom;

    @Option(names = {"-t", "--threads"}, paramLabel = "N", description = "Event-loop threads (default 1).")
    Integer threads;

    @Option(names = {"-c", "--connections"}, paramLabel = "N", description = "Connections per thread (default 25).")
    Integer connections;

    @Option(names = "--pipeline", paramLabel = "N", description = "Requests in flight per connection (default 1).")
    Integer pipeline;

    @Option(names = "--timeout", paramLabel = "TIME", converter = DurationConverter.class,
            description = "Per-request timeout (default 1s).")
    Duration timeout;

    @Option(names = "--tcp-nodelay", arity = "0..1", paramLabel = "true|false",
            description = "TCP_NODELAY on the connections (default true); --tcp-nodelay=false lets Nagle coalesce writes.")
    Boolean tcpNoDelay;

    @Option(names = "--user", paramLabel = "NAME", description = "redis ACL user for AUTH.")
    String user;

    @Option(names = "--password", paramLabel = "SECRET", description = "redis AUTH password.")
    String password;

    @Option(names = "--db", paramLabel = "N", description = "redis database (SELECT N).")
    Integer db;

    @Option(names = "--resp", paramLabel = "2|3", description = "redis protocol version; 3 switches with HELLO 3 (default 2).")
    Integer resp;

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "HTTP request header; repeatable.")
    List<String> headers;

    @Option(names = "--http-ok", paramLabel = "CLASSES", description = "HTTP status classes counted ok, e.g. 2xx,3xx (default 2xx).")
    String httpOk;

    @Option(names = "--meta-flags", paramLabel = "FLAGS",
            description = "memcache-meta: flags on every request: q (quiet mode, batches end with mn), O (opaque tokens), "
                    + "b (base64 keys), N (incr and decr create a missing key); e.g. --meta-flags qO.")
    String metaFlags;

    @Option(names = "--meta-get-flags", paramLabel = "FLAGS",
            description = "memcache-meta: the return flags of each mg, from v t f k s c h (default v).")
    String metaGetFlags;

    @Option(names = "--udp", description = "memcache over UDP (the 8-byte frame header); a lost datagram counts as a timeout.")
    Boolean udp;

    @Option(names = "--tls", description = "TLS on every connection.")
    Boolean tls;

    @Option(names = "--tls-ca", paramLabel = "FILE", description = "PEM file of the CA certificates to trust.")
    Path tlsCa;

    @Option(names = "--tls-insecure", description = "Accept any server certificate (tests only).")
    Boolean tlsInsecure;

    @Option(names = "--sni", paramLabel = "NAME", description = "TLS server name to send and verify (default: the host of --server).")
    String sni;

    @Option(names = "--connect-per-request", description = "Connect, send one request, close (mcb's -s, dperf's CPS).")
    Boolean connectPerRequest;

    @Option(names = "--hold-connections", paramLabel = "N", description = "Open N connections and keep them open (dperf's concurrent connections).")
    Integer holdConnections;

    @Option(names = "--connect-rate", paramLabel = "N", description = "New connections per second while opening (default: as fast as possible).")
    Double connectRate;

    @Option(names = "--io-uring",
            description = "Use Netty's io_uring transport for the load connections (TCP, UDP, Unix sockets) instead of epoll.")
    Boolean ioUring;

    @Option(names = "--busy-poll",
            description = "Keep each load thread polling for I/O instead of sleeping until the next reply or send: "
                    + "latency without the client's own wake-up in it, at the price of a whole CPU per thread (--threads).")
    Boolean busyPoll;

    @Option(names = "--early-send", paramLabel = "TIME", converter = DurationConverter.class,
            description = "A paced request may leave up to TIME before its intended time when the loop is awake anyway, "
                    + "so that requests that close share a wake-up (default 50us; more: fewer wake-ups, less CPU).")
    Duration earlySend;

    @Option(names = "--no-host-tuning",
            description = "Leave the JIT's compiler threads and the run's own thread at their priority, without yielding "
                    + "(for comparing with and without; see docs/internals.md).")
    boolean noHostTuning;

    /** Puts these flags into {@code s}, for {@code ConfigResolver}. */
    RunSettings applyTo(RunSettings s) {
        s.server = server == null || server.isEmpty() ? null : server.get(0);
        s.servers = server != null && server.size() > 1 ? List.copyOf(server) : null;
        s.cluster = cluster;
        s.readFrom = readFrom;
        s.threads = threads;
        s.connections = connections;
        s.pipeline = pipeline;
        s.timeout = timeout;
        s.tcpNoDelay = tcpNoDelay;
        s.udp = udp;
        s.tls = tls;
        s.tlsCa = tlsCa;
        s.tlsInsecure = tlsInsecure;
        s.sni = sni;
        s.connectPerRequest = connectPerRequest;
        s.holdConnections = holdConnections;
        s.connectRate = connectRate;
        s.ioUring = ioUring;
        s.busyPoll = busyPoll;
        s.earlySend = earlySend;
        return s.protocolOption("header", headers).protocolOption("http-ok", httpOk).protocolOption("user", user)
                .protocolOption("password", password).protocolOption("db", db).protocolOption("resp", resp)
                .protocolOption("meta-flags", metaFlags).protocolOption("meta-get-flags", metaGetFlags);
    }
}
