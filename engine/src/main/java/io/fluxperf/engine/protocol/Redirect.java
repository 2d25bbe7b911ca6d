package io.fluxperf.engine.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reply that sends its request to another node of a cluster ({@link ProtocolCodec#REDIRECTED}),
 * as the codec that decoded it holds it until the next reply: whether the shard moved for good or
 * only this request is to ask elsewhere, which shard, and the node's {@code HOST:PORT} as bytes.
 * One per codec, reused: reading it allocates nothing.
 */
public final class Redirect {
    /** What the reply says. */
    public enum Kind {
        /** The shard belongs to the other node now: go there, and the layout is out of date. */
        MOVED,
        /** The shard is being moved: ask the other node, this once, announcing that it was sent there. */
        ASK
    }

    private Kind kind;
    private int shard;
    private byte[] address = new byte[32];
    private int addressLength;

    /** Fills this redirect from a reply: {@code in[start, end)} holds the node's HOST:PORT. */
    public Redirect set(Kind k, int shardNumber, ByteBuf in, int start, int end) {
        kind = k;
        shard = shardNumber;
        addressLength = end - start;
        if (address.length < addressLength) {
            address = Arrays.copyOf(address, Math.max(addressLength, address.length * 2));
        }
        in.getBytes(start, address, 0, addressLength);
        return this;
    }

    public Kind kind() {
        return kind;
    }

    public int shard() {
        return shard;
    }

    /** Whether the node named is {@code hostPort} (its HOST:PORT as ASCII bytes). */
    public boolean names(byte[] hostPort) {
        return Arrays.equals(address, 0, addressLength, hostPort, 0, hostPort.length);
    }

    /** The node named, as text (allocates: for messages and for a node not known before). */
    public String address() {
        return new String(address, 0, addressLength, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String toString() {
        return kind + " " + shard + " " + address();
    }
}
