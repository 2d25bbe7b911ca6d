package io.fluxperf.engine.protocol.memcache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The meta codec: what each command writes with each flag, every reply split at every byte, and
 * quiet pipelines, whose left-out replies the {@code mn} barrier accounts for, decoded from streams
 * split at every byte: each request ends in exactly one outcome and consumes exactly its own bytes.
 */
class MemcacheMetaCodecTest {
    private static final byte[] VALUE = "hello world".getBytes(StandardCharsets.US_ASCII);

    private static Request request(Command c, String... keys) {
        Request r = new Request().reset().command(c, 0);
        for (String k : keys) {
            byte[] b = k.getBytes(StandardCharsets.ISO_8859_1);
            r.addKey(b, 0, b.length);
        }
        if (c.carriesValue()) {
            r.value(VALUE, 0, 5);
        }
        return r;
    }

    private static MemcacheMetaCodec codec(String... options) {
        return new MemcacheMetaCodec(MetaOptions.of(ProtocolOptions.of(options)));
    }

    private static String encode(MemcacheMetaCodec codec, Request... requests) {
        ByteBuf out = Unpooled.buffer();
        for (Request r : requests) {
            codec.encode(r, out);
        }
        codec.writeBatchEnd(out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static String encode(Request r, String... options) {
        return encode(codec(options), r);
    }

    @Test
    void encodesEveryCommandAsAMetaClientWould() {
        assertEquals("mg k1 v\r\n", encode(request(Command.GET, "k1")));
        assertEquals("mg k v c\r\n", encode(request(Command.GETS, "k")));
        assertEquals("ms k 5 T0\r\nhello\r\n", encode(request(Command.SET, "k")));
        assertEquals("ms k 5 T30 ME\r\nhello\r\n", encode(request(Command.ADD, "k").ttlSeconds(30)));
        assertEquals("ms k 5 T0 MR\r\nhello\r\n", encode(request(Command.REPLACE, "k")));
        assertEquals("ms k 5 T0 MA\r\nhello\r\n", encode(request(Command.APPEND, "k")));
        assertEquals("ms k 5 T0 MP\r\nhello\r\n", encode(request(Command.PREPEND, "k")));
        assertEquals("ms k 5 T0 C18446744073709551615\r\nhello\r\n", encode(request(Command.CAS, "k").numeric(-1)));
        assertEquals("md k\r\n", encode(request(Command.DELETE, "k")));
        assertEquals("ma k\r\n", encode(request(Command.INCR, "k").numeric(1)));
        assertEquals("ma k MD D12345678901\r\n", encode(request(Command.DECR, "k").numeric(12345678901L)));
        assertEquals("mg k T60\r\n", encode(request(Command.TOUCH, "k").ttlSeconds(60)));
        assertEquals("me k\r\n", encode(request(Command.EXISTS, "k")));
        assertEquals("flush_all\r\n", encode(request(Command.FLUSH)));
        assertEquals("mg a v q O0\r\nmg b v q O1\r\nmg c v q O2\r\nmn\r\n", encode(request(Command.GET, "a", "b", "c")),
                "several keys: a quiet pipeline with its own mn, a token per key");
    }

    @Test
    void encodesTheFlagsOfTheOptions() {
        assertEquals("mg k v q O0\r\nmn\r\n", encode(request(Command.GET, "k"), "meta-flags", "q"),
                "quiet mode carries tokens and ends the batch with mn");
        assertEquals("mg k v O0\r\n", encode(request(Command.GET, "k"), "meta-flags", "O"));
        assertEquals("ma k N0 J0 q O0\r\nmn\r\n", encode(request(Command.INCR, "k").numeric(1), "meta-flags", "q, N"));
        assertEquals("mg k t f s c\r\n", encode(request(Command.GET, "k"), "meta-get-flags", "t f s c"));
        assertEquals("mg k v t c\r\n", encode(request(Command.GETS, "k"), "meta-get-flags", "vtc"), "c only once");
        assertEquals("mg aGVsbG8= b v\r\n", encode(request(Command.GET, "hello"), "meta-flags", "b"));
        assertEquals("ms aGVsbG8= 5 b T0\r\nhello\r\n", encode(request(Command.SET, "hello"), "meta-flags", "b"),
                "the data length follows the key");
        assertEquals("me aGk= b\r\n", encode(request(Command.EXISTS, "hi"), "meta-flags", "b"), "me takes b right after the key");
        assertEquals("md AP8= b q O0\r\nmn\r\n", encode(request(Command.DELETE, "\u0000\u00ff"), "meta-flags", "bq"));
        assertEquals("me k\r\nflush_all\r\n", encode(codec("meta-flags", "q"), request(Command.EXISTS, "k"),
                request(Command.FLUSH)), "me and flush_all take no quiet mode: no mn for them");
        assertEquals("mg a v q O0\r\nmd b q O1\r\nmn\r\n",
                encode(codec("meta-flags", "q"), request(Command.GET, "a"), request(Command.DELETE, "b")),
                "one mn ends the batch");
    }

    @Test
    void badOptionsAreOneSentenceNamingTheirPlace() {
        UserError e = assertThrows(UserError.class, () -> MetaOptions.of(ProtocolOptions.of("meta-flags", "qx")));
        assertEquals("--meta-flags: 'x' is not a flag the meta dialect takes here; it takes q (quiet), O (opaque), "
                + "b (base64 keys) and N (incr and decr create a missing key)", e.getMessage());
        e = assertThrows(UserError.class, () -> MetaOptions.of(ProtocolOptions.none()
                .with("meta-get-flags", "v q", "run.toml: general.meta-get-flags (line 4)")));
        assertEquals("run.toml: general.meta-get-flags (line 4): 'q' is not a flag the meta dialect takes here; it "
                + "takes the return flags of mg, v t f k s c h (q, O and b go in --meta-flags)", e.getMessage());
        e = assertThrows(UserError.class, () -> MetaOptions.of(ProtocolOptions.of("meta-get-flags", "vv")));
        assertEquals("--meta-get-flags: 'v' is given twice (memcached refuses a duplicate flag)", e.getMessage());
        assertEquals(MetaOptions.defaults(), MetaOptions.of(ProtocolOptions.none()));
    }

    @Test
    void theProtocolIsRegisteredWithItsOptions() {
        assertEquals("memcache-meta", Protocols.find("memcache-meta").name());
        assertEquals(11211, Protocols.find("memcache-meta").defaultPort());
        assertTrue(Protocols.find("memcache-meta").supports(Command.EXISTS));
        assertFalse(Protocols.find("memcache-meta").supports(Command.HGET));
        assertTrue(Protocols.find("memcache-meta").codecs(ProtocolOptions.none(), null).newCodec() instanceof MemcacheMetaCodec);
        assertTrue(Protocols.allOptions().containsKey("meta-flags"));
        UserError e = assertThrows(UserError.class,
                () -> Protocols.rejectUnknownOptions(Protocols.find("memcache"), ProtocolOptions.of("meta-flags", "q")));
        assertEquals("--meta-flags: protocol memcache has no such option (memcache-meta has)", e.getMessage());
        assertEquals(null, Protocols.find("memcache-meta").datagramFraming(), "no UDP");
    }

    static Stream<Arguments> replies() {
        Request getWithCheck = request(Command.GET, "k");
        return Stream.of(
                Arguments.of(request(Command.GET, "k"), "VA 5\r\nhello\r\n", Outcome.OK),
                Arguments.of(request(Command.GET, "k"), "VA 5 t-1 f0 kk s5\r\nhello\r\n", Outcome.OK),
                Arguments.of(request(Command.GET, "k"), "HD\r\n", Outcome.OK),
                Arguments.of(request(Command.GET, "k"), "EN\r\n", Outcome.MISS),
                Arguments.of(request(Command.GETS, "k"), "VA 0 c99\r\n\r\n", Outcome.OK),
                Arguments.of(getWithCheck, "SERVER_ERROR out of memory\r\n", Outcome.ERROR),
                Arguments.of(request(Command.SET, "k"), "HD\r\n", Outcome.OK),
                Arguments.of(request(Command.ADD, "k"), "NS\r\n", Outcome.MISS),
                Arguments.of(request(Command.CAS, "k"), "EX\r\n", Outcome.MISS),
                Arguments.of(request(Command.CAS, "k"), "NF\r\n", Outcome.MISS),
                Arguments.of(request(Command.SET, "k"), "CLIENT_ERROR bad data chunk\r\n", Outcome.ERROR),
                Arguments.of(request(Command.DELETE, "k"), "HD\r\n", Outcome.OK),
                Arguments.of(request(Command.DELETE, "k"), "NF\r\n", Outcome.MISS),
                Arguments.of(request(Command.INCR, "k"), "HD\r\n", Outcome.OK),
                Arguments.of(request(Command.INCR, "k"), "VA 2\r\n42\r\n", Outcome.OK),
                Arguments.of(request(Command.DECR, "k"), "NF\r\n", Outcome.MISS),
                Arguments.of(request(Command.TOUCH, "k"), "HD\r\n", Outcome.OK),
                Arguments.of(request(Command.TOUCH, "k"), "EN\r\n", Outcome.MISS),
                Arguments.of(request(Command.EXISTS, "k"), "ME k exp=-1 la=0 cas=4 fetch=no cls=1 size=64\r\n", Outcome.OK),
                Arguments.of(request(Command.EXISTS, "k"), "EN\r\n", Outcome.MISS),
                Arguments.of(request(Command.FLUSH), "OK\r\n", Outcome.OK),
                Arguments.of(request(Command.SET, "k"), "ERROR\r\n", Outcome.ERROR),
                Arguments.of(request(Command.GET, "a", "b", "c"), "VA 1 O0\r\nx\r\nVA 1 O2\r\ny\r\nMN\r\n", Outcome.MISS),
                Arguments.of(request(Command.GET, "a", "b"), "VA 1 O0\r\nx\r\nHD O1\r\nMN\r\n", Outcome.OK),
                Arguments.of(request(Command.GET, "a", "b"), "MN\r\n", Outcome.MISS),
                Arguments.of(request(Command.GET, "a", "b"), "VA 1 O1\r\nx\r\nCLIENT_ERROR bad\r\nMN\r\n", Outcome.ERROR));
    }

    /** Every reply decodes the same whether it arrives whole or split at any byte, and only it is consumed. */
    @ParameterizedTest
    @MethodSource("replies")
    void decodesSplitAtEveryByte(Request r, String reply, Outcome expected) throws ProtocolException {
        byte[] bytes = (reply + "VA 3\r\nnext").getBytes(StandardCharsets.ISO_8859_1);
        int replyLength = reply.length();
        for (int split = 0; split <= replyLength; split++) {
            MemcacheMetaCodec codec = codec();
            codec.encode(r, Unpooled.buffer());
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

    /** A quiet batch and what memcached 1.6.18 answers to it (MemcacheMetaLoadTest sends such batches to it). */
    @Test
    void aQuietPipelineEndsEveryRequestOnceAtEverySplit() throws ProtocolException {
        MemcacheMetaCodec codec = codec("meta-flags", "q");
        Request[] batch = {
            request(Command.SET, "a"),              // O0: HD left out
            request(Command.GET, "a"),              // O1: VA
            request(Command.GET, "missing"),        // O2: EN left out
            request(Command.ADD, "a"),              // O3: NS
            request(Command.DELETE, "missing"),     // O4: NF
            request(Command.EXISTS, "a"),           // no token: ME
            request(Command.INCR, "n").numeric(1),  // O5: HD left out
            request(Command.GET, "x", "y"),         // O6, O7: VA for y, its own mn
            request(Command.DELETE, "a"),           // O8: HD left out, then the batch's mn
        };
        String sent = encode(codec, batch);
        assertEquals("ms a 5 T0 q O0\r\nhello\r\nmg a v q O1\r\nmg missing v q O2\r\nms a 5 T0 ME q O3\r\nhello\r\n"
                + "md missing q O4\r\nme a\r\nma n q O5\r\nmg x v q O6\r\nmg y v q O7\r\nmn\r\nmd a q O8\r\nmn\r\n", sent);
        String replies = "VA 5 O1\r\nhello\r\nNS O3\r\nNF O4\r\nME a exp=-1 la=0 cas=1 fetch=yes cls=1 size=67\r\n"
                + "VA 1 O7\r\nz\r\nMN\r\nMN\r\n";
        Outcome[] expected = {Outcome.OK, Outcome.OK, Outcome.MISS, Outcome.MISS, Outcome.MISS, Outcome.OK, Outcome.OK,
            Outcome.MISS, Outcome.OK};
        decodeAtEverySplit("q", batch, replies, expected);
    }

    @Test
    void aQuietRequestThatTheBarrierFollowsConsumesTheMn() throws ProtocolException {
        Request[] batch = {request(Command.GET, "a"), request(Command.GET, "b")};
        decodeAtEverySplit("q", batch, "VA 1 O1\r\nx\r\nMN\r\n", new Outcome[] {Outcome.MISS, Outcome.OK});
        decodeAtEverySplit("q", batch, "VA 1 O0\r\nx\r\nMN\r\n", new Outcome[] {Outcome.OK, Outcome.MISS});
        decodeAtEverySplit("q", batch, "MN\r\n", new Outcome[] {Outcome.MISS, Outcome.MISS});
        decodeAtEverySplit("q", batch, "CLIENT_ERROR bad command line format\r\nMN\r\n",
                new Outcome[] {Outcome.ERROR, Outcome.MISS});
        decodeAtEverySplit("O", batch, "EN O0\r\nVA 1 O1\r\nx\r\n", new Outcome[] {Outcome.MISS, Outcome.OK});
    }

    /** An error that only an ma gives passes the quiet requests of other kinds before it: their replies were left out. */
    @Test
    void anErrorGoesToTheOldestRequestThatCouldHaveGivenIt() throws ProtocolException {
        Request[] batch = {request(Command.SET, "a"), request(Command.GET, "b"), request(Command.INCR, "a").numeric(1),
            request(Command.DELETE, "c")};
        decodeAtEverySplit("q", batch, "CLIENT_ERROR cannot increment or decrement non-numeric value\r\nNF O3\r\nMN\r\n",
                new Outcome[] {Outcome.OK, Outcome.MISS, Outcome.ERROR, Outcome.MISS});
        decodeAtEverySplit("q", batch, "SERVER_ERROR object too large for cache\r\nMN\r\n",
                new Outcome[] {Outcome.ERROR, Outcome.MISS, Outcome.OK, Outcome.OK});
        Request[] gets = {request(Command.GET, "a"), request(Command.SET, "b")};
        decodeAtEverySplit("q", gets, "SERVER_ERROR object too large for cache\r\nMN\r\n",
                new Outcome[] {Outcome.MISS, Outcome.ERROR});
        decodeAtEverySplit("q", gets, "CLIENT_ERROR bad command line format\r\nMN\r\n",
                new Outcome[] {Outcome.ERROR, Outcome.OK}, "any other error goes to the oldest");
    }

    /** Encodes {@code batch} in one batch, then decodes {@code replies} fed in two parts split at every byte. */
    private static void decodeAtEverySplit(String flags, Request[] batch, String replies, Outcome[] expected, String... why)
            throws ProtocolException {
        byte[] bytes = replies.getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 0; split <= bytes.length; split++) {
            MemcacheMetaCodec codec = codec("meta-flags", flags);
            encode(codec, batch);
            ByteBuf in = Unpooled.buffer();
            List<Integer> outcomes = new ArrayList<>();
            in.writeBytes(bytes, 0, split);
            decodeAll(codec, batch, in, outcomes);
            in.writeBytes(bytes, split, bytes.length - split);
            decodeAll(codec, batch, in, outcomes);
            List<Integer> want = Stream.of(expected).map(Outcome::ordinal).toList();
            assertEquals(want, outcomes, "split at " + split + " " + String.join("", why));
            assertEquals(0, in.readableBytes(), "split at " + split + ": every byte consumed");
        }
    }

    private static void decodeAll(MemcacheMetaCodec codec, Request[] batch, ByteBuf in, List<Integer> outcomes)
            throws ProtocolException {
        while (outcomes.size() < batch.length) {
            int result = codec.decode(in, batch[outcomes.size()]);
            if (result == ProtocolCodec.NEED_MORE) {
                return;
            }
            outcomes.add(result);
        }
    }

    @Test
    void repliesOutOfStepAreProtocolErrors() {
        // a token that is not the oldest request's, without quiet mode
        assertThrows(ProtocolException.class, () -> decodeOnce("O", request(Command.GET, "k"), "EN O7\r\n"));
        // a token older than the oldest quiet request's
        MemcacheMetaCodec quiet = codec("meta-flags", "q");
        Request a = request(Command.GET, "a");
        Request b = request(Command.GET, "b");
        encode(quiet, a);
        encode(quiet, b); // O1, after the first batch's mn
        ByteBuf in = Unpooled.copiedBuffer("MN\r\nVA 1 O0\r\nx\r\n", StandardCharsets.US_ASCII);
        assertDoesNotThrowProtocol(() -> quiet.decode(in, a));
        assertThrows(ProtocolException.class, () -> quiet.decode(in, b));
        // an MN where no quiet request is in flight
        assertThrows(ProtocolException.class, () -> decodeOnce("", request(Command.SET, "k"), "MN\r\n"));
        // a reply with no MN after it where the barrier was written
        assertThrows(ProtocolException.class, () -> decodeOnce("q", request(Command.ADD, "k"), "NS O0\r\nHD O1\r\n"));
        for (String garbage : new String[] {"VALUE k 0 1\r\nx\r\nEND\r\n", "STORED\r\n", "VA x\r\n", "VA 1\r\nxyz\r\n",
            "bare\n", "HDX\r\n", "MN x\r\n"}) {
            assertThrows(ProtocolException.class, () -> decodeOnce("", request(Command.GET, "k"), garbage), garbage);
        }
        ByteBuf longLine = Unpooled.buffer();
        longLine.writeBytes(new byte[MemcacheMetaCodec.MAX_LINE + 1]);
        MemcacheMetaCodec c = codec();
        Request set = request(Command.SET, "k");
        c.encode(set, Unpooled.buffer());
        assertThrows(ProtocolException.class, () -> c.decode(longLine, set));
    }

    private interface Decode {
        int run() throws ProtocolException;
    }

    private static void assertDoesNotThrowProtocol(Decode d) {
        try {
            assertEquals(Outcome.MISS.ordinal(), d.run());
        } catch (ProtocolException e) {
            throw new AssertionError(e);
        }
    }

    private static int decodeOnce(String flags, Request r, String reply) throws ProtocolException {
        MemcacheMetaCodec c = flags.isEmpty() ? codec() : codec("meta-flags", flags);
        encode(c, r);
        return c.decode(Unpooled.copiedBuffer(reply, StandardCharsets.ISO_8859_1), r);
    }

    @Test
    void aCodecResetForANewConnectionStartsAfresh() throws ProtocolException {
        MemcacheMetaCodec c = codec("meta-flags", "q");
        Request get = request(Command.GET, "k");
        encode(c, get, get);
        assertEquals(ProtocolCodec.NEED_MORE, c.decode(Unpooled.copiedBuffer("VA 100000 O0\r\nabc", StandardCharsets.US_ASCII), get));
        assertTrue(c.resetForNewConnection());
        assertFalse(c.hasHandshake());
        ByteBuf out = Unpooled.buffer();
        c.encode(get, out);
        c.writeBatchEnd(out);
        assertEquals("mg k v q O0\r\nmn\r\n", out.toString(StandardCharsets.US_ASCII), "tokens count from 0 again");
        assertEquals(Outcome.MISS.ordinal(), c.decode(Unpooled.copiedBuffer("MN\r\n", StandardCharsets.US_ASCII), get));
    }

    @Test
    void manyRequestsInFlightGrowTheRingInOrder() throws ProtocolException {
        MemcacheMetaCodec c = codec("meta-flags", "O");
        Request get = request(Command.GET, "k");
        StringBuilder replies = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            c.encode(get, Unpooled.buffer());
            replies.append(i % 3 == 0 ? "EN O" + i + "\r\n" : "VA 1 O" + i + "\r\nx\r\n");
        }
        ByteBuf in = Unpooled.copiedBuffer(replies, StandardCharsets.US_ASCII);
        for (int i = 0; i < 100; i++) {
            assertEquals((i % 3 == 0 ? Outcome.MISS : Outcome.OK).ordinal(), c.decode(in, get), "request " + i);
        }
        assertEquals(0, in.readableBytes());
    }

    /** Random and mutated replies end in an outcome, NEED_MORE or a ProtocolException: nothing else, never a hang. */
    @Test
    void fuzzedRepliesOnlyEverGiveProtocolErrors() {
        Random random = new Random(1);
        String[] seeds = {"VA 5 O0\r\nhello\r\nMN\r\n", "HD O0\r\n", "EN O0\r\nMN\r\n", "NS O0\r\n", "MN\r\n",
            "SERVER_ERROR x\r\n", "ME k exp=-1\r\n"};
        Command[] commands = {Command.GET, Command.SET, Command.INCR, Command.DELETE, Command.GETS, Command.EXISTS};
        MetaOptions[] flags = {MetaOptions.defaults(), MetaOptions.of(ProtocolOptions.of("meta-flags", "q")),
            MetaOptions.of(ProtocolOptions.of("meta-flags", "O")), MetaOptions.of(ProtocolOptions.of("meta-flags", "qb"))};
        for (int i = 0; i < 20_000; i++) {
            byte[] b = seeds[random.nextInt(seeds.length)].getBytes(StandardCharsets.US_ASCII);
            int mutations = 1 + random.nextInt(3);
            for (int m = 0; m < mutations; m++) {
                b[random.nextInt(b.length)] = (byte) random.nextInt(256);
            }
            MemcacheMetaCodec c = new MemcacheMetaCodec(flags[random.nextInt(flags.length)]);
            Request r = request(commands[random.nextInt(commands.length)], "k");
            encode(c, r);
            try {
                int result = c.decode(Unpooled.wrappedBuffer(b), r);
                if (result != ProtocolCodec.NEED_MORE) {
                    Outcome.of(result);
                }
            } catch (ProtocolException expected) {
                // fine: the connection would be reset
            }
        }
    }

    @Test
    void encodingAndDecodingAllocateNothingPerRequest() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        MemcacheMetaCodec codec = codec("meta-flags", "qb", "meta-get-flags", "v t f");
        Request get = request(Command.GET, "key:0001");
        Request miss = request(Command.GET, "key:0002");
        Request set = request(Command.SET, "key:0001").ttlSeconds(30);
        Request multi = request(Command.GET, "a", "b");
        Request incr = request(Command.INCR, "n").numeric(3);
        Request[] order = {get, miss, set, multi, incr};
        ByteBuf out = Unpooled.buffer(4096);
        ByteBuf in = Unpooled.buffer(4096);
        byte[][] replies = new byte[2][];
        for (int round = 0; round < 2; round++) {
            // tokens go on counting: each round's replies echo its own (round r uses 6r .. 6r+5)
            int t = round * 6;
            replies[round] = ("VA 5 t-1 f0 O" + t + "\r\nhello\r\nVA 1 O" + (t + 4) + "\r\nx\r\nMN\r\nMN\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
        }
        for (int warm = 0; warm < 30_000; warm++) {
            roundTrip(codec, order, replies, out, in);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        int rounds = 20_000;
        for (int i = 0; i < rounds; i++) {
            roundTrip(codec, order, replies, out, in);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 64 * 1024, allocated + " bytes allocated for " + rounds * 2 * order.length
                + " requests and replies");
    }

    /** Two batches a round (so that tokens are those the fixed replies echo, the codec is reset after them). */
    private void roundTrip(MemcacheMetaCodec codec, Request[] order, byte[][] replies, ByteBuf out, ByteBuf in)
            throws ProtocolException {
        for (byte[] reply : replies) {
            out.clear();
            in.clear();
            for (Request r : order) {
                codec.encode(r, out);
            }
            codec.writeBatchEnd(out);
            in.writeBytes(reply);
            for (Request r : order) {
                if (codec.decode(in, r) == ProtocolCodec.NEED_MORE) {
                    throw new AssertionError("reply incomplete");
                }
            }
            if (in.isReadable()) {
                throw new AssertionError(in.readableBytes() + " bytes left");
            }
        }
        codec.resetForNewConnection();
    }

    @Test
    void base64KeysRoundTrip() {
        Random random = new Random(3);
        for (int n = 1; n < 40; n++) {
            byte[] key = new byte[n];
            random.nextBytes(key);
            ByteBuf out = Unpooled.buffer();
            io.fluxperf.engine.protocol.Base64Keys.encode(key, 0, n, out);
            String encoded = out.toString(StandardCharsets.US_ASCII);
            assertEquals(java.util.Base64.getEncoder().encodeToString(key), encoded);
            byte[] b = encoded.getBytes(StandardCharsets.US_ASCII);
            byte[] back = new byte[b.length];
            int length = io.fluxperf.engine.protocol.Base64Keys.decode(b, 0, b.length, back, 0);
            assertArrayEquals(key, java.util.Arrays.copyOf(back, length));
        }
        byte[] bad = "abc".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-1, io.fluxperf.engine.protocol.Base64Keys.decode(bad, 0, 3, new byte[3], 0));
    }
}
