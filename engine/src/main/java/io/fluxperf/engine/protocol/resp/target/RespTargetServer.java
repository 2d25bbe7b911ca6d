package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.Listeners;
import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServerBase;
import io.fluxperf.engine.target.TargetStats;
import reactor.netty.tcp.TcpServer;

/**
 * An in-process redis server speaking RESP2 and, after {@code HELLO 3}, RESP3, as redis 7.0 does
 * for the commands a load test sends (strings, hashes, lists, sets, sorted sets, expiry, 16
 * databases) and the ones tools send on connecting (AUTH, SELECT, HELLO, INFO, COMMAND, CONFIG
 * GET, PING, QUIT). It runs over reactor-netty's {@link TcpServer} on its own event loops
 * ({@code fluxperf-redis-*} threads, epoll when available); keys live in a memory-bounded LRU
 * {@link RespStore} ({@code allkeys-lru}).
 *
 * <p>The protocol work is done by plain Netty handlers added per connection (one
 * {@link RespConnectionHandler} each); {@link Listeners} provides the listening socket, the loops
 * and the lifecycle. The delay and stall test knobs of {@link TargetOptions} apply to every reply.
 */
public final class RespTargetServer extends TargetServerBase {
    private final RespServerStats stats;
    private final boolean passwordSet;

    private RespTargetServer(TargetOptions options, Listeners listeners, RespServerStats stats, boolean passwordSet) {
        super("redis", options, listeners);
        this.stats = stats;
        this.passwordSet = passwordSet;
    }

    /** Starts listening without a password and returns once it does. */
    public static RespTargetServer start(TargetOptions options) {
        return start(options, null);
    }

    /**
     * Starts listening and returns once it does.
     *
     * @param requirePass the default user's password (redis' {@code requirepass}); null for none
     * @throws IllegalStateException if it cannot listen; the message names the address and the reason
     */
    public static RespTargetServer start(TargetOptions options, String requirePass) {
        RespStore store = new RespStore(options.memoryLimitBytes(),
                RespStore.segmentsFor(options.memoryLimitBytes(), options.threads()));
        RespCounters counters = new RespCounters();
        RespServerStats stats = new RespServerStats(counters, store);
        ReplyPacer pacer = ReplyPacer.of(options, System.nanoTime());
        Listeners listeners = new Listeners("fluxperf-redis", "fluxperf-redis", options.threads());
        try {
            listeners.bindTcp(listeners.tcpServer(connection -> connection.addHandlerLast("fluxperf-redis",
                    new RespConnectionHandler(store, counters, stats, pacer, requirePass))),
                    options.bindAddress(), options.port(), null);
            if (pacer != null) {
                listeners.minimizeTimerSlack();
            }
            stats.port(listeners.address().getPort());
            return new RespTargetServer(options, listeners, stats, requirePass != null);
        } catch (RuntimeException e) {
            throw listeners.failed(e);
        }
    }

    @Override
    protected void describeMore(StringBuilder s) {
        if (passwordSet) {
            s.append(", password required");
        }
    }

    @Override
    public TargetStats stats() {
        return stats.targetStats();
    }
}
