package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemcacheBinaryCodecTest {
    private static final byte[] VALUE = "hello world".getBytes(StandardCharsets.US_ASCII);

    static Request request(Command c, String... keys) {
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

    /** A request packet as memcached's protocol document spells it. */
    static byte[] packet(int magic, int opcode, int status, int opaque, long cas, byte[] extras, String key, byte[] value) {
        byte[] k = key.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(24 + extras.length + k.length + value.length);
        b.put((byte) magic).put((byte) opcode).putShort((short) k.length).put((byte) extras.length).put((byte) 0)
                .putShort((short) status).putInt(extras.length + k.length + value.length).putInt(opaque).putLong(cas)
                .put(extras).put(k).put(value);
        return b.array();
    }

    static byte[] request(int opcode, int opaque, long cas, byte[] extras, String key, byte[] value) {
        return packet(0x80, opcode, 0, opaque, cas, extras, key, value);
    }

    static byte[] reply(int opcode, int status, int opaque, byte[] extras, String key, byte[] value) {
        return packet(0x81, opcode, status, opaque, 0, extras, key, value);
    }

    static byte[] ints(long... words) {
        ByteBuffer b = ByteBuffer.allocate(words.length * 4);
        for (long w : words) {
            b.putInt((int) w);
        }
        return b.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] encode(MemcacheBinaryCodec codec, Request r) {
        ByteBuf out = Unpooled.buffer();
        codec.encode(r, out);
        byte[] b = new byte[out.readableBytes()];
        out.readBytes(b);
        return b;
    }

    private static final byte[] NONE = new byte[0];
    private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);

    @Test
    void registeredAsMemcacheBinary() {
        assertNotNull(Protocols.find("memcache-binary"));
        assertEquals(11211, Protocols.find("memcache-binary").defaultPort());
        assertTrue(Protocols.find("memcache-binary").supports(Command.CAS));
        assertFalse(Protocols.find("memcache-binary").supports(Command.HGET));
        assertTrue(Protocols.find("memcache-binary").codecs(ProtocolOptions.none(), null).newCodec() instanceof MemcacheBinaryCodec);
    }

    @Test
    void encodesEveryCommand() {
        MemcacheBinaryCodec c = new MemcacheBinaryCodec();
        int o = 0;
        assertArrayEquals(request(0x00, o++, 0, NONE, "k1", NONE), encode(c, request(Command.GET, "k1")));
        assertArrayEquals(request(0x00, o++, 0, NONE, "k1", NONE), encode(c, request(Command.GETS, "k1")));
        assertArrayEquals(concat(request(0x0d, o, 0, NONE, "a", NONE), request(0x0d, o, 0, NONE, "b", NONE),
                request(0x0d, o, 0, NONE, "c", NONE), request(0x0a, o, 0, NONE, "", NONE)),
                encode(c, request(Command.GETS, "a", "b", "c")));
        o++;
        assertArrayEquals(request(0x01, o++, 0, ints(0, 0), "k", HELLO), encode(c, request(Command.SET, "k")));
        assertArrayEquals(request(0x02, o++, 0, ints(0, 30), "k", HELLO), encode(c, request(Command.ADD, "k").ttlSeconds(30)));
        assertArrayEquals(request(0x03, o++, 0, ints(0, 0), "k", HELLO), encode(c, request(Command.REPLACE, "k")));
        assertArrayEquals(request(0x0e, o++, 0, NONE, "k", HELLO), encode(c, request(Command.APPEND, "k")));
        assertArrayEquals(request(0x0f, o++, 0, NONE, "k", HELLO), encode(c, request(Command.PREPEND, "k")));
        assertArrayEquals(request(0x01, o++, -1L, ints(0, 0), "k", HELLO), encode(c, request(Command.CAS, "k").numeric(-1)));
        assertArrayEquals(request(0x04, o++, 0, NONE, "k", NONE), encode(c, request(Command.DELETE, "k")));
        assertArrayEquals(request(0x05, o++, 0, ints(0, 1, 0, 0, 0xffffffffL), "k", NONE),
                encode(c, request(Command.INCR, "k").numeric(1)));
        assertArrayEquals(request(0x06, o++, 0, ints(2, 0xdfdc1c35L, 0, 0, 0xffffffffL), "k", NONE),
                encode(c, request(Command.DECR, "k").numeric(12345678901L)));
        assertArrayEquals(request(0x1c, o++, 0, ints(60), "k", NONE), encode(c, request(Command.TOUCH, "k").ttlSeconds(60)));
        assertArrayEquals(request(0x08, o++, 0, NONE, "", NONE), encode(c, request(Command.FLUSH)));
        assertThrows(IllegalArgumentException.class, () -> encode(c, request(Command.HGET, "k")));
    }

    @Test
    void aCodecResetForANewConnectionNumbersItsRequestsFromZeroAgain() throws ProtocolException {
        MemcacheBinaryCodec c = new MemcacheBinaryCodec();
        assertFalse(c.hasHandshake(), "no handshake: the engine takes no buffer for one on each connection");
        Request get = request(Command.GET, "k");
        encode(c, get);
        encode(c, get);
        assertEquals(Outcome.MISS.ordinal(),
                c.decode(Unpooled.wrappedBuffer(reply(0x00, 1, 0, NONE, "", NONE)), get));
        // the connection is lost with opaque 1 unanswered; the next one starts from opaque 0
        assertTrue(c.resetForNewConnection());
        assertArrayEquals(request(0x00, 0, 0, NONE, "k", NONE), encode(c, get));
        assertEquals(Outcome.OK.ordinal(),
                c.decode(Unpooled.wrappedBuffer(reply(0x00, 0, 0, ints(0), "", HELLO)), get));
    }

    /** Requests and the replies memcached sends them, with the outcome each must decode to. */
    record Exchange(Request request, byte[] reply, Outcome outcome) {
    }

    static List<Exchange> exchanges() {
        byte[] flags = ints(0);
        List<Exchange> x = new ArrayList<>();
        int o = 0;
        x.add(new Exchange(request(Command.GET, "k"), reply(0x00, 0, o++, flags, "", HELLO), Outcome.OK));
        x.add(new Exchange(request(Command.GET, "k"), reply(0x00, 1, o++, NONE, "", "Not found".getBytes()), Outcome.MISS));
        x.add(new Exchange(request(Command.GETS, "k"), reply(0x00, 0, o++, flags, "", NONE), Outcome.OK));
        x.add(new Exchange(request(Command.GET, "a", "b", "c"), concat(reply(0x0d, 0, o, flags, "a", "x".getBytes()),
                reply(0x0d, 0, o, flags, "c", "y".getBytes()), reply(0x0a, 0, o, NONE, "", NONE)), Outcome.MISS));
        o++;
        x.add(new Exchange(request(Command.GET, "a", "b"), concat(reply(0x0d, 0, o, flags, "a", "x".getBytes()),
                reply(0x0d, 0, o, flags, "b", NONE), reply(0x0a, 0, o, NONE, "", NONE)), Outcome.OK));
        o++;
        x.add(new Exchange(request(Command.GET, "a", "b"), reply(0x0a, 0, o++, NONE, "", NONE), Outcome.MISS));
        x.add(new Exchange(request(Command.GET, "a", "b"), concat(reply(0x0d, 4, o, NONE, "", "Invalid".getBytes()),
                reply(0x0a, 0, o, NONE, "", NONE)), Outcome.ERROR));
        o++;
        x.add(new Exchange(request(Command.GET, "k"), reply(0x00, 0x82, o++, NONE, "", "Out of memory".getBytes()), Outcome.ERROR));
        x.add(new Exchange(request(Command.SET, "k"), reply(0x01, 0, o++, NONE, "", NONE), Outcome.OK));
        x.add(new Exchange(request(Command.SET, "k"), reply(0x01, 3, o++, NONE, "", "Too large.".getBytes()), Outcome.ERROR));
        x.add(new Exchange(request(Command.ADD, "k"), reply(0x02, 2, o++, NONE, "", "Data exists for key.".getBytes()), Outcome.MISS));
        x.add(new Exchange(request(Command.REPLACE, "k"), reply(0x03, 1, o++, NONE, "", NONE), Outcome.MISS));
        x.add(new Exchange(request(Command.APPEND, "k"), reply(0x0e, 5, o++, NONE, "", "Not stored.".getBytes()), Outcome.MISS));
        x.add(new Exchange(request(Command.PREPEND, "k"), reply(0x0f, 0, o++, NONE, "", NONE), Outcome.OK));
        x.add(new Exchange(request(Command.CAS, "k"), reply(0x01, 2, o++, NONE, "", NONE), Outcome.MISS));
        x.add(new Exchange(request(Command.CAS, "k"), reply(0x01, 1, o++, NONE, "", NONE), Outcome.MISS));
        x.add(new Exchange(request(Command.DELETE, "k"), reply(0x04, 0, o++, NONE, "", NONE), Outcome.OK));
        x.add(new Exchange(request(Command.DELETE, "k"), reply(0x04, 1, o++, NONE, "", NONE), Outcome.MISS));
        x.add(new Exchange(request(Command.INCR, "k"), reply(0x05, 0, o++, NONE, "", new byte[8]), Outcome.OK));
        x.add(new Exchange(request(Command.INCR, "k"), reply(0x05, 1, o++, NONE, "", NONE), Outcome.MISS));
        x.add(new Exchange(request(Command.DECR, "k"), reply(0x06, 6, o++, NONE, "", "Non-numeric".getBytes()), Outcome.ERROR));
        x.add(new Exchange(request(Command.TOUCH, "k"), reply(0x1c, 0, o++, flags, "", NONE), Outcome.OK));
        x.add(new Exchange(request(Command.TOUCH, "k"), reply(0x1c, 1, o++, NONE, "", NONE), Outcome.MISS));
        x.add(new Exchange(request(Command.FLUSH), reply(0x08, 0, o++, NONE, "", NONE), Outcome.OK));
        x.add(new Exchange(request(Command.FLUSH), reply(0x08, 1, o++, NONE, "", NONE), Outcome.ERROR));
        x.add(new Exchange(request(Command.SET, "k"), reply(0x01, 0x81, o++, NONE, "", "Unknown command".getBytes()), Outcome.ERROR));
        return x;
    }

    /** Encodes all requests on one codec, then decodes the pipelined replies fed in two pieces split at {@code split}. */
    private static List<Outcome> decodeAll(List<Exchange> xs, int split) throws ProtocolException {
        MemcacheBinaryCodec codec = new MemcacheBinaryCodec();
        ByteBuf sink = Unpooled.buffer();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (Exchange x : xs) {
            codec.encode(x.request(), sink);
            all.writeBytes(x.reply());
        }
        byte[] bytes = all.toByteArray();
        ByteBuf in = Unpooled.buffer();
        in.writeBytes(bytes, 0, Math.min(split, bytes.length));
        List<Outcome> outcomes = new ArrayList<>();
        int next = 0;
        boolean fedRest = split >= bytes.length;
        while (next < xs.size()) {
            int before = in.readerIndex();
            int result = codec.decode(in, xs.get(next).request());
            if (result == ProtocolCodec.NEED_MORE) {
                assertEquals(before, in.readerIndex(), "NEED_MORE consumed nothing");
                if (fedRest) {
                    throw new AssertionError("needs more after all bytes came, at request " + next);
                }
                in.writeBytes(bytes, split, bytes.length - split);
                fedRest = true;
                continue;
            }
            outcomes.add(Outcome.of(result));
            next++;
        }
        assertFalse(in.isReadable(), "every reply consumed exactly");
        return outcomes;
    }

    @Test
    void decodesEveryReplyHoweverSplit() throws ProtocolException {
        List<Exchange> xs = exchanges();
        List<Outcome> expected = xs.stream().map(Exchange::outcome).toList();
        int total = xs.stream().mapToInt(x -> x.reply().length).sum();
        for (int split = 0; split <= total; split++) {
            assertEquals(expected, decodeAll(xs, split), "split at " + split);
        }
    }

    @Test
    void eachReplyByteByByte() throws ProtocolException {
        for (Exchange x : exchanges()) {
            MemcacheBinaryCodec codec = new MemcacheBinaryCodec();
            MemcacheBinaryCodecAccess.skipTo(codec, ByteBuffer.wrap(x.reply(), 12, 4).getInt());
            codec.encode(x.request(), Unpooled.buffer());
            ByteBuf in = Unpooled.buffer();
            byte[] b = x.reply();
            for (int i = 0; i < b.length - 1; i++) {
                in.writeByte(b[i]);
                assertEquals(ProtocolCodec.NEED_MORE, codec.decode(in, x.request()), x.request() + " after " + (i + 1) + " bytes");
                assertEquals(0, in.readerIndex());
            }
            in.writeByte(b[b.length - 1]);
            assertEquals(x.outcome().ordinal(), codec.decode(in, x.request()), x.request().toString());
            assertFalse(in.isReadable());
        }
    }

    @Test
    void aReplyOutOfStepIsAProtocolError() throws ProtocolException {
        MemcacheBinaryCodec codec = new MemcacheBinaryCodec();
        Request get = request(Command.GET, "k");
        codec.encode(get, Unpooled.buffer());
        codec.encode(get, Unpooled.buffer());
        // the opaque of the second request where the first is due
        assertThrows(ProtocolException.class, () -> codec.decode(Unpooled.wrappedBuffer(reply(0x00, 1, 1, NONE, "", NONE)), get));
        MemcacheBinaryCodec c2 = new MemcacheBinaryCodec();
        c2.encode(get, Unpooled.buffer());
        // a set's reply to a get
        assertThrows(ProtocolException.class, () -> c2.decode(Unpooled.wrappedBuffer(reply(0x01, 0, 0, NONE, "", NONE)), get));
        // the request magic, or text
        assertThrows(ProtocolException.class, () -> c2.decode(Unpooled.wrappedBuffer(request(0x00, 0, 0, NONE, "", NONE)), get));
        assertThrows(ProtocolException.class, () -> c2.decode(Unpooled.copiedBuffer("END\r\n", StandardCharsets.US_ASCII), get));
        // a GetK hit for a key not asked for
        MemcacheBinaryCodec c3 = new MemcacheBinaryCodec();
        Request multi = request(Command.GET, "a", "b");
        c3.encode(multi, Unpooled.buffer());
        assertThrows(ProtocolException.class, () -> c3.decode(Unpooled.wrappedBuffer(concat(
                reply(0x0d, 0, 0, ints(0), "z", HELLO), reply(0x0a, 0, 0, NONE, "", NONE))), multi));
        // a body shorter than its key and extras
        MemcacheBinaryCodec c4 = new MemcacheBinaryCodec();
        c4.encode(get, Unpooled.buffer());
        byte[] bad = reply(0x00, 0, 0, ints(0), "", HELLO);
        bad[11] = 2;
        assertThrows(ProtocolException.class, () -> c4.decode(Unpooled.wrappedBuffer(bad), get));
        // in step again after a good reply
        MemcacheBinaryCodec c5 = new MemcacheBinaryCodec();
        c5.encode(get, Unpooled.buffer());
        c5.encode(get, Unpooled.buffer());
        assertEquals(Outcome.MISS.ordinal(), c5.decode(Unpooled.wrappedBuffer(reply(0x00, 1, 0, NONE, "", NONE)), get));
        assertEquals(Outcome.OK.ordinal(), c5.decode(Unpooled.wrappedBuffer(reply(0x00, 0, 1, ints(0), "", HELLO)), get));
    }

    /** A value other than the one written is an error marked as a mismatch; the connection stays in step. */
    @Test
    void valuesAreChecked() throws ProtocolException {
        MemcacheBinaryCodec codec = new MemcacheBinaryCodec();
        Request get = request(Command.GET, "k").valueCheck((key, off, len, value, from, length) ->
                value.toString(from, length, StandardCharsets.US_ASCII).equals("hello"));
        codec.encode(get, Unpooled.buffer());
        codec.encode(get, Unpooled.buffer());
        io.netty.buffer.ByteBuf in = Unpooled.wrappedBuffer(reply(0x00, 0, 0, ints(0), "", "hellx".getBytes()),
                reply(0x00, 0, 1, ints(0), "", "hello".getBytes()));
        assertEquals(Outcome.ERROR.ordinal(), codec.decode(in, get));
        assertTrue(get.valueMismatched());
        Request again = request(Command.GET, "k").valueCheck(get.valueCheck());
        assertEquals(Outcome.OK.ordinal(), codec.decode(in, again), "the next reply decodes: in step");
        assertFalse(again.valueMismatched());
        assertEquals(0, in.readableBytes());
    }

    /**
     * Random bytes, and valid reply streams with random mutations, fed whole and split: the only
     * exception is ProtocolException, NEED_MORE consumes nothing, and nothing loops.
     */
    @Test
    void fuzzedRepliesOnlyFailAsProtocolErrors() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            SplittableRandom random = new SplittableRandom(Long.getLong("fluxperf.fuzz.seed", 20240607L));
            List<Exchange> xs = exchanges();
            int errors = 0;
            int cases = 3000;
            for (int i = 0; i < cases; i++) {
                int first = random.nextInt(xs.size());
                int n = 1 + random.nextInt(Math.min(4, xs.size() - first));
                List<Exchange> picked = xs.subList(first, first + n);
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                picked.forEach(x -> all.writeBytes(x.reply()));
                byte[] bytes = all.toByteArray();
                int kind = random.nextInt(3);
                if (kind == 0) {
                    bytes = new byte[random.nextInt(80)];
                    for (int j = 0; j < bytes.length; j++) {
                        bytes[j] = (byte) random.nextInt(256);
                    }
                    if (bytes.length > 0 && random.nextBoolean()) {
                        bytes[0] = (byte) 0x81;
                    }
                } else {
                    int mutations = 1 + random.nextInt(4);
                    for (int m = 0; m < mutations; m++) {
                        bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
                    }
                    if (kind == 2) {
                        bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1));
                    }
                }
                errors += feed(picked, bytes, random) ? 1 : 0;
            }
            assertTrue(errors > cases / 10 && errors < cases * 9 / 10, "protocol errors " + errors);
        });
    }

    /** Decodes {@code bytes} in random pieces; returns whether it ended in a ProtocolException. */
    private static boolean feed(List<Exchange> xs, byte[] bytes, SplittableRandom random) {
        MemcacheBinaryCodec codec = new MemcacheBinaryCodec();
        // the opaques of the picked exchanges: bring the codec there
        ByteBuf sink = Unpooled.buffer();
        int firstOpaque = ByteBuffer.wrap(xs.get(0).reply(), 12, 4).getInt();
        MemcacheBinaryCodecAccess.skipTo(codec, firstOpaque);
        xs.forEach(x -> codec.encode(x.request(), sink));
        ByteBuf in = Unpooled.buffer();
        int fed = 0;
        int next = 0;
        try {
            while (next < xs.size()) {
                int before = in.readerIndex();
                int result = codec.decode(in, xs.get(next).request());
                if (result == ProtocolCodec.NEED_MORE) {
                    assertEquals(before, in.readerIndex());
                    if (fed == bytes.length) {
                        return false;
                    }
                    int piece = 1 + random.nextInt(bytes.length - fed);
                    in.writeBytes(bytes, fed, piece);
                    fed += piece;
                    continue;
                }
                assertTrue(in.readerIndex() > before, "an outcome consumes bytes");
                assertTrue(result >= 0 && result < Outcome.count());
                next++;
            }
            return false;
        } catch (ProtocolException e) {
            return true;
        }
    }
}
