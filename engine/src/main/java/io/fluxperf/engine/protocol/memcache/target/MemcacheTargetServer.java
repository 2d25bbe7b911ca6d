package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Stat;
import io.fluxperf.engine.target.Listeners;
import io.fluxperf.engine.target.ReplyPacer;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServerBase;
import io.fluxperf.engine.target.TargetStats;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DatagramPacket;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import reactor.netty.tcp.TcpServer;

/**
 * An in-process memcache server speaking the text protocol as memcached 1.6 does (and, on a TCP or
 * Unix-socket connection whose first byte is 0x80, the binary protocol: {@link MemcacheBinaryProcessor}), over
 * reactor-netty's {@link TcpServer} on its own event loops ({@code fluxperf-target-*} threads,
 * epoll when available). Items live in a memory-bounded LRU {@link MemcacheStore}.
 *
 * <p>The protocol work is done by plain Netty handlers added per connection (one
 * {@link MemcacheConnectionHandler} each); {@link Listeners} provides the listening sockets, the
 * loops and the lifecycle.
 *
 * <p>Besides TCP (with TLS when the options give a certificate and key) it can listen on a Unix
 * socket (the same handlers) and on UDP. Over UDP it speaks memcached's UDP protocol: every
 * datagram starts with the 8-byte frame header (request id, sequence number, total datagrams,
 * reserved); a request is one datagram (memcached drops multi-datagram requests, and so does this
 * server); the replies to one datagram are split into datagrams of at most
 * {@value #UDP_MAX_DATAGRAM} bytes, header included, numbered 0..n-1 of n. Unlike memcached, each
 * datagram is decoded on its own (an incomplete request is not continued by the next datagram,
 * which may come from another client). With several threads on epoll, one UDP socket per thread
 * shares the port (SO_REUSEPORT). The reply-pacing test knobs apply to UDP replies too, by timers
 * without the TCP writer's spin.
 */
public final class MemcacheTargetServer extends TargetServerBase {
    /** memcached's UDP_MAX_PAYLOAD_SIZE: a reply datagram, frame header included. */
    static final int UDP_MAX_DATAGRAM = 1400;
    static final int UDP_HEADER = 8;
    /** Largest UDP payload over IPv4: requests up to this size are accepted whole. */
    private static final int UDP_MAX_REQUEST = 65_507;

    private final MemcacheServerStats stats;

    private MemcacheTargetServer(TargetOptions options, Listeners listeners, MemcacheServerStats stats) {
        super("memcache", options, listeners);
        this.stats = stats;
    }

    /**
     * Starts listening and returns once it does.
     *
     * @throws IllegalStateException if it cannot listen; the message names the listener (the TCP
     *                               address, {@code UDP host:port}, {@code Unix socket path}, or
     *                               the TLS files) and the reason
     */
    public static MemcacheTargetServer start(TargetOptions options) {
        SslContext ssl = options.tls() ? Listeners.serverTls(options.tlsCert(), options.tlsKey()) : null;
        MemcacheStore store = new MemcacheStore(options.memoryLimitBytes(),
                MemcacheStore.segmentsFor(options.memoryLimitBytes(), options.threads()));
        MemcacheCounters counters = new MemcacheCounters();
        MemcacheServerStats stats = new MemcacheServerStats(counters, store, options.threads());
        ReplyPacer pacer = ReplyPacer.of(options, System.nanoTime());
        Listeners listeners = new Listeners("fluxperf-target", "fluxperf-target", options.threads());
        try {
            TcpServer tcp = listeners.tcpServer(connection -> connection
                    .addHandlerLast("fluxperf-memcache-sniff",
                            new MemcacheBinaryConnectionHandler.Sniffer("fluxperf-memcache", store, counters, pacer))
                    .addHandlerLast("fluxperf-memcache", new MemcacheConnectionHandler(store, counters, stats, pacer)));
            listeners.bindTcp(tcp, options.bindAddress(), options.port(), ssl);
            if (options.unixPath() != null) {
                listeners.bindUnix(tcp, options.unixPath());
            }
            if (options.udpPort() >= 0) {
                listeners.bindUdp(options.bindAddress(), options.udpPort(), UDP_MAX_REQUEST + UDP_HEADER + 1,
                        "fluxperf-memcache-udp", () -> new UdpHandler(store, counters, stats, pacer));
            }
            if (pacer != null) {
                listeners.minimizeTimerSlack();
            }
            return new MemcacheTargetServer(options, listeners, stats);
        } catch (RuntimeException e) {
            throw listeners.failed(e);
        }
    }

    @Override
    public TargetStats stats() {
        return stats.targetStats();
    }

    /**
     * memcache over UDP on one socket (so one event loop): each datagram is one request, answered
     * with its frame header's request id, the replies split into numbered datagrams. A datagram
     * shorter than the header, or one of a multi-datagram request, is dropped, as memcached does.
     */
    static final class UdpHandler extends ChannelInboundHandlerAdapter {
        private static final InternalLogger LOG = InternalLoggerFactory.getInstance(UdpHandler.class);

        private final MemcacheStore store;
        private final MemcacheCounters counters;
        private final MemcacheServerStats stats;
        private final ReplyPacer pacer;
        private MemcacheCounters.Cell cell;
        private MemcacheCommandProcessor processor;
        /** Replies that the processor handed over early (a reply batch past its size bound) for this datagram. */
        private ByteBuf early;

        UdpHandler(MemcacheStore store, MemcacheCounters counters, MemcacheServerStats stats, ReplyPacer pacer) {
            this.store = store;
            this.counters = counters;
            this.stats = stats;
            this.pacer = pacer;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            cell = counters.cellFor(ctx.channel().eventLoop());
            processor = new MemcacheCommandProcessor(store, cell, stats, ctx.alloc(), this::takeEarly,
                    ctx.channel().localAddress());
        }

        private void takeEarly(ByteBuf part) {
            if (early == null) {
                early = part;
            } else {
                early.writeBytes(part);
                part.release();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof DatagramPacket packet)) {
                ReferenceCountUtil.release(msg);
                return;
            }
            long arrival = pacer != null ? System.nanoTime() : 0L;
            try {
                ByteBuf in = packet.content();
                cell.add(Stat.BYTES_READ, in.readableBytes());
                if (in.readableBytes() < UDP_HEADER) {
                    return;
                }
                int requestId = in.readUnsignedShort();
                int sequence = in.readUnsignedShort();
                int total = in.readUnsignedShort();
                in.skipBytes(2);
                if (sequence != 0 || total != 1) {
                    return; // memcached: multi-datagram requests are not supported, and dropped
                }
                processor.now(System.currentTimeMillis());
                // a fresh decoder per datagram: an unfinished request must not swallow the next datagram
                new MemcacheRequestDecoder().decode(in, processor);
                ByteBuf replies = processor.takeReplies();
                if (early != null) {
                    if (replies != null) {
                        early.writeBytes(replies);
                        replies.release();
                    }
                    replies = early;
                    early = null;
                }
                if (replies != null) {
                    reply(ctx, requestId, replies, packet.sender(), arrival);
                }
            } finally {
                packet.release();
            }
        }

        /** Splits the replies into numbered datagrams and writes them, now or when the pacer says. */
        private void reply(ChannelHandlerContext ctx, int requestId, ByteBuf replies, InetSocketAddress to, long arrival) {
            int chunk = UDP_MAX_DATAGRAM - UDP_HEADER;
            int total = (replies.readableBytes() + chunk - 1) / chunk;
            if (total > 0xFFFF) {
                replies.release();
                replies = ctx.alloc().ioBuffer(64).writeBytes(
                        "SERVER_ERROR reply too large for UDP\r\n".getBytes(StandardCharsets.US_ASCII));
                total = 1;
            }
            cell.add(Stat.BYTES_WRITTEN, replies.readableBytes() + (long) total * UDP_HEADER);
            List<DatagramPacket> datagrams = pacer == null ? null : new ArrayList<>(total);
            for (int seq = 0; seq < total; seq++) {
                int n = Math.min(chunk, replies.readableBytes());
                ByteBuf d = ctx.alloc().ioBuffer(UDP_HEADER + n);
                d.writeShort(requestId).writeShort(seq).writeShort(total).writeShort(0);
                d.writeBytes(replies, n);
                DatagramPacket p = new DatagramPacket(d, to);
                if (datagrams != null) {
                    datagrams.add(p);
                } else {
                    ctx.write(p, ctx.voidPromise());
                }
            }
            replies.release();
            if (datagrams == null) {
                ctx.flush();
                return;
            }
            long now = System.nanoTime();
            long due = pacer.releaseTime(arrival, now);
            Runnable send = () -> {
                for (DatagramPacket p : datagrams) {
                    ctx.write(p, ctx.voidPromise());
                }
                ctx.flush();
            };
            if (due <= now) {
                send.run();
            } else {
                ctx.executor().schedule(send, due - now, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (processor != null) {
                processor.release();
            }
            if (early != null) {
                early.release();
                early = null;
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // a UDP socket stays open: an ICMP error about one client must not stop the others
            if (!(cause instanceof IOException)) {
                LOG.warn("memcache UDP listener {}: unexpected error", ctx.channel(), cause);
            }
        }
    }
}
