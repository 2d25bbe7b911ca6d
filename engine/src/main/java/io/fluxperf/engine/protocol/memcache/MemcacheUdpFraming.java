package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.DatagramFraming;
import io.netty.buffer.ByteBuf;

/**
 * memcached's UDP frame header (protocol.txt, "UDP protocol"): every datagram starts with 8
 * bytes, request id, sequence number, total number of datagrams and a reserved 0, each a
 * big-endian 16-bit number. A request is one datagram (sequence 0 of 1); a reply may span several,
 * and memcached 1.6 sends each VALUE of a multi-key get as a group of its own, numbered from 0
 * again.
 */
final class MemcacheUdpFraming implements DatagramFraming {
    static final int HEADER = 8;

    @Override
    public int headerBytes() {
        return HEADER;
    }

    @Override
    public int requestIdBits() {
        return 16;
    }

    @Override
    public void writeRequestHeader(ByteBuf out, int requestId) {
        out.writeShort(requestId).writeShort(0).writeShort(1).writeShort(0);
    }

    @Override
    public void readReplyHeader(ByteBuf in, Header header) {
        header.requestId = in.readUnsignedShort();
        header.sequence = in.readUnsignedShort();
        header.total = in.readUnsignedShort();
        in.skipBytes(2);
    }
}
