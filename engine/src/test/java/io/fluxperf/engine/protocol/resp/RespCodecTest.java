package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.HandshakeRefused;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** What each request sends, which outcome each reply gives, the handshake, fuzzed replies, and no allocation. */
class RespCodecTest {
    private static final byte[] VALUE = "abcdefghij".getBytes(StandardCharsets.US_ASCII);

    private static RespCodec codec() {
        return new RespCodec(RespOptions.defaults());
    }

    private static Request request(Command c, long... keys) {
        Request r = new Request().command(c, 0);
        for (long k : keys) {
            r.addKey(k, 4);
        }
        if (c.carriesValue()) {
            r.value(VALUE, 2, 3); // "cde"
        }
        if (c == Command.INCR || c == Command.DECR) {
            r.numeric(1);
        }
        return r;
    }

    private static String encode(Request r) {
        ByteBuf out = Unpooled.buffer();
        codec().encode(r, out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** Words as a RESP array, the way a client writes them. */
    private static String resp(String... words) {
        StringBuilder b = new StringBuilder("*").append(words.length).append("\r\n");
        for (String w : words) {
            b.append('$').append(w.length()).append("\r\n").append(w).append("\r\n");
        }
        return b.toString();
    }

    @Test
    void isRegisteredAsRedis() {
        assertTrue(Protocols.find("redis") instanceof RespProtocol);
        assertEquals(6379, Protocols.find("redis").defaultPort());
        for (Command c : Command.values()) {
            assertEquals(RespCommands.SUPPORTED.contains(c), Protocols.find("redis").supports(c), c.name());
        }
        assertFalse(Protocols.find("redis").supports(Command.GETS));
    }

    /** The reverse look-up of a verb, as a replayed command's reply rules use it, in any case. */
    @Test
    void everyVerbIsFoundByItsBytesInAnyCase() {
        for (Command c : RespCommands.SUPPORTED) {
            if (c == Command.COMMAND) {
                continue;
            }
            String verb = c == Command.DELETE ? "del" : c == Command.FLUSH ? "flushall" : c.name().toLowerCase(java.util.Locale.ROOT);
            for (String w : new String[] {verb, verb.toUpperCase(java.util.Locale.ROOT), "x" + verb}) {
                byte[] b = ("  " + w).getBytes(StandardCharsets.US_ASCII);
                assertEquals(w.startsWith("x") ? null : c, RespCommands.match(b, 2, w.length()), w);
            }
        }
        String[][] extra = {{"incrby", "INCR"}, {"DecrBy", "DECR"}, {"hmget", "HGET"}, {"smismember", "SISMEMBER"},
            {"zmscore", "ZSCORE"}};
        for (String[] e : extra) {
            byte[] b = e[0].getBytes(StandardCharsets.US_ASCII);
            assertEquals(Command.valueOf(e[1]), RespCommands.match(b, 0, b.length), e[0]);
        }
        for (String w : new String[] {"", "delete", "flushdb", "unlink", "a-verb-longer-than-any-redis-verb"}) {
            byte[] b = w.getBytes(StandardCharsets.US_ASCII);
            assertEquals(null, RespCommands.match(b, 0, b.length), w);
        }
    }

    @Test
    void encodesEveryCommandAsARespArray() {
        assertEquals(resp("GET", "0007"), encode(request(Command.GET, 7)));
        assertEquals(resp("MGET", "0001", "0002"), encode(request(Command.GET, 1, 2)));
        assertEquals(resp("SET", "0007", "cde"), encode(request(Command.SET, 7)));
        assertEquals(resp("SET", "0007", "cde", "EX", "30"), encode(request(Command.SET, 7).ttlSeconds(30)));
        assertEquals(resp("DEL", "0001", "0002"), encode(request(Command.DELETE, 1, 2)));
        assertEquals(resp("EXISTS", "0001"), encode(request(Command.EXISTS, 1)));
        assertEquals(resp("EXPIRE", "0001", "3600"), encode(request(Command.EXPIRE, 1)));
        assertEquals(resp("EXPIRE", "0001", "60"), encode(request(Command.EXPIRE, 1).ttlSeconds(60)));
        assertEquals(resp("INCR", "0001"), encode(request(Command.INCR, 1)));
        assertEquals(resp("DECR", "0001"), encode(request(Command.DECR, 1)));
        assertEquals(resp("INCRBY", "0001", "5"), encode(request(Command.INCR, 1).numeric(5)));
        assertEquals(resp("DECRBY", "0001", "-3"), encode(request(Command.DECR, 1).numeric(-3)));
        assertEquals(resp("MGET", "0001", "0002", "0003"), encode(request(Command.MGET, 1, 2, 3)));
        assertEquals(resp("MSET", "0001", "cde"), encode(request(Command.MSET, 1)));
        assertEquals(resp("MSET", "0001", "cde", "0002", "cde"), encode(request(Command.MSET, 1, 2)));
        assertEquals(resp("HGET", "0001", "0001"), encode(request(Command.HGET, 1)));
        assertEquals(resp("HSET", "0001", "0001", "cde"), encode(request(Command.HSET, 1)));
        assertEquals(resp("HGETALL", "0001"), encode(request(Command.HGETALL, 1)));
        assertEquals(resp("HDEL", "0001", "0001"), encode(request(Command.HDEL, 1)));
        assertEquals(resp("LPUSH", "0001", "cde"), encode(request(Command.LPUSH, 1)));
        assertEquals(resp("RPUSH", "0001", "cde"), encode(request(Command.RPUSH, 1)));
        assertEquals(resp("LPOP", "0001"), encode(request(Command.LPOP, 1)));
        assertEquals(resp("RPOP", "0001"), encode(request(Command.RPOP, 1)));
        assertEquals(resp("LRANGE", "0001", "0", "9"), encode(request(Command.LRANGE, 1)));
        assertEquals(resp("SADD", "0001", "0001"), encode(request(Command.SADD, 1)));
        assertEquals(resp("SREM", "0001", "0001"), encode(request(Command.SREM, 1)));
        assertEquals(resp("SMEMBERS", "0001"), encode(request(Command.SMEMBERS, 1)));
        assertEquals(resp("ZADD", "0001", "0", "0001"), encode(request(Command.ZADD, 1)));
        assertEquals(resp("ZADD", "0001", "42", "0001"), encode(request(Command.ZADD, 1).numeric(42)));
        assertEquals(resp("ZRANGE", "0001", "0", "9"), encode(request(Command.ZRANGE, 1)));
        assertEquals(resp("ZREM", "0001", "0001"), encode(request(Command.ZREM, 1)));
        assertEquals(resp("PING"), encode(request(Command.PING, 0)));
        assertEquals(resp("FLUSHALL"), encode(request(Command.FLUSH, 0)));
        assertThrows(IllegalArgumentException.class, () -> encode(request(Command.GETS, 1)));
        assertEquals(resp("HINCRBY", "0001", "0001", "1"), encode(request(Command.HINCRBY, 1).numeric(1)));
        assertEquals(resp("SISMEMBER", "0001", "0001"), encode(request(Command.SISMEMBER, 1)));
        assertEquals(resp("ZSCORE", "0001", "0001"), encode(request(Command.ZSCORE, 1)));
        assertEquals(resp("ZINCRBY", "0001", "1", "0001"), encode(request(Command.ZINCRBY, 1).numeric(1)));
    }

    /** A request of the keyspace model: key 7, members 3, 14, 15 of three bytes, value "cde". */
    private static Request withMembers(Command c) {
        return request(c, 7).addMember(3, 3).addMember(14, 3).addMember(15, 3);
    }

    @Test
    void severalMembersAreNamedInOneCommand() {
        assertEquals(resp("HSET", "0007", "003", "cde", "014", "cde", "015", "cde"), encode(withMembers(Command.HSET)));
        assertEquals(resp("HMGET", "0007", "003", "014", "015"), encode(withMembers(Command.HGET)));
        assertEquals(resp("HGET", "0007", "003"), encode(request(Command.HGET, 7).addMember(3, 3)));
        assertEquals(resp("HDEL", "0007", "003", "014", "015"), encode(withMembers(Command.HDEL)));
        assertEquals(resp("HINCRBY", "0007", "003", "2"), encode(request(Command.HINCRBY, 7).addMember(3, 3).numeric(2)));
        assertEquals(resp("SADD", "0007", "003", "014", "015"), encode(withMembers(Command.SADD)));
        assertEquals(resp("SREM", "0007", "003", "014", "015"), encode(withMembers(Command.SREM)));
        assertEquals(resp("SMISMEMBER", "0007", "003", "014", "015"), encode(withMembers(Command.SISMEMBER)));
        assertEquals(resp("ZADD", "0007", "5", "003", "5", "014", "5", "015"), encode(withMembers(Command.ZADD).numeric(5)));
        assertEquals(resp("ZREM", "0007", "003", "014", "015"), encode(withMembers(Command.ZREM)));
        assertEquals(resp("ZMSCORE", "0007", "003", "014", "015"), encode(withMembers(Command.ZSCORE)));
        assertEquals(resp("ZINCRBY", "0007", "1", "003"), encode(request(Command.ZINCRBY, 7).addMember(3, 3).numeric(1)));
        assertEquals(resp("RPUSH", "0007", "cde", "cde", "cde"), encode(withMembers(Command.RPUSH)));
        assertEquals(resp("LPUSH", "0007", "cde", "cde", "cde"), encode(withMembers(Command.LPUSH)));
    }

    private static final String SCRIPT = "return redis.call('set', KEYS[1], ARGV[1])";
    /** The SHA-1 of {@link #SCRIPT}, as redis names it (checked against redis-server in the eval run tests). */
    private static final String SCRIPT_SHA = sha1(SCRIPT);

    private static String sha1(String s) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private static Request script(Command c, byte[] body, long key) {
        return new Request().command(c, 0).addKey(key, 4).value(VALUE, 2, 3).script(body);
    }

    @Test
    void evalSendsTheScriptAndEvalshaLoadsItOncePerConnection() throws Exception {
        byte[] body = SCRIPT.getBytes(StandardCharsets.UTF_8);
        assertEquals(resp("EVAL", SCRIPT, "1", "0007", "cde"), encode(script(Command.EVAL, body, 7)));

        RespCodec codec = codec();
        ByteBuf out = Unpooled.buffer();
        Request first = script(Command.EVALSHA, body, 1);
        Request get = request(Command.GET, 2);
        Request second = script(Command.EVALSHA, body, 3);
        codec.encode(first, out);
        codec.encode(get, out);
        codec.encode(second, out);
        assertEquals(resp("SCRIPT", "LOAD", SCRIPT) + resp("EVALSHA", SCRIPT_SHA, "1", "0001", "cde")
                + resp("GET", "0002") + resp("EVALSHA", SCRIPT_SHA, "1", "0003", "cde"),
                out.toString(StandardCharsets.ISO_8859_1), "loaded before the first use only");
        // the SCRIPT LOAD's reply comes first, and is not the EVALSHA's
        String replies = "$40\r\n" + SCRIPT_SHA + "\r\n+OK\r\n$-1\r\n$-1\r\n";
        byte[] bytes = replies.getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 1; split < bytes.length; split++) {
            RespCodec c = codec();
            c.encode(first, Unpooled.buffer());
            c.encode(get, Unpooled.buffer());
            c.encode(second, Unpooled.buffer());
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            int[] outcomes = new int[3];
            Request[] order = {first, get, second};
            int done = 0;
            while (done < 3) {
                int o = c.decode(in, order[done]);
                if (o == ProtocolCodec.NEED_MORE) {
                    assertTrue(in.writerIndex() < bytes.length, "split at " + split + ": stuck with all bytes in");
                    in.writeBytes(bytes, split, bytes.length - split);
                    continue;
                }
                outcomes[done++] = o;
            }
            assertEquals(List.of(Outcome.OK.ordinal(), Outcome.MISS.ordinal(), Outcome.MISS.ordinal()),
                    List.of(outcomes[0], outcomes[1], outcomes[2]), "split at " + split);
            assertEquals(bytes.length, in.readerIndex());
        }
        // a script redis refuses to load makes its EVALSHA an error, whatever comes after
        RespCodec refused = codec();
        refused.encode(first, Unpooled.buffer());
        ByteBuf in = Unpooled.buffer();
        in.writeBytes("-ERR Error compiling script\r\n-NOSCRIPT No matching script\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(Outcome.ERROR.ordinal(), refused.decode(in, first));
        assertEquals(in.writerIndex(), in.readerIndex());
    }

    @Test
    void expandsTemplatesWhileEncoding() {
        CommandTemplate t = CommandTemplate.parse("SET user:__key__ __data__ EX 10");
        Request r = new Request().command(Command.COMMAND, 0).addKey(42, 4).value(VALUE, 0, 5).template(t);
        assertEquals(resp("SET", "user:0042", "abcde", "EX", "10"), encode(r));

        CommandTemplate counter = CommandTemplate.parse("HSET h:__counter__ \"a field\" x__key__y__counter__");
        Request c = new Request().command(Command.COMMAND, 0).addKey(3, 2).numeric(-17).template(counter);
        assertEquals(resp("HSET", "h:-17", "a field", "x03y-17"), encode(c));

        Request noKey = new Request().command(Command.COMMAND, 0).template(CommandTemplate.parse("GET __key__ __data__"));
        assertEquals(resp("GET", "", ""), encode(noKey));
    }

    @Test
    void literalArgumentsAreSentExactly() {
        Request r = new Request().command(Command.GET, 0).addKey(1, 4);
        for (String w : new String[] {"set", "k y", "", "v\r\n"}) {
            byte[] b = w.getBytes(StandardCharsets.ISO_8859_1);
            r.addArg(b, 0, b.length);
        }
        assertEquals(resp("set", "k y", "", "v\r\n"), encode(r));
    }

    private static int outcome(Request r, String reply) throws ProtocolException {
        RespCodec codec = codec();
        ByteBuf in = RespReplyDecoderTest.buf(reply);
        int result = codec.decode(in, r);
        assertEquals(reply.length(), in.readerIndex(), "consumes exactly the reply");
        return result;
    }

    private static void assertOutcome(Outcome expected, Request r, String reply) throws ProtocolException {
        assertEquals(expected, Outcome.of(outcome(r, reply)), () -> r + " answered " + reply.replace("\r\n", "\\r\\n"));
    }

    @Test
    void outcomesFollowTheReplies() throws Exception {
        assertOutcome(Outcome.OK, request(Command.GET, 1), "$3\r\nabc\r\n");
        assertOutcome(Outcome.MISS, request(Command.GET, 1), "$-1\r\n");
        assertOutcome(Outcome.MISS, request(Command.GET, 1), "_\r\n");
        assertOutcome(Outcome.ERROR, request(Command.GET, 1), "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assertOutcome(Outcome.ERROR, request(Command.GET, 1), "!9\r\nERR stuff\r\n");
        assertOutcome(Outcome.OK, request(Command.SET, 1), "+OK\r\n");
        assertOutcome(Outcome.MISS, request(Command.SET, 1), "$-1\r\n");
        assertOutcome(Outcome.OK, request(Command.MGET, 1, 2), "*2\r\n$1\r\na\r\n$-1\r\n");
        assertOutcome(Outcome.MISS, request(Command.MGET, 1, 2), "*2\r\n$-1\r\n$-1\r\n");
        assertOutcome(Outcome.MISS, request(Command.MGET, 1, 2), "*2\r\n_\r\n_\r\n");
        assertOutcome(Outcome.OK, request(Command.EXISTS, 1), ":1\r\n");
        assertOutcome(Outcome.MISS, request(Command.EXISTS, 1), ":0\r\n");
        for (Command zeroMeansAbsent : List.of(Command.DELETE, Command.EXPIRE, Command.HDEL, Command.SREM, Command.ZREM)) {
            assertOutcome(Outcome.MISS, request(zeroMeansAbsent, 1), ":0\r\n");
            assertOutcome(Outcome.OK, request(zeroMeansAbsent, 1), ":1\r\n");
        }
        for (Command zeroIsFine : List.of(Command.INCR, Command.DECR, Command.HSET, Command.SADD, Command.ZADD,
                Command.LPUSH, Command.RPUSH)) {
            assertOutcome(Outcome.OK, request(zeroIsFine, 1), ":0\r\n");
        }
        assertOutcome(Outcome.OK, request(Command.HGET, 1), "$1\r\nv\r\n");
        assertOutcome(Outcome.MISS, request(Command.HGET, 1), "_\r\n");
        for (Command aggregateRead : List.of(Command.HGETALL, Command.LRANGE, Command.SMEMBERS, Command.ZRANGE)) {
            assertOutcome(Outcome.MISS, request(aggregateRead, 1), "*0\r\n");
            assertOutcome(Outcome.OK, request(aggregateRead, 1), "*2\r\n$1\r\na\r\n$1\r\nb\r\n");
        }
        assertOutcome(Outcome.MISS, request(Command.HGETALL, 1), "%0\r\n");
        assertOutcome(Outcome.OK, request(Command.HGETALL, 1), "%1\r\n$1\r\nf\r\n$1\r\nv\r\n");
        assertOutcome(Outcome.MISS, request(Command.SMEMBERS, 1), "~0\r\n");
        assertOutcome(Outcome.OK, request(Command.SMEMBERS, 1), "~1\r\n$1\r\nm\r\n");
        assertOutcome(Outcome.OK, request(Command.ZRANGE, 1), "*1\r\n*2\r\n$1\r\nm\r\n,1.5\r\n");
        assertOutcome(Outcome.MISS, request(Command.LPOP, 1), "$-1\r\n");
        assertOutcome(Outcome.OK, request(Command.LPOP, 1), "$1\r\nx\r\n");
        assertOutcome(Outcome.OK, request(Command.PING, 0), "+PONG\r\n");
        assertOutcome(Outcome.OK, request(Command.SISMEMBER, 1), ":1\r\n");
        assertOutcome(Outcome.MISS, request(Command.SISMEMBER, 1), ":0\r\n");
        assertOutcome(Outcome.OK, withMembers(Command.SISMEMBER), "*3\r\n:0\r\n:1\r\n:0\r\n");
        assertOutcome(Outcome.MISS, withMembers(Command.SISMEMBER), "*3\r\n:0\r\n:0\r\n:0\r\n");
        assertOutcome(Outcome.OK, request(Command.ZSCORE, 1), "$3\r\n1.5\r\n");
        assertOutcome(Outcome.OK, request(Command.ZSCORE, 1), ",1.5\r\n");
        assertOutcome(Outcome.MISS, request(Command.ZSCORE, 1), "$-1\r\n");
        assertOutcome(Outcome.MISS, withMembers(Command.ZSCORE), "*3\r\n$-1\r\n$-1\r\n_\r\n");
        assertOutcome(Outcome.OK, withMembers(Command.ZSCORE), "*3\r\n$-1\r\n$1\r\n2\r\n$-1\r\n");
        assertOutcome(Outcome.MISS, withMembers(Command.HGET), "*3\r\n$-1\r\n$-1\r\n$-1\r\n");
        assertOutcome(Outcome.OK, withMembers(Command.HGET), "*3\r\n$-1\r\n$1\r\nv\r\n$-1\r\n");
        assertOutcome(Outcome.OK, request(Command.HINCRBY, 1), ":0\r\n");
        assertOutcome(Outcome.ERROR, request(Command.HINCRBY, 1), "-ERR hash value is not an integer\r\n");
        assertOutcome(Outcome.OK, request(Command.ZINCRBY, 1), "$1\r\n3\r\n");
        byte[] body = SCRIPT.getBytes(StandardCharsets.UTF_8);
        assertOutcome(Outcome.OK, script(Command.EVAL, body, 1), "+OK\r\n");
        assertOutcome(Outcome.MISS, script(Command.EVAL, body, 1), "$-1\r\n");
        assertOutcome(Outcome.ERROR, script(Command.EVAL, body, 1), "-ERR boom\r\n");
        assertOutcome(Outcome.OK, request(Command.FLUSH, 0), "+OK\r\n");
        // an attribute or a push ahead of the reply does not change it
        assertOutcome(Outcome.MISS, request(Command.GET, 1), "|1\r\n+a\r\n+b\r\n$-1\r\n");
        assertOutcome(Outcome.OK, request(Command.GET, 1), ">2\r\n+invalidate\r\n*1\r\n$1\r\nk\r\n$1\r\nv\r\n");
        assertOutcome(Outcome.ERROR, request(Command.GET, 1), ">1\r\n_\r\n-ERR x\r\n");
    }

    @Test
    void templatesAndArgumentsAreJudgedByTheirVerb() throws Exception {
        Request exists = new Request().command(Command.COMMAND, 0).addKey(1, 4)
                .template(CommandTemplate.parse("exists __key__"));
        assertOutcome(Outcome.MISS, exists, ":0\r\n");
        Request incr = new Request().command(Command.COMMAND, 0).addKey(1, 4)
                .template(CommandTemplate.parse("INCRBY __key__ 0"));
        assertOutcome(Outcome.OK, incr, ":0\r\n");
        Request unknown = new Request().command(Command.COMMAND, 0).template(CommandTemplate.parse("KEYS *"));
        assertOutcome(Outcome.MISS, unknown, "*0\r\n");
        assertOutcome(Outcome.MISS, unknown, "$-1\r\n");
        Request replayedDel = new Request().command(Command.GET, 0);
        for (String w : new String[] {"Del", "k"}) {
            replayedDel.addArg(w.getBytes(StandardCharsets.US_ASCII), 0, w.length());
        }
        assertOutcome(Outcome.MISS, replayedDel, ":0\r\n");
    }

    @Test
    void outcomeIsTheSameWhenTheReplyIsSplitAtEveryByte() throws Exception {
        String reply = "|1\r\n+k\r\n+v\r\n*3\r\n$-1\r\n%1\r\n+a\r\n~1\r\n:1\r\n_\r\n";
        byte[] bytes = reply.getBytes(StandardCharsets.ISO_8859_1);
        Request r = request(Command.MGET, 1, 2, 3);
        for (int split = 1; split < bytes.length; split++) {
            RespCodec codec = codec();
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            assertEquals(ProtocolCodec.NEED_MORE, codec.decode(in, r));
            assertEquals(0, in.readerIndex());
            in.writeBytes(bytes, split, bytes.length - split);
            assertEquals(Outcome.OK.ordinal(), codec.decode(in, r), "split at " + split);
            assertEquals(bytes.length, in.readerIndex());
        }
    }

    // ---- handshake ----

    private static RespCodec codec(String user, String password, int db, int resp) {
        return new RespCodec(new RespOptions(user, password, db, resp));
    }

    private static String handshake(RespCodec codec) {
        ByteBuf out = Unpooled.buffer();
        boolean has = codec.hasHandshake();
        boolean any = codec.writeHandshake(out);
        assertEquals(any, out.isReadable());
        assertEquals(any, has, "hasHandshake says what writeHandshake will do: the engine skips it when false");
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void handshakeSendsHelloAuthAndSelect() throws Exception {
        assertEquals("", handshake(codec(null, null, -1, 2)));
        assertEquals(resp("AUTH", "s3cret"), handshake(codec(null, "s3cret", -1, 2)));
        assertEquals(resp("AUTH", "bob", "s3cret"), handshake(codec("bob", "s3cret", -1, 2)));
        assertEquals(resp("SELECT", "3"), handshake(codec(null, null, 3, 2)));
        assertEquals(resp("HELLO", "3"), handshake(codec(null, null, -1, 3)));
        assertEquals(resp("HELLO", "3", "AUTH", "default", "pw") + resp("SELECT", "12"), handshake(codec(null, "pw", 12, 3)));
        assertEquals(resp("HELLO", "3", "AUTH", "bob", "pw"), handshake(codec("bob", "pw", -1, 3)));

        RespCodec c = codec(null, "pw", 3, 3);
        handshake(c);
        String hello = "%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:5\r\n"
                + "$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n";
        ByteBuf in = Unpooled.buffer();
        String all = hello + "+OK\r\n";
        for (int i = 0; i < all.length() - 1; i++) {
            in.writeByte(all.charAt(i));
            assertEquals(ProtocolCodec.NEED_MORE, c.decodeHandshake(in));
        }
        in.writeByte(all.charAt(all.length() - 1));
        assertEquals(ProtocolCodec.HANDSHAKE_DONE, c.decodeHandshake(in));
        assertFalse(in.isReadable());
    }

    private static String refusal(RespCodec codec, String replies) {
        handshake(codec);
        HandshakeRefused e = assertThrows(HandshakeRefused.class, () -> codec.decodeHandshake(RespReplyDecoderTest.buf(replies)));
        return e.getMessage();
    }

    @Test
    void aRefusedHandshakeIsOneSentenceNamingTheFlag() {
        assertEquals("--password: redis refused AUTH: WRONGPASS invalid username-password pair or user is disabled.",
                refusal(codec(null, "bad", 2, 2), "-WRONGPASS invalid username-password pair or user is disabled.\r\n"
                        + "-NOAUTH Authentication required.\r\n"));
        assertEquals("--user/--password: redis refused AUTH: WRONGPASS invalid username-password pair or user is disabled.",
                refusal(codec("bob", "bad", -1, 2), "-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        assertEquals("--password: redis has no password configured, so it refused AUTH; leave out --password.",
                refusal(codec(null, "pw", -1, 2), "-ERR AUTH <password> called without any password configured for "
                        + "the default user. Are you sure your configuration is correct?\r\n"));
        assertEquals("--resp 3: redis refused HELLO 3 (a server before redis 6 speaks only RESP2): ERR unknown command 'HELLO'.",
                refusal(codec(null, null, -1, 3), "-ERR unknown command 'HELLO'\r\n"));
        assertEquals("--password: redis refused HELLO 3 AUTH: WRONGPASS invalid username-password pair or user is disabled.",
                refusal(codec(null, "bad", -1, 3), "-WRONGPASS invalid username-password pair or user is disabled.\r\n"));
        assertEquals("--db 99: redis refused SELECT 99: ERR DB index is out of range.",
                refusal(codec(null, null, 99, 2), "-ERR DB index is out of range\r\n"));
        assertEquals("--password: redis requires a password (it answered SELECT with: NOAUTH Authentication required.)",
                refusal(codec(null, null, 1, 2), "-NOAUTH Authentication required.\r\n"));
    }

    // ---- robustness ----

    /** Valid frames to mutate. */
    private static final List<String> SEEDS = List.of("+OK\r\n", "-ERR x\r\n", ":123\r\n", "$5\r\nhello\r\n", "$-1\r\n",
            "*2\r\n$1\r\na\r\n:1\r\n", "_\r\n", "#t\r\n", ",1.5\r\n", "(123\r\n", "=7\r\ntxt:abc\r\n", "!3\r\nERR\r\n",
            "~1\r\n+a\r\n", "%1\r\n+k\r\n+v\r\n", "|1\r\n+a\r\n+b\r\n:1\r\n", ">1\r\n+p\r\n+OK\r\n",
            "*2\r\n%1\r\n+k\r\n~2\r\n:1\r\n_\r\n*1\r\n*0\r\n");

    @Test
    void fuzzedRepliesEndInAnOutcomeOrAProtocolExceptionNeverAnotherErrorOrAHang() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            Random random = new Random(20240601);
            Request r = request(Command.MGET, 1, 2);
            int protocolErrors = 0;
            for (int round = 0; round < 30_000; round++) {
                byte[] input = round % 3 == 0 ? randomBytes(random) : mutate(random);
                RespCodec codec = codec();
                ByteBuf in = Unpooled.buffer();
                int fed = 0;
                try {
                    while (fed < input.length) {
                        int chunk = 1 + random.nextInt(Math.min(8, input.length - fed));
                        in.writeBytes(input, fed, chunk);
                        fed += chunk;
                        int before = in.readableBytes();
                        int result;
                        while (in.isReadable() && (result = codec.decode(in, r)) != ProtocolCodec.NEED_MORE) {
                            assertTrue(result >= 0 && result < Outcome.count(), "an outcome");
                            assertTrue(in.readableBytes() < before, "a complete reply consumes bytes");
                            before = in.readableBytes();
                        }
                        if (random.nextInt(4) == 0) {
                            in.discardReadBytes();
                        }
                    }
                } catch (ProtocolException expected) {
                    protocolErrors++;
                } catch (RuntimeException e) {
                    fail("decoding " + printable(input) + " threw " + e, e);
                }
            }
            assertTrue(protocolErrors > 1000, "the fuzzer produced garbage: " + protocolErrors);
        });
    }

    private static final String INSERTS = "0123456789\r\n-*$:";

    private static byte[] randomBytes(Random random) {
        byte[] alphabet = "+-:$*_#,(=!~%|>\r\n0123456789-?abcXYZ ".getBytes(StandardCharsets.ISO_8859_1);
        byte[] b = new byte[1 + random.nextInt(40)];
        for (int i = 0; i < b.length; i++) {
            b[i] = random.nextInt(5) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
        }
        return b;
    }

    private static byte[] mutate(Random random) {
        StringBuilder s = new StringBuilder();
        int frames = 1 + random.nextInt(3);
        for (int i = 0; i < frames; i++) {
            s.append(SEEDS.get(random.nextInt(SEEDS.size())));
        }
        List<Byte> b = new ArrayList<>();
        for (byte x : s.toString().getBytes(StandardCharsets.ISO_8859_1)) {
            b.add(x);
        }
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations && !b.isEmpty(); m++) {
            int at = random.nextInt(b.size());
            switch (random.nextInt(5)) {
                case 0 -> b.set(at, (byte) random.nextInt(256));
                case 1 -> b.remove(at);
                case 2 -> b.add(at, (byte) INSERTS.charAt(random.nextInt(INSERTS.length())));
                case 3 -> b.subList(at, b.size()).clear();
                default -> b.set(at, (byte) (b.get(at) ^ (1 << random.nextInt(8))));
            }
        }
        byte[] out = new byte[b.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.get(i);
        }
        return out;
    }

    private static String printable(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1).replace("\r", "\\r").replace("\n", "\\n");
    }

    /**
     * A GET or MGET of a --hit workload checks each value it reads: one other than the run writes
     * for the key (another run wrote it) is an error marked as a mismatch, the reply read whole at
     * every split, so that the next reply on the connection decodes.
     */
    @Test
    void aValueOtherThanTheOneWrittenIsAMismatchReadWhole() throws ProtocolException {
        io.fluxperf.engine.request.ValueCheck isAbc = (key, off, len, value, from, length) ->
                value.toString(from, length, StandardCharsets.US_ASCII).equals("abc");
        String stream = "$3\r\nabx\r\n*3\r\n$3\r\nabc\r\n$-1\r\n$2\r\nab\r\n$3\r\nabc\r\n*2\r\n$3\r\nabc\r\n$-1\r\n";
        byte[] bytes = stream.getBytes(StandardCharsets.US_ASCII);
        for (int split = 0; split <= bytes.length; split++) {
            RespCodec codec = codec();
            Request[] order = {request(Command.GET, 1).valueCheck(isAbc), request(Command.MGET, 1, 2, 3).valueCheck(isAbc),
                    request(Command.GET, 1).valueCheck(isAbc), request(Command.MGET, 1, 2).valueCheck(isAbc)};
            Outcome[] expected = {Outcome.ERROR, Outcome.ERROR, Outcome.OK, Outcome.OK};
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            int next = 0;
            for (int round = 0; round < 2; round++) {
                int result;
                while (next < order.length && (result = codec.decode(in, order[next])) != ProtocolCodec.NEED_MORE) {
                    assertEquals(expected[next], Outcome.of(result), "request " + next + ", split at " + split);
                    assertEquals(expected[next] == Outcome.ERROR, order[next].valueMismatched(), "request " + next);
                    next++;
                }
                if (round == 0) {
                    in.writeBytes(bytes, split, bytes.length - split);
                }
            }
            assertEquals(order.length, next, "split at " + split);
            assertEquals(0, in.readableBytes());
        }
    }

    @Test
    void encodingAndDecodingAllocateNothingPerRequest() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        RespCodec codec = codec();
        Request get = request(Command.GET, 12345);
        Request set = request(Command.SET, 12345).ttlSeconds(30);
        Request mget = request(Command.MGET, 1, 2, 3);
        Request template = new Request().command(Command.COMMAND, 0).addKey(7, 4).value(VALUE, 0, 4).numeric(99)
                .template(CommandTemplate.parse("SET k:__key__:__counter__ __data__"));
        byte[] replies = ("$5\r\nhello\r\n+OK\r\n*3\r\n$1\r\na\r\n$-1\r\n_\r\n|1\r\n+a\r\n+b\r\n%1\r\n+k\r\n~1\r\n,1.5\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        ByteBuf out = Unpooled.buffer(4096);
        ByteBuf in = Unpooled.buffer(4096);
        Request hset = withMembers(Command.HSET);
        Request evalsha = script(Command.EVALSHA, SCRIPT.getBytes(StandardCharsets.UTF_8), 5);
        codec.encode(evalsha, out); // its SCRIPT LOAD, once per connection
        in.writeBytes(("$40\r\n" + SCRIPT_SHA + "\r\n$-1\r\n").getBytes(StandardCharsets.ISO_8859_1));
        codec.decode(in, evalsha);
        byte[] more = ":3\r\n+OK\r\n".getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = java.util.Arrays.copyOf(replies, replies.length + more.length);
        System.arraycopy(more, 0, all, replies.length, more.length);
        replies = all;
        Request[] order = {get, set, mget, template, hset, evalsha};
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

    private static void roundTrip(RespCodec codec, Request[] order, byte[] replies, ByteBuf out, ByteBuf in) throws ProtocolException {
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
    }
}
