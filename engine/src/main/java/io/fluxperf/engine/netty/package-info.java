/**
 * Netty pieces that the engine's event loops are built from, below any protocol or figure.
 * {@link AlarmIoHandler} wraps a transport's own I/O handler (epoll, io_uring or NIO) and adds one
 * alarm that is a field, not a task, so that an open-loop pacer wakes its loop at a send time
 * without scheduling anything per send; the load's {@code SendScheduler} sets it through its
 * {@code ClientLoop}. {@link EpollLoopResources} are reactor-netty loop resources that stay on
 * epoll (NIO where epoll is missing) and never switch to io_uring, for the embedded targets and
 * the default load client, which were tuned on that transport. Nothing here knows a request, a
 * protocol or a run.
 */
package io.fluxperf.engine.netty;
