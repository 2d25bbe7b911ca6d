package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.HandshakeRefused;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.SubscriberCodec;
import io.fluxperf.engine.protocol.resp.cluster.HashSlots;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A subscriber connection's writes (AUTH, SUBSCRIBE or per-slot SSUBSCRIBE) and its reading of
 * what redis pushes: confirmations and messages, whole, split at every byte and byte by byte.
 */
class RespSubscriberCodecTest {
    private static final String PUSHES = "+OK\r\n"
            + "*3\r\n$9\r\nsubscribe\r\n$2\r\nc1\r\n:1\r\n"
            + "*3\r\n$9\r\nsubscribe\r\n$2\r\nc2\r\n:2\r\n"
            + "*3\r\n$7\r\nmessage\r\n$2\r\nc1\r\n$5\r\nhello\r\n"
            + "*3\r\n$8\r\nsmessage\r\n$2\r\nc2\r\n$0\r\n\r\n"
            + "*3\r\n$7\r\nmessage\r\n$2\r\nc2\r\n$20\r\n0123456789abcdefghij\r\n";

    /** What a sink saw, in order: "+" for a confirmation, the payload for a message. */
    private static final class Seen implements SubscriberCodec.MessageSink {
        final List<String> events = new ArrayList<>();

        @Override
        public void subscribed() {
            events.add("+");
        }

        @Override
        public void message(ByteBuf in, int start, int length) {
            events.add(in.toString(start, length, StandardCharsets.ISO_8859_1));
        }
    }

    private static RespSubscriberCodec codec(boolean sharded) {
        return new RespSubscriberCodec(ProtocolOptions.none().with("password", "secret", "--password"), sharded);
    }

    @Test
    void writesAuthThenOneSubscribeForEveryChannel() {
        RespSubscriberCodec c = codec(false);
        ByteBuf out = Unpooled.buffer();
        assertEquals(2, c.writeSubscribe(List.of(bytes("c1"), bytes("c2")), out));
        assertEquals("*2\r\n$4\r\nAUTH\r\n$6\r\nsecret\r\n*3\r\n$9\r\nSUBSCRIBE\r\n$2\r\nc1\r\n$2\r\nc2\r\n",
                out.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void aClusterNodeSubscribesEachSlotsChannelsApart() {
        RespSubscriberCodec c = new RespSubscriberCodec(ProtocolOptions.none(), true);
        ByteBuf out = Unpooled.buffer();
        List<byte[]> channels = List.of(bytes("{a}1"), bytes("b"), bytes("{a}2"));
        assertTrue(HashSlots.slotOf(bytes("b"), 0, 1) != HashSlots.slotOf(bytes("a"), 0, 1));
        assertEquals(3, c.writeSubscribe(channels, out));
        assertEquals("*3\r\n$10\r\nSSUBSCRIBE\r\n$4\r\n{a}1\r\n$4\r\n{a}2\r\n*2\r\n$10\r\nSSUBSCRIBE\r\n$1\r\nb\r\n",
                out.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void readsConfirmationsAndMessagesSplitAtEveryByte() throws ProtocolException {
        List<String> expected = List.of("+", "+", "hello", "", "0123456789abcdefghij");
        byte[] all = bytes(PUSHES);
        for (int split = 0; split <= all.length; split++) {
            RespSubscriberCodec c = codec(false);
            c.writeSubscribe(List.of(bytes("c1"), bytes("c2")), Unpooled.buffer());
            Seen seen = new Seen();
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(all, 0, split);
            c.decode(in, seen);
            in.writeBytes(all, split, all.length - split);
            c.decode(in, seen);
            assertEquals(expected, seen.events, "split at " + split);
            assertEquals(0, in.readableBytes(), "everything read, split at " + split);
        }
        RespSubscriberCodec c = codec(false);
        c.writeSubscribe(List.of(bytes("c1"), bytes("c2")), Unpooled.buffer());
        Seen seen = new Seen();
        ByteBuf in = Unpooled.buffer();
        for (byte b : all) {
            in.writeByte(b);
            c.decode(in, seen);
        }
        assertEquals(expected, seen.events, "byte by byte");
    }

    @Test
    void aRefusedPasswordOrSubscriptionIsOneSentence() {
        RespSubscriberCodec c = codec(false);
        c.writeSubscribe(List.of(bytes("c1")), Unpooled.buffer());
        HandshakeRefused refused = assertThrows(HandshakeRefused.class,
                () -> c.decode(Unpooled.wrappedBuffer(bytes("-WRONGPASS invalid username-password pair\r\n")), new Seen()));
        assertTrue(refused.getMessage().startsWith("--password: redis refused AUTH"), refused.getMessage());

        RespSubscriberCodec plain = new RespSubscriberCodec(ProtocolOptions.none(), false);
        plain.writeSubscribe(List.of(bytes("c1")), Unpooled.buffer());
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> plain.decode(Unpooled.wrappedBuffer(bytes("-NOPERM this user has no permissions\r\n")), new Seen()));
        assertEquals("redis refused a subscription: NOPERM this user has no permissions", e.getMessage());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
