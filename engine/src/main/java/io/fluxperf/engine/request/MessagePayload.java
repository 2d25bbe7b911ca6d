package io.fluxperf.engine.request;

import io.netty.buffer.ByteBuf;

/**
 * The layout of a published message ({@link Command#PUBLISH}), which subscribers in the same
 * process read: 8 bytes of send time ({@link System#nanoTime()}, big-endian), 8 bytes of id
 * ({@link Request#numeric()}), then the request's value from its 17th byte on, so that the message
 * is as long as the workload's value size. The time is where the message's latency is measured
 * from, as a request's is: the intended time in open loop (or the write, for one that left early),
 * the write in closed loop. Protocol-neutral: a codec writes the payload with {@link #write} where
 * its protocol puts a message, and its subscriber side hands the payload's bytes back.
 */
public final class MessagePayload {
    public static final int HEADER_BYTES = 16;

    private MessagePayload() {
    }

    /** The payload's length for {@code r}: its value's, at least the header. */
    public static int length(Request r) {
        return Math.max(HEADER_BYTES, r.valueLength());
    }

    /** Writes {@code r}'s message: time, id, then its value's bytes after the header's length. Allocation-free. */
    public static void write(Request r, ByteBuf out) {
        long now = System.nanoTime();
        out.writeLong(r.isScheduled() ? Math.min(r.intendedNanos(), now) : now);
        out.writeLong(r.numeric());
        if (r.valueLength() > HEADER_BYTES) {
            out.writeBytes(r.value(), r.valueOffset() + HEADER_BYTES, r.valueLength() - HEADER_BYTES);
        }
    }

    /** The send time of the message whose payload starts at {@code start} in {@code in} (at least {@link #HEADER_BYTES} long). */
    public static long sentNanos(ByteBuf in, int start) {
        return in.getLong(start);
    }

    /** The id of the message whose payload starts at {@code start}. */
    public static long id(ByteBuf in, int start) {
        return in.getLong(start + 8);
    }
}
