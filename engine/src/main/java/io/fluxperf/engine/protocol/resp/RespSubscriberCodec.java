package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.SubscriberCodec;
import io.fluxperf.engine.protocol.resp.cluster.HashSlots;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import static io.fluxperf.engine.protocol.resp.RespCommands.bytes;
import static io.fluxperf.engine.protocol.resp.RespEncoding.arrayHeader;
import static io.fluxperf.engine.protocol.resp.RespEncoding.bulk;

/**
 * One redis subscriber connection: {@code AUTH} and {@code SELECT} as the run's connections send
 * them ({@link RespHandshake}), then {@code SUBSCRIBE ch …} (at most {@link #CHANNELS_PER_COMMAND}
 * channels a command), or on a cluster node {@code SSUBSCRIBE} per slot (a sharded subscription's
 * channels must share a slot); then it reads the pushes: {@code subscribe}/{@code ssubscribe}
 * confirmations and {@code message}/{@code smessage} deliveries, whose payload goes to the sink.
 *
 * <p>It speaks RESP2 whatever {@code --resp} says: in RESP3 every push is out of band and no frame
 * would ever end, while a subscribed RESP2 connection receives each push as a frame of its own.
 * Nothing is allocated per message. One per connection, on its event loop.
 */
final class RespSubscriberCodec implements SubscriberCodec {
    /** A SUBSCRIBE names at most this many channels; more go in further commands. */
    static final int CHANNELS_PER_COMMAND = 1000;
    private static final byte[] SUBSCRIBE = bytes("$9\r\nSUBSCRIBE\r\n");
    private static final byte[] SSUBSCRIBE = bytes("$10\r\nSSUBSCRIBE\r\n");

    private final RespReplyDecoder decoder = new RespReplyDecoder();
    private final RespHandshake handshake;
    private final boolean sharded;
    private final PushSink push = new PushSink();

    RespSubscriberCodec(ProtocolOptions options, boolean sharded) {
        RespOptions given = RespOptions.of(options);
        this.handshake = new RespHandshake(new RespOptions(given.user(), given.password(), given.database(), 2), false);
        this.sharded = sharded;
    }

    @Override
    public int writeSubscribe(List<byte[]> channels, ByteBuf out) {
        if (handshake.any()) {
            handshake.write(out);
        }
        if (!sharded) {
            command(SUBSCRIBE, channels, out);
            return channels.size();
        }
        Map<Integer, List<byte[]>> bySlot = new LinkedHashMap<>();
        for (byte[] c : channels) {
            bySlot.computeIfAbsent(HashSlots.slotOf(c, 0, c.length), k -> new ArrayList<>()).add(c);
        }
        for (List<byte[]> sameSlot : bySlot.values()) {
            command(SSUBSCRIBE, sameSlot, out);
        }
        return channels.size();
    }

    private static void command(byte[] verb, List<byte[]> channels, ByteBuf out) {
        for (int from = 0; from < channels.size(); from += CHANNELS_PER_COMMAND) {
            int to = Math.min(channels.size(), from + CHANNELS_PER_COMMAND);
            arrayHeader(out, 1 + to - from);
            out.writeBytes(verb);
            for (int i = from; i < to; i++) {
                bulk(out, channels.get(i));
            }
        }
    }

    @Override
    public void decode(ByteBuf in, MessageSink sink) throws ProtocolException {
        while (handshake.pending()) {
            if (!decoder.decode(in, handshake.replySink())) {
                return;
            }
            handshake.replyRead();
        }
        push.sink = sink;
        while (decoder.decode(in, push)) {
            push.frameDone();
        }
    }

    /** Reads a subscribed connection's pushes: [kind, channel, payload or count]. */
    private static final class PushSink implements RespSink {
        private static final byte[] MESSAGE = bytes("message");
        private static final byte[] SMESSAGE = bytes("smessage");
        private static final byte[] SUBSCRIBED = bytes("subscribe");
        private static final byte[] SSUBSCRIBED = bytes("ssubscribe");
        private static final int OTHER = 0;
        private static final int DELIVERY = 1;
        private static final int CONFIRMATION = 2;

        MessageSink sink;
        private int depth;
        private int element;
        private int kind;
        private String error;

        @Override
        public void scalar(byte type, ByteBuf in, int start, int end) {
            if (depth == 0) {
                if (type == '-' || type == '!') {
                    error = in.toString(start, end - start, StandardCharsets.UTF_8).trim();
                }
                return;
            }
            if (depth == 1) {
                if (element == 0) {
                    kind = is(in, start, end, MESSAGE) || is(in, start, end, SMESSAGE) ? DELIVERY
                            : is(in, start, end, SUBSCRIBED) || is(in, start, end, SSUBSCRIBED) ? CONFIRMATION : OTHER;
                } else if (element == 2 && kind == DELIVERY) {
                    sink.message(in, start, end - start);
                } else if (element == 2 && kind == CONFIRMATION) {
                    sink.subscribed();
                }
                element++;
            }
        }

        @Override
        public void nil(byte type) {
            if (depth == 1) {
                element++;
            }
        }

        @Override
        public void aggregateStart(byte type, long count) {
            if (depth == 1) {
                element++;
            }
            if (depth++ == 0) {
                element = 0;
                kind = OTHER;
            }
        }

        @Override
        public void aggregateEnd(byte type) {
            depth--;
        }

        /** A frame is over: an error reply (a subscription refused) ends the connection. */
        void frameDone() throws ProtocolException {
            if (error != null) {
                String e = error;
                error = null;
                throw new ProtocolException("redis refused a subscription: " + e);
            }
        }

        private static boolean is(ByteBuf in, int start, int end, byte[] word) {
            if (end - start != word.length) {
                return false;
            }
            for (int i = 0; i < word.length; i++) {
                if (in.getByte(start + i) != word[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
