package io.fluxperf.engine.protocol.memcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MemcacheTextCodecTest {
    private static final byte[] VALUE = "hello world".getBytes(StandardCharsets.US_ASCII);

    private static Request request(Command c, String... keys) {
        Request r = new Request().reset().command(c, 0);
        for (String k : keys) {
            byte[] b = k.getBytes(StandardCharsets.US_ASCII);
            r.addKey(b, 0, b.length);
        }
        if (c.carriesValue()) {
            r.value(VALUE, 0, 5);
        }
        return r;
    }

    private static String encode(Request r) {
        ByteBuf out = Unpooled.buffer();
        new MemcacheTextCodec().encode(r, out);
        return out.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void encodesEveryCommand() {
        assertEquals("get k1\r\n", encode(request(Command.GET, "k1")));
        assertEquals("gets a b c\r\n", encode(request(Command.GETS, "a", "b", "c")));
        assertEquals("set k 0 0 5\r\nhello\r\n", encode(request(Command.SET, "k")));
        assertEquals("add k 0 30 5\r\nhello\r\n", encode(request(Command.ADD, "k").ttlSeconds(30)));
        assertEquals("replace k 0 0 5\r\nhello\r\n", encode(request(Command.REPLACE, "k")));
        assertEquals("append k 0 0 5\r\nhello\r\n", encode(request(Command.APPEND, "k")));
        assertEquals("prepend k 0 0 5\r\nhello\r\n", encode(request(Command.PREPEND, "k")));
        assertEquals("cas k 0 0 5 18446744073709551615\r\nhello\r\n", encode(request(Command.CAS, "k").numeric(-1)));
        assertEquals("delete k\r\n", encode(request(Command.DELETE, "k")));
        assertEquals("incr k 1\r\n", encode(request(Command.INCR, "k").numeric(1)));
        assertEquals("decr k 12345678901\r\n", encode(request(Command.DECR, "k").numeric(12345678901L)));
        assertEquals("touch k 60\r\n", encode(request(Command.TOUCH, "k").ttlSeconds(60)));
        assertEquals("flush_all\r\n", encode(request(Command.FLUSH)));
    }

    @Test
    void aCodecResetForANewConnectionDecodesLikeANewOne() throws ProtocolException {
        MemcacheTextCodec c = new MemcacheTextCodec();
        assertFalse(c.hasHandshake(), "no handshake: the engine takes no buffer for one on each connection");
        Request get = request(Command.GET, "k");
        // the connection went in the middle of a big value: the codec waits for its 100,000 bytes
        assertEquals(ProtocolCodec.NEED_MORE, c.decode(Unpooled.copiedBuffer("VALUE k 0 100000\r\nabc", StandardCharsets.US_ASCII), get));
        assertEquals(ProtocolCodec.NEED_MORE, c.decode(Unpooled.copiedBuffer("VALUE k 0 100000\r\nabcEND\r\n", StandardCharsets.US_ASCII), get),
                "still waiting: the value is not all there");
        assertTrue(c.resetForNewConnection());
        assertEquals(Outcome.MISS.ordinal(), c.decode(Unpooled.copiedBuffer("END\r\n", StandardCharsets.US_ASCII), get),
                "on the new connection a short reply is read at once");
    }

    @Test
    void generatedKeysArePaddedDecimal() {
        Request r = new Request().reset().command(Command.GET, 0).addKey(42, 8).addKey(123456789, 4);
        assertEquals("get 00000042 123456789\r\n", encode(r));
        assertEquals(42, r.firstKeyIndex());
    }

    static Stream<Arguments> replies() {
        return Stream.of(
                Arguments.of(request(Command.GET, "k"), "VALUE k 0 5\r\nhello\r\nEND\r\n", Outcome.OK),
                Arguments.of(request(Command.GET, "k"), "END\r\n", Outcome.MISS),
                Arguments.of(request(Command.GETS, "k"), "VALUE k 3 2 99\r\n\r\n\r\nEND\r\n", Outcome.OK),
                Arguments.of(request(Command.GET, "a", "b", "c"), "VALUE a 0 1\r\nx\r\nVALUE c 0 1\r\ny\r\nEND\r\n", Outcome.MISS),
                Arguments.of(request(Command.GET, "a", "b"), "VALUE a 0 1\r\nx\r\nVALUE b 0 0\r\n\r\nEND\r\n", Outcome.OK),
                Arguments.of(request(Command.GET, "k"), "SERVER_ERROR out of memory\r\n", Outcome.ERROR),
                Arguments.of(request(Command.SET, "k"), "STORED\r\n", Outcome.OK),
                Arguments.of(request(Command.ADD, "k"), "NOT_STORED\r\n", Outcome.MISS),
                Arguments.of(request(Command.CAS, "k"), "EXISTS\r\n", Outcome.MISS),
                Arguments.of(request(Command.CAS, "k"), "NOT_FOUND\r\n", Outcome.MISS),
                Arguments.of(request(Command.SET, "k"), "CLIENT_ERROR bad data chunk\r\n", Outcome.ERROR),
                Arguments.of(request(Command.DELETE, "k"), "DELETED\r\n", Outcome.OK),
                Arguments.of(request(Command.DELETE, "k"), "NOT_FOUND\r\n", Outcome.MISS),
                Arguments.of(request(Command.INCR, "k"), "18446744073709551615\r\n", Outcome.OK),
                Arguments.of(request(Command.DECR, "k"), "NOT_FOUND\r\n", Outcome.MISS),
                Arguments.of(request(Command.TOUCH, "k"), "TOUCHED\r\n", Outcome.OK),
                Arguments.of(request(Command.FLUSH), "OK\r\n", Outcome.OK),
                Arguments.of(request(Command.SET, "k"), "ERROR\r\n", Outcome.ERROR));
    }

    /** Every reply decodes the same whether it arrives whole or split at any byte. */
    @ParameterizedTest
    @MethodSource("replies")
    void decodesSplitAtEveryByte(Request r, String reply, Outcome expected) throws ProtocolException {
        byte[] bytes = (reply + "VALUE next").getBytes(StandardCharsets.ISO_8859_1);
        int replyLength = reply.length();
        for (int split = 0; split <= replyLength; split++) {
            MemcacheTextCodec codec = new MemcacheTextCodec();
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            int result = codec.decode(in, r);
            if (split < replyLength) {
                assertEquals(ProtocolCodec.NEED_MORE, result, "split at " + split);
                assertEquals(0, in.readerIndex(), "nothing consumed on a partial reply");
                in.writeBytes(bytes, split, bytes.length - split);
                result = codec.decode(in, r);
            } else {
                in.writeBytes(bytes, split, bytes.length - split);
            }
            assertEquals(expected.ordinal(), result, "split at " + split);
            assertEquals(replyLength, in.readerIndex(), "exactly the reply is consumed");
        }
    }

    @Test
    void decodesAPipelinedStreamByteByByte() throws ProtocolException {
        Request get = request(Command.GET, "k");
        Request set = request(Command.SET, "k");
        String stream = "VALUE k 0 5\r\nhello\r\nEND\r\nSTORED\r\nEND\r\n";
        Request[] order = {get, set, get};
        Outcome[] expected = {Outcome.OK, Outcome.OK, Outcome.MISS};
        MemcacheTextCodec codec = new MemcacheTextCodec();
        ByteBuf in = Unpooled.buffer();
        int next = 0;
        for (byte b : stream.getBytes(StandardCharsets.US_ASCII)) {
            in.writeByte(b);
            int result;
            while (next < order.length && (result = codec.decode(in, order[next])) != ProtocolCodec.NEED_MORE) {
                assertEquals(expected[next].ordinal(), result);
                next++;
            }
        }
        assertEquals(3, next);
        assertEquals(0, in.readableBytes());
    }

    /**
     * A value other than the one written (another run wrote the key) is an error marked as a
     * mismatch, read whole at every split so that the next reply on the connection decodes: not a
     * protocol error, which would close the connection.
     */
    @Test
    void aValueOtherThanTheOneWrittenIsAMismatchReadWhole() throws ProtocolException {
        String stream = "VALUE a 0 5\r\nhellx\r\nVALUE b 0 5\r\nhello\r\nEND\r\nVALUE a 0 5\r\nhello\r\nEND\r\n";
        byte[] bytes = stream.getBytes(StandardCharsets.US_ASCII);
        for (int split = 0; split <= bytes.length; split++) {
            Request multi = request(Command.GET, "a", "b").valueCheck((key, off, len, value, from, length) ->
                    value.toString(from, length, StandardCharsets.US_ASCII).equals("hello"));
            Request single = request(Command.GET, "a").valueCheck((key, off, len, value, from, length) ->
                    value.toString(from, length, StandardCharsets.US_ASCII).equals("hello"));
            MemcacheTextCodec codec = new MemcacheTextCodec();
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            int first = codec.decode(in, multi);
            in.writeBytes(bytes, split, bytes.length - split);
            if (first == ProtocolCodec.NEED_MORE) {
                first = codec.decode(in, multi);
            }
            assertEquals(Outcome.ERROR.ordinal(), first, "split at " + split);
            assertTrue(multi.valueMismatched(), "marked as a mismatch");
            assertEquals(Outcome.OK.ordinal(), codec.decode(in, single), "the next reply, in step");
            assertFalse(single.valueMismatched());
            assertEquals(0, in.readableBytes());
        }
    }

    @Test
    void aValueForAKeyNotAskedForIsAProtocolError() {
        ByteBuf in = Unpooled.copiedBuffer("VALUE other 0 1\r\nx\r\nEND\r\n", StandardCharsets.US_ASCII);
        assertThrows(ProtocolException.class, () -> new MemcacheTextCodec().decode(in, request(Command.GET, "k")));
    }

    @Test
    void garbageIsAProtocolError() {
        for (String garbage : new String[] {"HTTP/1.1 200 OK\r\n", "STORED\r\n", "VALUE k 0 zz\r\n", "VALUE k 0 1\r\nxyz\r\n", "bare\n"}) {
            ByteBuf in = Unpooled.copiedBuffer(garbage, StandardCharsets.US_ASCII);
            assertThrows(ProtocolException.class, () -> new MemcacheTextCodec().decode(in, request(Command.GET, "k")), garbage);
        }
        ByteBuf longLine = Unpooled.buffer();
        longLine.writeBytes(new byte[MemcacheTextCodec.MAX_LINE + 1]);
        assertThrows(ProtocolException.class, () -> new MemcacheTextCodec().decode(longLine, request(Command.SET, "k")));
    }

    /** Random and mutated replies end in an outcome, NEED_MORE or a ProtocolException: nothing else, never a hang. */
    @Test
    void fuzzedRepliesOnlyEverGiveProtocolErrors() {
        Random random = new Random(1);
        String[] seeds = {"VALUE k 0 5\r\nhello\r\nEND\r\n", "STORED\r\n", "END\r\n", "12\r\n", "SERVER_ERROR x\r\n"};
        Command[] commands = {Command.GET, Command.SET, Command.INCR, Command.DELETE, Command.GETS};
        for (int i = 0; i < 20_000; i++) {
            byte[] b = seeds[random.nextInt(seeds.length)].getBytes(StandardCharsets.US_ASCII);
            int mutations = 1 + random.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                b[random.nextInt(b.length)] = (byte) random.nextInt(256);
            }
            Request r = request(commands[random.nextInt(commands.length)], "k");
            ByteBuf in = Unpooled.wrappedBuffer(b);
            try {
                int result = new MemcacheTextCodec().decode(in, r);
                if (result != ProtocolCodec.NEED_MORE) {
                    Outcome.of(result);
                }
            } catch (ProtocolException expected) {
                // fine: the connection would be reset
            }
        }
    }
}
