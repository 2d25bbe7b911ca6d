/**
 * The places requests go out on, and the transports under them. A {@link ConnectionSlot} is one of
 * a load thread's connections and outlives the wires it connects with: {@link TargetConnection}
 * over TCP, a Unix socket or TLS, whose life is one explicit {@code TargetConnection.State}
 * (closed, connecting, handshaking, ready, spent, closing), and {@link UdpSlot}, which frames
 * datagrams with the protocol's {@link io.fluxperf.engine.protocol.DatagramFraming}. A slot
 * encodes each request with its protocol's codec onto its wire: {@code ChannelWire} over a Netty
 * channel, or {@code SocketWire}, a bare epoll socket that makes a connection per request cheaper
 * than a channel would. Replies are matched to requests by order (over UDP by request id); when
 * that order can no longer be trusted the wire is closed and its requests end as CLOSED, so a late
 * reply is never given to a later request. Everything a slot sees it tells its thread through
 * {@link SlotEvents}, the one narrow way back; when to connect, and when to connect again, is the
 * thread's decision, never the slot's. {@link Transports} opens the channels on the thread's
 * {@link ClientLoop} (epoll by default, {@link IoUringClientLoop} with {@code --io-uring}). The
 * package knows protocols only through the SPI in {@code io.fluxperf.engine.protocol}, and knows
 * nothing of schedules, figures or reports; a slot lives on one event loop and is not thread-safe.
 */
package io.fluxperf.engine.connection;
