package io.fluxperf.engine.protocol.resp;

import io.netty.buffer.ByteBuf;

/**
 * Receives the values of one RESP2/RESP3 frame from {@link RespReplyDecoder}, in wire order, each
 * exactly once even when the frame arrives in many pieces. Nothing is built: a sink looks at what
 * it needs (the codec only at the shape of the top-level reply) and ignores the rest.
 *
 * <p>Type bytes are RESP's own: {@code + - : , ( # _ $ = !} for scalars, {@code * ~ % | >} for
 * aggregates. The byte ranges given to {@link #scalar} are valid only during the call.
 */
public interface RespSink {
    /**
     * A scalar: {@code in[start, end)} is its content — the line after the type byte for
     * {@code + - : , ( #}, the payload for {@code $ = !} (a verbatim string's payload starts with
     * its 3-letter format and ':'), empty for {@code _}.
     */
    void scalar(byte type, ByteBuf in, int start, int end);

    /** A RESP2 null: {@code $-1} (type {@code $}) or {@code *-1} (type {@code *}). RESP3's null is a {@code _} scalar. */
    void nil(byte type);

    /**
     * An aggregate begins; {@code count} values follow, then {@link #aggregateEnd}. For a map
     * ({@code %}) and an attribute ({@code |}) {@code count} is the number of entries, each a key and a value.
     */
    void aggregateStart(byte type, long count);

    void aggregateEnd(byte type);

    /** A sink that ignores everything: for skipping frames. */
    RespSink IGNORE = new RespSink() {
        @Override
        public void scalar(byte type, ByteBuf in, int start, int end) {
        }

        @Override
        public void nil(byte type) {
        }

        @Override
        public void aggregateStart(byte type, long count) {
        }

        @Override
        public void aggregateEnd(byte type) {
        }
    };
}
