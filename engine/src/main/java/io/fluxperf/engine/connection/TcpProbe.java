package io.fluxperf.engine.connection;

import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.epoll.EpollTcpInfo;
import io.netty.channel.epoll.LinuxSocket;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Reads the kernel's {@code TCP_INFO} of a load thread's connections into one reused
 * {@link EpollTcpInfo} (one {@code getsockopt} each, nothing allocated): through the epoll or
 * io_uring channel's own {@code tcpInfo}, or for a bare socket ({@link SocketWire}) through Netty's
 * {@code LinuxSocket.getTcpInfo}, which Netty keeps package-private; it is reached once, by a
 * method handle, and bare sockets go unsampled where that is refused. One per load thread, used on
 * its loop only.
 */
public final class TcpProbe {
    private static final MethodHandle SOCKET_TCP_INFO = socketTcpInfo();

    private final EpollTcpInfo info = new EpollTcpInfo();
    /** The io_uring channels' holder, made at the first one (its classes load only where io_uring runs). */
    private Object uringInfo;
    private long rttMicros;
    private long totalRetrans;
    private long lost;
    private long retransmitted;

    private static MethodHandle socketTcpInfo() {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(LinuxSocket.class, MethodHandles.lookup());
            return lookup.findVirtual(LinuxSocket.class, "getTcpInfo", MethodType.methodType(void.class, EpollTcpInfo.class));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // a Netty without it, or a module setup that refuses: bare sockets are not sampled
        }
    }

    /** Reads a channel's TCP_INFO; false when it cannot be read (closed meanwhile). */
    boolean read(EpollSocketChannel channel) {
        try {
            channel.tcpInfo(info);
            keep();
            return true;
        } catch (RuntimeException e) { // the socket closed under us: no sample
            return false;
        }
    }

    /** Reads a bare socket's TCP_INFO; false when it cannot be read. */
    boolean read(LinuxSocket socket) {
        if (SOCKET_TCP_INFO == null) {
            return false;
        }
        try {
            SOCKET_TCP_INFO.invokeExact(socket, info);
            keep();
            return true;
        } catch (Throwable e) { // an IOException of the getsockopt: the socket closed under us
            return false;
        }
    }

    /** Reads an io_uring channel's TCP_INFO ({@link UringTcpInfo}); false when it cannot be read. */
    boolean readUring(io.netty.channel.Channel channel) {
        try {
            if (uringInfo == null) {
                uringInfo = UringTcpInfo.holder();
            }
            long[] v = UringTcpInfo.read(channel, uringInfo);
            rttMicros = v[0];
            totalRetrans = v[1];
            lost = v[2];
            return true;
        } catch (RuntimeException e) { // the socket closed under us
            return false;
        }
    }

    private void keep() {
        rttMicros = info.rtt();
        totalRetrans = info.totalRetrans();
        lost = info.lost();
    }

    /** Whether bare sockets can be read on this JVM and Netty. */
    static boolean readsBareSockets() {
        return SOCKET_TCP_INFO != null;
    }

    /**
     * Takes the segments retransmitted since {@code seenBefore} (the connection's total at its
     * previous sample, 0 for a new one) from the last read; returns the total now, to keep.
     */
    long retransmittedSince(long seenBefore) {
        retransmitted = Math.max(0, totalRetrans - seenBefore);
        return totalRetrans;
    }

    /** Segments retransmitted between the connection's previous sample and the last read ({@link #retransmittedSince}). */
    public long retransmitted() {
        return retransmitted;
    }

    /** The kernel's smoothed RTT at the last read, µs. */
    public long rttMicros() {
        return rttMicros;
    }

    /** Segments marked lost at the last read. */
    public long lost() {
        return lost;
    }
}
