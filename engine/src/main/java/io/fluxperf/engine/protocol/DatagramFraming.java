package io.fluxperf.engine.protocol;

import io.netty.buffer.ByteBuf;

/**
 * How a protocol frames its requests and replies over UDP: a header in front of every datagram
 * that names the request it belongs to and, for a reply that spans datagrams, its place in the
 * sequence. The engine's UDP connection matches replies to requests by that id and reassembles a
 * reply from the sequence; the header's layout is the protocol's.
 */
public interface DatagramFraming {
    /** Bytes of the header in front of every datagram. */
    int headerBytes();

    /** Bits of a request id: ids run from 0 to {@code 2^bits - 1} and are then used again. */
    int requestIdBits();

    /** Writes the header of a request sent as one datagram with this id. */
    void writeRequestHeader(ByteBuf out, int requestId);

    /**
     * Reads the header of a reply datagram from {@code in}, at least {@link #headerBytes()} long,
     * into {@code header}, and leaves {@code in} at the payload.
     */
    void readReplyHeader(ByteBuf in, Header header);

    /** A reply datagram's header: the request it answers, and which of how many datagrams it is. */
    final class Header {
        public int requestId;
        /** 0-based place of this datagram in its group. */
        public int sequence;
        /** Datagrams in the group. */
        public int total;
    }
}
