package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rpc-perf 5's list and sorted-set verbs on the wire: LLEN, ZRANK, the ranges of LRANGE and ZRANGE
 * (by index and by score), and a push sent with the LTRIM that truncates its list, whose two
 * replies make one outcome.
 */
class RespListVerbsCodecTest {
    private static final byte[] VALUE = "abc".getBytes(StandardCharsets.US_ASCII);

    private static Request request(Command c) {
        Request r = new Request().command(c, 0).addKey(7, 4);
        if (c.carriesValue()) {
            r.value(VALUE, 0, VALUE.length);
        }
        return r;
    }

    private static String encode(Request r) {
        ByteBuf out = Unpooled.buffer();
        new RespCodec(RespOptions.defaults()).encode(r, out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static String resp(String... words) {
        StringBuilder b = new StringBuilder("*").append(words.length).append("\r\n");
        for (String w : words) {
            b.append('$').append(w.length()).append("\r\n").append(w).append("\r\n");
        }
        return b.toString();
    }

    private static Outcome outcome(Request r, String reply) throws ProtocolException {
        ByteBuf in = RespReplyDecoderTest.buf(reply);
        int result = new RespCodec(RespOptions.defaults()).decode(in, r);
        assertEquals(reply.length(), in.readerIndex(), "consumes exactly the replies");
        return Outcome.of(result);
    }

    @Test
    void llenAndZrankNameTheirKeyAndMember() {
        assertEquals(resp("LLEN", "0007"), encode(request(Command.LLEN)));
        assertEquals(resp("ZRANK", "0007", "0007"), encode(request(Command.ZRANK)), "no members: the key is its member");
        Request rank = request(Command.ZRANK).addMember(42, 3);
        assertEquals(resp("ZRANK", "0007", "042"), encode(rank));
        assertEquals(resp("HEXISTS", "0007", "042"), encode(request(Command.HEXISTS).addMember(42, 3)));
    }

    @Test
    void rangesAreTheRequestsOwn() {
        assertEquals(resp("LRANGE", "0007", "0", "9"), encode(request(Command.LRANGE)), "the default: ten elements");
        assertEquals(resp("LRANGE", "0007", "0", "-1"), encode(request(Command.LRANGE).range(0, -1, false)));
        assertEquals(resp("ZRANGE", "0007", "5", "10"), encode(request(Command.ZRANGE).range(5, 10, false)));
        assertEquals(resp("ZRANGE", "0007", "-1", "1", "BYSCORE"), encode(request(Command.ZRANGE).range(-1, 1, true)));
        assertEquals(resp("ZRANGE", "0007", "-inf", "+inf", "BYSCORE"),
                encode(request(Command.ZRANGE).range(Request.UNBOUNDED, Request.UNBOUNDED, true)));
        assertEquals(resp("ZRANGE", "0007", "3", "+inf", "BYSCORE"),
                encode(request(Command.ZRANGE).range(3, Request.UNBOUNDED, true)));
        assertEquals(resp("LRANGE", "0007", "2", "4"), encode(request(Command.LRANGE).range(2, 4, true)),
                "LRANGE has no by-score form: indexes");
    }

    @Test
    void aTruncatingPushIsFollowedByItsTrim() {
        assertEquals(resp("LPUSH", "0007", "abc"), encode(request(Command.LPUSH)));
        assertEquals(resp("LPUSH", "0007", "abc") + resp("LTRIM", "0007", "0", "9"),
                encode(request(Command.LPUSH).truncate(10)), "LPUSH adds at the front: keep the first ten");
        assertEquals(resp("RPUSH", "0007", "abc") + resp("LTRIM", "0007", "-10", "-1"),
                encode(request(Command.RPUSH).truncate(10)), "RPUSH adds at the back: keep the last ten");
        Request three = request(Command.RPUSH).truncate(1);
        for (int i = 0; i < 3; i++) {
            three.addMember(7, 4);
        }
        assertEquals(resp("RPUSH", "0007", "abc", "abc", "abc") + resp("LTRIM", "0007", "-1", "-1"), encode(three));
    }

    @Test
    void outcomesOfTheNewVerbs() throws Exception {
        assertEquals(Outcome.OK, outcome(request(Command.LLEN), ":3\r\n"));
        assertEquals(Outcome.MISS, outcome(request(Command.LLEN), ":0\r\n"), "no such list");
        assertEquals(Outcome.ERROR, outcome(request(Command.LLEN), "-WRONGTYPE x\r\n"));
        assertEquals(Outcome.OK, outcome(request(Command.ZRANK), ":0\r\n"), "rank 0 is the first member");
        assertEquals(Outcome.MISS, outcome(request(Command.ZRANK), "$-1\r\n"));
        assertEquals(Outcome.MISS, outcome(request(Command.ZRANK), "_\r\n"));
        assertEquals(Outcome.OK, outcome(request(Command.HEXISTS), ":1\r\n"));
        assertEquals(Outcome.MISS, outcome(request(Command.HEXISTS), ":0\r\n"), "no such field");
        assertEquals(Outcome.MISS, outcome(request(Command.ZRANGE).range(-1, 1, true), "*0\r\n"));
        assertEquals(Outcome.OK, outcome(request(Command.LPUSH).truncate(5), ":6\r\n+OK\r\n"));
        assertEquals(Outcome.ERROR, outcome(request(Command.LPUSH).truncate(5), "-WRONGTYPE x\r\n-WRONGTYPE x\r\n"));
        assertEquals(Outcome.ERROR, outcome(request(Command.RPUSH).truncate(5), ":6\r\n-ERR trim refused\r\n"),
                "a failed trim fails the request");
    }

    @Test
    void aPushAndItsTrimSplitAtEveryByteGiveOneOutcome() throws Exception {
        byte[] bytes = ":12\r\n+OK\r\n:1\r\n".getBytes(StandardCharsets.ISO_8859_1);
        int pair = ":12\r\n+OK\r\n".length();
        for (int split = 1; split < bytes.length; split++) {
            RespCodec codec = new RespCodec(RespOptions.defaults());
            Request push = request(Command.RPUSH).truncate(3);
            Request next = request(Command.LLEN);
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            int first = codec.decode(in, push);
            if (split < pair) {
                assertEquals(ProtocolCodec.NEED_MORE, first, "split at " + split);
                in.writeBytes(bytes, split, bytes.length - split);
                first = codec.decode(in, push);
            } else {
                in.writeBytes(bytes, split, bytes.length - split);
            }
            assertEquals(Outcome.OK.ordinal(), first, "split at " + split);
            assertEquals(pair, in.readerIndex(), "the push's two replies and no more, split at " + split);
            assertEquals(Outcome.OK.ordinal(), codec.decode(in, next), "the next request's reply, split at " + split);
        }
    }

    @Test
    void aContainerWriteWithATtlIsFollowedByItsExpire() throws Exception {
        assertEquals(resp("HSET", "0007", "0007", "abc") + resp("EXPIRE", "0007", "30", "NX"),
                encode(request(Command.HSET).ttlSeconds(30)));
        assertEquals(resp("LPUSH", "0007", "abc") + resp("LTRIM", "0007", "0", "4") + resp("EXPIRE", "0007", "30", "NX"),
                encode(request(Command.LPUSH).truncate(5).ttlSeconds(30)), "the trim, then the expire");
        for (Command c : new Command[] {Command.HINCRBY, Command.RPUSH, Command.SADD, Command.ZADD, Command.ZINCRBY}) {
            assertTrue(encode(request(c).ttlSeconds(9)).endsWith(resp("EXPIRE", "0007", "9", "NX")), c.toString());
        }
        assertEquals(resp("SET", "0007", "abc", "EX", "30"), encode(request(Command.SET).ttlSeconds(30)),
                "SET carries its own ttl");
        assertEquals(resp("HSET", "0007", "0007", "abc"), encode(request(Command.HSET)), "no ttl, no expire");
        assertEquals(Outcome.OK, outcome(request(Command.HSET).ttlSeconds(30), ":1\r\n:1\r\n"));
        assertEquals(Outcome.OK, outcome(request(Command.SADD).ttlSeconds(30), ":0\r\n:0\r\n"),
                "an expire that found a ttl already set does not count");
        assertEquals(Outcome.OK, outcome(request(Command.SADD).ttlSeconds(30), ":1\r\n-ERR no\r\n"),
                "nor one that failed (rpc-perf's best effort)");
        assertEquals(Outcome.ERROR, outcome(request(Command.ZADD).ttlSeconds(30), "-WRONGTYPE x\r\n:0\r\n"));
        assertEquals(Outcome.ERROR, outcome(request(Command.RPUSH).truncate(2).ttlSeconds(30), ":3\r\n-ERR x\r\n:1\r\n"),
                "a failed trim still fails the push");
        byte[] bytes = ":3\r\n+OK\r\n:1\r\n".getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 1; split < bytes.length; split++) {
            RespCodec codec = new RespCodec(RespOptions.defaults());
            Request push = request(Command.LPUSH).truncate(2).ttlSeconds(30);
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            assertEquals(ProtocolCodec.NEED_MORE, codec.decode(in, push), "split at " + split);
            in.writeBytes(bytes, split, bytes.length - split);
            assertEquals(Outcome.OK.ordinal(), codec.decode(in, push), "split at " + split);
            assertEquals(bytes.length, in.readerIndex(), "split at " + split);
        }
    }

    @Test
    void aBadTrimReplyIsAProtocolError() {
        RespCodec codec = new RespCodec(RespOptions.defaults());
        ByteBuf in = RespReplyDecoderTest.buf(":1\r\n?what\r\n");
        assertThrows(ProtocolException.class, () -> codec.decode(in, request(Command.LPUSH).truncate(2)));
    }

    @Test
    void theNewVerbsAllocateNothingPerRequest() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        RespCodec codec = new RespCodec(RespOptions.defaults());
        Request[] order = {request(Command.LLEN), request(Command.ZRANK).addMember(3, 3),
            request(Command.ZRANGE).range(-1, Request.UNBOUNDED, true), request(Command.LRANGE).range(0, -1, false),
            request(Command.LPUSH).truncate(10), request(Command.RPUSH).truncate(7).ttlSeconds(60),
            request(Command.HSET).ttlSeconds(60)};
        byte[] replies = ":4\r\n:2\r\n*1\r\n$1\r\nm\r\n*0\r\n:11\r\n+OK\r\n:8\r\n+OK\r\n:1\r\n:1\r\n:0\r\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        ByteBuf out = Unpooled.buffer(4096);
        ByteBuf in = Unpooled.buffer(4096);
        for (int warm = 0; warm < 200_000; warm++) {
            roundTrip(codec, order, replies, out, in);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        int rounds = 100_000;
        for (int i = 0; i < rounds; i++) {
            roundTrip(codec, order, replies, out, in);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 64 * 1024, allocated + " bytes allocated for " + rounds * order.length + " requests and replies");
    }

    private static void roundTrip(RespCodec codec, Request[] order, byte[] replies, ByteBuf out, ByteBuf in)
            throws ProtocolException {
        out.clear();
        in.clear();
        for (Request r : order) {
            codec.encode(r, out);
        }
        in.writeBytes(replies);
        for (Request r : order) {
            if (codec.decode(in, r) == ProtocolCodec.NEED_MORE) {
                throw new AssertionError("reply incomplete");
            }
        }
        if (in.isReadable()) {
            throw new AssertionError("replies left over");
        }
    }
}
