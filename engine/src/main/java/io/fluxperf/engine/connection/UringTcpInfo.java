package io.fluxperf.engine.connection;

import io.netty.channel.Channel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.channel.uring.IoUringTcpInfo;

/**
 * An io_uring channel's TCP_INFO, kept apart from {@link TcpProbe} so that Netty's io_uring classes
 * load only in a run that uses them ({@link ChannelWire} checks the channel's class by name first).
 */
final class UringTcpInfo {
    /** The channel class this reads, by name: naming the class itself would load it. */
    static final String CHANNEL = "io.netty.channel.uring.IoUringSocketChannel";

    private UringTcpInfo() {
    }

    /** A holder to reuse for every read of a thread. */
    static Object holder() {
        return new Holder();
    }

    /** Reads {@code channel}'s TCP_INFO: smoothed RTT µs, total retransmits, lost; the array is the holder's own. */
    static long[] read(Channel channel, Object holder) {
        Holder h = (Holder) holder;
        ((IoUringSocketChannel) channel).tcpInfo(h.info);
        h.values[0] = h.info.rtt();
        h.values[1] = h.info.totalRetrans();
        h.values[2] = h.info.lost();
        return h.values;
    }

    private static final class Holder {
        final IoUringTcpInfo info = new IoUringTcpInfo();
        final long[] values = new long[3];
    }
}
