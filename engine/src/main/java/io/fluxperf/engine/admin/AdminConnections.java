package io.fluxperf.engine.admin;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The admin endpoint's connections: how many it holds, and how long one may wait.
 * <ul>
 *   <li><b>Header timeout:</b> a request's head must arrive whole within {@link Limits#headerTimeout}
 *       of the connection's start or of its first byte, however slowly its bytes trickle in (a
 *       slowloris client is closed).</li>
 *   <li><b>Idle timeout:</b> a kept-alive connection with no new request for
 *       {@link Limits#idleTimeout} is closed.</li>
 *   <li><b>A cap:</b> at most {@link #cap()} connections. A new one over it takes the place of the one
 *       that has waited longest for a request (as nginx reuses its kept-alive connections), so a
 *       flood of idle connections never keeps a real client out; when every one is busy with a
 *       request, the new one is closed.</li>
 * </ul>
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Everything runs on the endpoint's single loop: no locks.</li>
 *   <li>Each connection is in the list from its start to its close, once.</li>
 *   <li>The endpoint holds at most {@code cap} connections, and one more for the moment between a
 *       connection's accept and the close of the one it replaces.</li>
 * </ul>
 */
final class AdminConnections {
    /**
     * The admin endpoint's limits.
     *
     * @param connections   the most connections it holds (the fd budget may lower it, {@link #budget})
     * @param headerTimeout how long a request's head may take to arrive
     * @param idleTimeout   how long a kept-alive connection may wait for its next request
     */
    record Limits(int connections, Duration headerTimeout, Duration idleTimeout) {
        static final Limits DEFAULT = new Limits(32, Duration.ofSeconds(10), Duration.ofSeconds(60));
    }

    /**
     * File descriptors left to the run, over the load's connections: the JVM's, a trace's, a run
     * directory's files, the embedded target's listeners, opened after the endpoint starts.
     */
    static final long RESERVE = 64;

    private static final AttributeKey<Connection> CONNECTION = AttributeKey.valueOf("fluxperf-admin-connection");

    private final Limits limits;
    private final List<Connection> open = new ArrayList<>();
    private int cap;
    private ScheduledFuture<?> sweep;

    AdminConnections(Limits limits) {
        this.limits = limits;
        this.cap = limits.connections();
    }

    /** The most connections held now. */
    int cap() {
        return cap;
    }

    /** The most connections asked for, before the fd budget. */
    int wanted() {
        return limits.connections();
    }

    /** Connections held now. On the loop. */
    int size() {
        return open.size();
    }

    /**
     * How many connections the endpoint may hold so that it never takes a file descriptor the run
     * needs: what the process's limit leaves over those open now, the load's {@code loadNeeds} and
     * {@link #RESERVE}; at most {@code wanted}, and at least 1 (the endpoint stays usable).
     *
     * @param limit the process's file descriptor limit ({@code ulimit -n}), or a negative number when unknown
     */
    static int budget(int wanted, long limit, long openNow, long loadNeeds) {
        if (limit < 0) {
            return wanted;
        }
        long spare = limit - openNow - loadNeeds - RESERVE;
        return (int) Math.max(1, Math.min(wanted, spare));
    }

    /** Holds at most {@code n} connections from now on (closing the idle ones over it). On the loop. */
    void cap(int n) {
        cap = Math.max(1, Math.min(n, limits.connections()));
        while (open.size() > cap) {
            Connection c = longestWaiting();
            if (c == null) {
                break; // all busy: they leave once answered, and no new one comes in meanwhile
            }
            close(c);
        }
    }

    /** Starts closing the connections that waited too long, checked every quarter of the shorter timeout. */
    void start(EventLoop loop) {
        long shortest = Math.min(limits.headerTimeout().toNanos(), limits.idleTimeout().toNanos());
        long every = Math.max(TimeUnit.MILLISECONDS.toNanos(20), Math.min(TimeUnit.SECONDS.toNanos(1), shortest / 4));
        sweep = loop.scheduleAtFixedRate(this::closeExpired, every, every, TimeUnit.NANOSECONDS);
    }

    void stop() {
        if (sweep != null) {
            sweep.cancel(false);
        }
    }

    /** The handler that goes first in each connection's pipeline: it sees its bytes before the HTTP decoder does. */
    ChannelInboundHandlerAdapter guard() {
        return new Guard();
    }

    /** A request's head arrived whole on {@code ch}: it is busy until answered. */
    static void requestStarted(Channel ch) {
        Connection c = ch.attr(CONNECTION).get();
        if (c != null) {
            c.busy = true;
        }
    }

    /** {@code ch}'s answer went out and it stays open: it waits for its next request. */
    static void answered(Channel ch) {
        Connection c = ch.attr(CONNECTION).get();
        if (c != null) {
            c.busy = false;
            c.headStarted = 0;
            c.waitingSince = System.nanoTime();
            c.firstRequest = false;
        }
    }

    private void closeExpired() {
        long now = System.nanoTime();
        for (int i = open.size() - 1; i >= 0; i--) {
            Connection c = open.get(i);
            if (!c.busy && now - c.deadlineFrom() > c.allowedNanos()) {
                close(c);
            }
        }
    }

    /** The connection that has waited longest for a request, or null when every one is busy. */
    private Connection longestWaiting() {
        Connection best = null;
        for (Connection c : open) {
            if (!c.busy && (best == null || c.deadlineFrom() < best.deadlineFrom())) {
                best = c;
            }
        }
        return best;
    }

    private void close(Connection c) {
        open.remove(c); // at once: its close completes later
        c.channel.close();
    }

    /** One connection's state: busy with a request, or since when it waits for one and whether its head began. */
    private final class Connection {
        final Channel channel;
        long waitingSince = System.nanoTime();
        /** When the first byte of the request being read came, or 0 before it. */
        long headStarted;
        boolean busy;
        /** Nothing answered on it yet: it has the header timeout from its start, not the idle timeout. */
        boolean firstRequest = true;

        Connection(Channel channel) {
            this.channel = channel;
        }

        /**
         * When the current wait began: the connection's start for its first request (a head that
         * begins late does not get longer), else the head's first byte or the last answer.
         */
        long deadlineFrom() {
            return firstRequest || headStarted == 0 ? waitingSince : headStarted;
        }

        long allowedNanos() {
            return headStarted != 0 || firstRequest ? limits.headerTimeout().toNanos() : limits.idleTimeout().toNanos();
        }
    }

    private final class Guard extends ChannelInboundHandlerAdapter {
        private Connection self;

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            self = new Connection(ctx.channel());
            ctx.channel().attr(CONNECTION).set(self);
            if (open.size() >= cap) {
                Connection replaced = longestWaiting();
                if (replaced == null) {
                    ctx.close(); // every one is busy with a request: this one waits for none of them
                    return;
                }
                close(replaced);
            }
            open.add(self);
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (self != null && !self.busy && self.headStarted == 0) {
                self.headStarted = System.nanoTime();
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            open.remove(self);
            super.channelInactive(ctx);
        }
    }
}
