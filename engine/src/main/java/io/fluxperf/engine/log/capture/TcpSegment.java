package io.fluxperf.engine.log.capture;

/**
 * One TCP segment decoded from a captured packet, reused packet after packet: its endpoints (an
 * IPv4 address is kept as its IPv4-mapped IPv6 address, {@code ::ffff:a.b.c.d}), sequence and
 * acknowledgement numbers, flags, and where its payload lies in the packet's bytes.
 */
public final class TcpSegment {
    static final int FIN = 0x01;
    static final int SYN = 0x02;
    static final int RST = 0x04;
    static final int ACK = 0x10;

    long srcHi;
    long srcLo;
    long dstHi;
    long dstLo;
    int srcPort;
    int dstPort;
    int seq;
    int ack;
    int flags;
    /** The packet's bytes; the payload is {@code data[payloadOffset, payloadOffset + payloadLength)}. */
    byte[] data;
    int payloadOffset;
    /** Payload bytes in the capture. */
    int payloadLength;
    /** Payload bytes the snap length cut off (on the wire after the captured ones). */
    int missing;

    public int sourcePort() {
        return srcPort;
    }

    public int destinationPort() {
        return dstPort;
    }

    /** The sequence number of the segment's first byte (of its SYN, when it has one). */
    public int sequence() {
        return seq;
    }

    /** The captured payload's length, bytes. */
    public int payloadLength() {
        return payloadLength;
    }

    boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /** The payload's length on the wire. */
    int wireLength() {
        return payloadLength + missing;
    }

    /** {@code ::ffff:a.b.c.d} as two longs. */
    static long mappedLo(int ipv4) {
        return 0x0000_ffff_0000_0000L | (ipv4 & 0xffffffffL);
    }
}
