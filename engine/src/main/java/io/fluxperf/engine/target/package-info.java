/**
 * The framework that embedded target servers are built on; each protocol's server lives in its own
 * {@code protocol.NAME.target} package. A {@link TargetServer} (the target of a run without
 * {@code --server}, and the whole of {@code fluxperf serve}) is started through its protocol's
 * {@link TargetFactory} with {@link TargetOptions}, and is a {@link TargetServerBase} over
 * {@link Listeners}: event loops of its own, apart from the load's (epoll, never io_uring), a TCP
 * listener with optional TLS, and optional Unix-socket and UDP listeners. Per connection,
 * {@link ConnectionHandlerBase} and {@link DecodingConnectionHandler} drive the protocol's
 * {@link CommandProcessorBase}, which answers each read batch into one buffer that
 * {@link ReplyWriter} writes in order (held back by {@link ReplyPacer} when the delay and stall
 * test knobs are set), with back-pressure against clients that do not read. Data lives in a
 * memory-bounded {@link StripedStore} of {@link LruSegment}s, keyed by {@link ByteKey} without
 * allocating per look-up; counters are kept per event loop in {@link LoopCounters} and summed into
 * {@link TargetStats}. The framework names no protocol, listens on loopback unless told otherwise,
 * and of the host primitives uses only the timer slack of its own loops.
 */
package io.fluxperf.engine.target;
