package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.RedisProcess.Client;
import io.fluxperf.testkit.RedisProcess.Verbatim;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded server answers a scripted session as redis-server 7.0 does: the same commands on
 * one connection to each, in lock step, in RESP2 and then in RESP3, compared reply for reply.
 * Only what differs by nature is compared by structure: HELLO's client id and version, INFO's
 * text. At the end the servers' own counters must agree: calls per command and keyspace hits
 * and misses.
 */
@ExtendWith(RealServers.class)
class RedisConformanceTest {
    @RealServer
    private RedisProcess redis;
    private RespTargetServer embedded;

    @BeforeEach
    void start() {
        embedded = RespTargetServer.start(TargetOptions.defaults());
    }

    @AfterEach
    void stop() {
        if (embedded != null) {
            embedded.close();
        }
    }

    private static String[] c(String... words) {
        return words;
    }

    /** The session: every command of the load plus the ones tools send, their options and their errors. */
    static List<String[]> script() {
        List<String[]> s = new ArrayList<>(List.of(
                c("PING"), c("PING", "hi"), c("ECHO", "x y"), c("PING", "a", "b"),
                c("SET", "a", "1"), c("GET", "a"), c("GET", "nope"), c("SET", "a", "2", "NX"), c("SET", "a", "3", "XX"),
                c("GET", "a"), c("SET", "nx", "1", "XX"), c("SET", "a", "5", "GET"), c("SET", "fresh", "1", "GET"),
                c("SET", "b", "x", "EX", "100"), c("TTL", "b"), c("TTL", "a"), c("TTL", "nope"),
                c("SET", "b2", "x", "PX", "100000"), c("TTL", "b2"), c("SET", "b2", "y", "KEEPTTL"), c("TTL", "b2"),
                c("SET", "c", "v", "PX", "0"), c("SET", "c", "v", "EX", "abc"), c("SET", "c", "v", "FOO"),
                c("SET", "c", "v", "NX", "XX"), c("SET", "c", "v", "EX", "10", "KEEPTTL"), c("SET", "c"), c("GET"),
                c("SET", "n", "10"), c("INCR", "n"), c("INCRBY", "n", "5"), c("DECR", "n"), c("DECRBY", "n", "3"),
                c("INCR", "newcounter"), c("DECR", "newdown"), c("INCR", "a"), c("SET", "s", "abc"), c("INCR", "s"),
                c("INCRBY", "n", "x"), c("SET", "big", "9223372036854775807"), c("INCR", "big"),
                c("SET", "lead", "007"), c("INCR", "lead"), c("DECRBY", "n", "-9223372036854775808"),
                c("EXISTS", "a", "b", "nope", "a"), c("DEL", "a", "nope"), c("EXISTS", "a"), c("DEL", "nope"),
                c("MSET", "k1", "v1", "k2", "v2"), c("MGET", "k1", "nope", "k2"), c("MSET", "k1"), c("MSET", "k1", "v", "k2"),
                c("EXPIRE", "k1", "100"), c("TTL", "k1"), c("EXPIRE", "k1", "50", "GT"), c("EXPIRE", "k1", "200", "GT"),
                c("EXPIRE", "k1", "300", "NX"), c("EXPIRE", "k1", "10", "LT"), c("TTL", "k1"), c("EXPIRE", "nope", "10"),
                c("EXPIRE", "k1", "abc"), c("EXPIRE", "k1", "10", "NX", "XX"), c("EXPIRE", "k1", "10", "BAD"),
                c("EXPIRE", "k1", "abc", "BAD"), c("EXPIRE", "k1", "abc", "NX", "XX"), c("EXPIRE", "k1", "abc", "GT", "LT"),
                c("EXPIRE", "k2", "-1"), c("EXISTS", "k2"), c("TYPE", "k1"), c("TYPE", "nope"),
                c("HSET", "h", "f1", "v1"), c("HSET", "h", "f1", "v9", "f2", "v2"), c("HGET", "h", "f1"), c("HGET", "h", "nope"),
                c("HGET", "nope", "f"), c("HDEL", "h", "f1", "nope"), c("HGETALL", "h"), c("HGETALL", "nope"),
                c("HSET", "h", "f"), c("HSET", "h", "f", "v", "g"), c("GET", "h"), c("TYPE", "h"), c("HDEL", "nope", "x"),
                c("LPUSH", "l", "a", "b", "c"), c("RPUSH", "l", "d"), c("LRANGE", "l", "0", "-1"), c("LRANGE", "l", "1", "2"),
                c("LRANGE", "l", "-2", "-1"), c("LRANGE", "l", "5", "10"), c("LRANGE", "l", "-100", "100"),
                c("LRANGE", "l", "x", "1"), c("LPOP", "l"), c("RPOP", "l"), c("LPOP", "l", "5"), c("LPOP", "l"),
                c("EXISTS", "l"), c("LPOP", "nope", "2"), c("LPOP", "nope"), c("LRANGE", "nope", "0", "-1"),
                c("LPOP", "h", "-1"), c("LPOP", "a", "1", "2"), c("RPUSH", "h", "x"), c("TYPE", "l"),
                c("SADD", "s1", "a", "b", "a"), c("SREM", "s1", "a", "z"), c("SMEMBERS", "s1"), c("SMEMBERS", "nope"),
                c("SADD", "h", "x"), c("SREM", "nope", "x"), c("TYPE", "s1"),
                c("ZADD", "z", "1", "a", "2", "b", "1.5", "c"), c("ZADD", "z", "NX", "5", "a", "3", "d"),
                c("ZADD", "z", "XX", "CH", "0", "a"), c("ZADD", "z", "GT", "10", "b"), c("ZADD", "z", "LT", "20", "b"),
                c("ZRANGE", "z", "0", "-1"), c("ZRANGE", "z", "0", "-1", "WITHSCORES"), c("ZRANGE", "z", "0", "1", "REV"),
                c("ZRANGE", "z", "1", "2", "WITHSCORES", "REV"), c("ZADD", "z", "abc", "a"), c("ZADD", "z", "1"),
                c("ZADD", "z", "1", "a", "2"), c("ZADD", "z", "NX", "XX", "1", "a"), c("ZADD", "z", "GT", "LT", "1", "a"),
                c("ZADD", "z", "INCR", "2.5", "c"), c("ZADD", "z", "INCR", "1", "a", "2", "b"), c("ZADD", "z", "0.1", "e"),
                c("ZADD", "z", "-inf", "f", "+inf", "g"), c("ZRANGE", "z", "0", "-1", "WITHSCORES"), c("ZREM", "z", "a", "nope"),
                c("ZRANGE", "nope", "0", "-1"), c("ZRANGE", "z", "a", "1"), c("ZRANGE", "z", "0", "1", "FOO"), c("TYPE", "z"),
                c("ZADD", "h", "1", "x"), c("ZREM", "nope", "x"),
                // the commands of rpc-perf's keyspace workloads
                c("HSET", "hm", "f1", "1", "f2", "x"), c("HMGET", "hm", "f1", "nope", "f2"), c("HMGET", "nope", "a", "b"),
                c("HMGET", "s1", "a"), c("HMGET", "hm"), c("HINCRBY", "hm", "f1", "41"), c("HINCRBY", "hm", "f3", "-2"),
                c("HINCRBY", "hm", "f2", "1"), c("HINCRBY", "hm", "f1", "x"), c("HINCRBY", "fresh-h", "f", "5"),
                c("HGETALL", "fresh-h"), c("HINCRBY", "s1", "f", "1"), c("HSET", "hm", "big", "9223372036854775807"),
                c("HINCRBY", "hm", "big", "1"),
                c("SADD", "sm", "a", "b"), c("SISMEMBER", "sm", "a"), c("SISMEMBER", "sm", "z"), c("SISMEMBER", "nope", "a"),
                c("SISMEMBER", "hm", "a"), c("SMISMEMBER", "sm", "a", "z", "b"), c("SMISMEMBER", "nope", "a", "b"),
                c("SMISMEMBER", "sm"),
                c("ZADD", "zs", "1.5", "a", "2", "b"), c("ZSCORE", "zs", "a"), c("ZSCORE", "zs", "nope"),
                c("ZSCORE", "nope", "a"), c("ZSCORE", "hm", "a"), c("ZMSCORE", "zs", "a", "nope", "b"),
                c("ZMSCORE", "nope", "a"), c("ZINCRBY", "zs", "2", "a"), c("ZINCRBY", "zs", "1", "new"),
                c("ZINCRBY", "zs", "x", "a"), c("ZINCRBY", "zs", "nx", "a"), c("ZINCRBY", "zs", "INCR", "a"), c("ZINCRBY", "fresh-z", "-1.5", "m"), c("ZRANGE", "zs", "0", "-1", "WITHSCORES"),
                c("ZINCRBY", "hm", "1", "a"),
                // scores as redis reads them (strtod): hex, and no overflow or underflow to 0
                c("ZADD", "zf", "0x10", "a", "0X1A", "b", "0x1.8p1", "c", "-0x.8", "d", "4.9e-324", "e", "1e308", "f"),
                c("ZADD", "zf", "1e400", "x"), c("ZADD", "zf", "-1e400", "x"), c("ZADD", "zf", "1e-400", "x"),
                c("ZADD", "zf", " 1", "x"), c("ZADD", "zf", "1 ", "x"), c("ZADD", "zf", "0x", "x"), c("ZADD", "zf", "1e", "x"),
                c("ZADD", "zf", "+.5e+1", "g"), c("ZINCRBY", "zf", "0x10", "a"), c("ZINCRBY", "zf", "1e400", "a"),
                c("ZRANGE", "zf", "0", "-1", "WITHSCORES"),
                c("DBSIZE"), c("SELECT", "3"), c("DBSIZE"), c("SET", "x", "y"), c("DBSIZE"), c("FLUSHDB"), c("DBSIZE"),
                c("SELECT", "0"), c("SELECT", "16"), c("SELECT", "abc"), c("SELECT", "-1"), c("FLUSHDB", "BAD"),
                c("FOO", "bar", "baz"), c("FOO"), c("get"), c("gEt", "nope"), c("AUTH", "x"), c("AUTH", "default", "x"),
                c("AUTH", "a", "b", "c"), c("HELLO", "4"), c("HELLO", "abc"), c("HELLO", "3", "FOO"),
                c("CONFIG", "GET", "save"), c("CONFIG", "GET", "appendonly"), c("CONFIG", "NOPE"),
                c("HELLO", "3"),
                // RESP3 from here on
                c("GET", "nope"), c("GET", "n"), c("MGET", "k1", "nope"), c("HGETALL", "h"), c("HGETALL", "nope"),
                c("HGET", "h", "nope"), c("SMEMBERS", "s1"), c("SMEMBERS", "nope"), c("ZRANGE", "z", "0", "-1", "WITHSCORES"),
                c("ZRANGE", "z", "0", "0"), c("ZADD", "z", "INCR", "1", "b"), c("ZADD", "z", "XX", "INCR", "1", "nope"),
                c("LPOP", "nope", "2"), c("LPOP", "nope"), c("LRANGE", "nope", "0", "1"), c("EXISTS", "n", "nope"),
                c("INCR", "n"), c("PING"), c("HMGET", "hm", "f1", "nope"), c("SMISMEMBER", "sm", "a", "z"),
                c("ZSCORE", "zs", "a"), c("ZSCORE", "zs", "nope"), c("ZMSCORE", "zs", "a", "nope"),
                c("ZINCRBY", "zs", "1", "a"), c("SET", "x", "1", "GET"), c("CONFIG", "GET", "save"), c("INFO", "keyspace"),
                c("HELLO", "2"), c("GET", "nope"), c("HGETALL", "h"), c("ZRANGE", "z", "0", "0", "WITHSCORES"),
                c("INFO", "keyspace"), c("FLUSHALL", "SYNC"), c("DBSIZE")));
        return s;
    }

    @Test
    void answersTheScriptedSessionAsRedisDoes() {
        try (Client reference = Client.connect(redis.port()); Client ours = Client.connect(embedded.address().getPort())) {
            reference.command("CONFIG", "RESETSTAT");
            for (String[] command : script()) {
                Object expected = normalize(command, reference.command(command));
                Object actual = normalize(command, ours.command(command));
                assertEquals(expected, actual, () -> "reply to " + String.join(" ", command));
            }
            Map<String, Long> expectedCalls = reference.commandstats();
            Map<String, Long> actualCalls = ours.commandstats();
            for (String data : List.of("get", "set", "del", "exists", "expire", "ttl", "type", "incr", "decr", "incrby",
                    "decrby", "mget", "mset", "hget", "hset", "hgetall", "hdel", "lpush", "rpush", "lpop", "rpop", "lrange",
                    "sadd", "srem", "smembers", "zadd", "zrange", "zrem", "ping", "echo", "dbsize", "select", "flushdb",
                    "flushall", "hello", "auth")) {
                assertEquals(expectedCalls.get(data), actualCalls.get(data), "calls of " + data);
            }
            Map<String, String> expectedStats = RedisProcess.Client.fields(reference.info("stats"));
            Map<String, String> actualStats = RedisProcess.Client.fields(ours.info("stats"));
            for (String stat : List.of("keyspace_hits", "keyspace_misses")) {
                assertEquals(expectedStats.get(stat), actualStats.get(stat), stat);
            }
        }
    }

    /** Replies compared by structure where they differ by nature. */
    private static Object normalize(String[] command, Object reply) {
        String verb = command[0].toUpperCase(java.util.Locale.ROOT);
        if (verb.equals("HELLO") && !(reply instanceof RedisProcess.Err)) {
            Map<Object, Object> fields = new LinkedHashMap<>();
            if (reply instanceof Map<?, ?> m) {
                m.forEach(fields::put);
            } else {
                List<?> flat = (List<?>) reply;
                for (int i = 0; i < flat.size(); i += 2) {
                    fields.put(flat.get(i), flat.get(i + 1));
                }
            }
            fields.put("id", "(a client id)");
            fields.put("version", "(a version)");
            return (reply instanceof Map ? "map " : "flat ") + fields;
        }
        if (verb.equals("INFO")) {
            String text = reply instanceof Verbatim v ? v.format() + ":" + v.text() : "bulk:" + reply;
            return text.lines().filter(l -> l.startsWith("#") || l.startsWith("db")).map(l -> l.replaceAll("avg_ttl=\\d+", ""))
                    .toList();
        }
        return reply;
    }

    @Test
    void framesInlineCommandsAndHangsUpOnProtocolErrorsAsRedisDoes() {
        for (int port : new int[] {redis.port(), embedded.address().getPort()}) {
            String who = port == redis.port() ? "redis-server" : "embedded";
            try (Client c = Client.connect(port)) {
                c.send("PING\r\nSET inl \"a b\\x41\"\r\nGET inl\r\n  ECHO   'it''s'  \r\n\r\nECHO \"q\\\"\\n\"\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
                assertEquals(new RedisProcess.Simple("PONG"), c.read(), who);
                assertEquals(new RedisProcess.Simple("OK"), c.read(), who);
                assertEquals("a bA", c.read(), who);
                assertEquals(new RedisProcess.Err("ERR Protocol error: unbalanced quotes in request"), c.read(), who);
                assertTrue(c.closedByServer(), who);
            }
            // a pipeline split at odd places, and an empty multibulk
            try (Client c = Client.connect(port)) {
                byte[] all = ("*0\r\n" + new String(Client.encode("SET", "split", "x".repeat(1000)), StandardCharsets.ISO_8859_1)
                        + new String(Client.encode("GET", "split"), StandardCharsets.ISO_8859_1)).getBytes(StandardCharsets.ISO_8859_1);
                for (int i = 0; i < all.length; i += 7) {
                    c.send(java.util.Arrays.copyOfRange(all, i, Math.min(all.length, i + 7)));
                }
                assertEquals(new RedisProcess.Simple("OK"), c.read(), who);
                assertEquals("x".repeat(1000), c.read(), who);
            }
            for (String[] bad : new String[][] {
                {"*abc\r\n", "ERR Protocol error: invalid multibulk length"},
                {"*1\r\nx\r\n", "ERR Protocol error: expected '$', got 'x'"},
                {"*1\r\n$-5\r\n", "ERR Protocol error: invalid bulk length"},
                {"*2147483648\r\n", "ERR Protocol error: invalid multibulk length"},
            }) {
                try (Client c = Client.connect(port)) {
                    c.send(bad[0].getBytes(StandardCharsets.ISO_8859_1));
                    assertEquals(new RedisProcess.Err(bad[1]), c.read(), who + ": " + bad[0]);
                    assertTrue(c.closedByServer(), who + " closes after " + bad[0]);
                }
            }
            try (Client c = Client.connect(port)) {
                assertEquals(new RedisProcess.Simple("OK"), c.command("QUIT"), who);
                assertTrue(c.closedByServer(), who + " closes after QUIT");
            }
        }
    }
}
