package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.RedisProcess.Client;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The embedded server answers rpc-perf 5's list, sorted-set and hash verbs (LLEN, LTRIM, ZRANK,
 * ZRANGE … BYSCORE, HEXISTS) as redis-server 7.0 does: one session sent to both in lock step, in RESP2 and RESP3,
 * compared reply for reply, and then the servers' counters (calls per command, keyspace hits and
 * misses).
 */
@ExtendWith(RealServers.class)
class RedisListVerbsConformanceTest {
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

    static List<String[]> script() {
        return List.of(
                c("FLUSHALL"),
                c("RPUSH", "l", "a", "b", "c", "d", "e", "f"), c("LLEN", "l"), c("LLEN", "nope"),
                c("LTRIM", "l", "0", "3"), c("LRANGE", "l", "0", "-1"), c("LLEN", "l"),
                c("LPUSH", "l", "x", "y"), c("LTRIM", "l", "0", "2"), c("LRANGE", "l", "0", "-1"),
                c("RPUSH", "l", "p", "q", "r"), c("LTRIM", "l", "-3", "-1"), c("LRANGE", "l", "0", "-1"),
                c("LTRIM", "l", "-100", "100"), c("LLEN", "l"), c("LTRIM", "l", "1", "-1"), c("LRANGE", "l", "0", "-1"),
                c("LTRIM", "l", "5", "1"), c("EXISTS", "l"), c("LLEN", "l"),
                c("LTRIM", "nope", "0", "1"), c("LTRIM", "l", "x", "1"), c("LTRIM", "l", "0", "y"), c("LTRIM", "l", "0"),
                c("SET", "s", "v"), c("LLEN", "s"), c("LTRIM", "s", "0", "1"), c("LLEN"), c("LLEN", "a", "b"),
                c("ZADD", "z", "1", "a", "2", "b", "0", "c", "-1", "d", "2", "bb", "5", "e"),
                c("ZRANK", "z", "d"), c("ZRANK", "z", "bb"), c("ZRANK", "z", "e"), c("ZRANK", "z", "nope"),
                c("ZRANK", "nope", "a"), c("ZRANK", "s", "a"), c("ZRANK", "z"), c("ZRANK", "z", "a", "b"),
                c("ZRANGE", "z", "-1", "1", "BYSCORE"), c("ZRANGE", "z", "-1", "1", "BYSCORE", "WITHSCORES"),
                c("ZRANGE", "z", "-inf", "+inf", "BYSCORE"), c("ZRANGE", "z", "(0", "(5", "BYSCORE"),
                c("ZRANGE", "z", "(2", "+inf", "BYSCORE"), c("ZRANGE", "z", "2", "2", "BYSCORE"),
                c("ZRANGE", "z", "5", "0", "BYSCORE", "REV"), c("ZRANGE", "z", "+inf", "(1", "BYSCORE", "REV", "WITHSCORES"),
                c("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "1", "2"),
                c("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "2", "-1", "WITHSCORES"),
                c("ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "10", "2"),
                c("ZRANGE", "z", "3", "1", "BYSCORE"), c("ZRANGE", "z", "x", "1", "BYSCORE"),
                c("ZRANGE", "z", "(", "1", "BYSCORE"), c("ZRANGE", "z", "", "1", "BYSCORE"), c("ZRANGE", "z", "1e0", "2.0", "BYSCORE"),
                // ends as redis reads them (strtod): blanks before, hex, infinity; nothing after
                c("ZRANGE", "z", " 1", "\t2", "BYSCORE"), c("ZRANGE", "z", "(1 ", "2", "BYSCORE"), c("ZRANGE", "z", "(1d", "2", "BYSCORE"),
                c("ZRANGE", "z", "0x1", "(0X2", "BYSCORE"), c("ZRANGE", "z", "(-infinity", "(infinity", "BYSCORE"),
                c("ZRANGE", "z", "-1e400", "1e400", "BYSCORE"), c("ZRANGE", "z", "1", "2 x", "BYSCORE"),
                c("ZRANGE", "z", "0", "1", "LIMIT", "0", "1"),
                c("ZRANGE", "z", "0", "1", "BYSCORE", "LIMIT", "x", "1"), c("ZRANGE", "z", "0", "1", "BYSCORE", "LIMIT", "1"),
                c("ZRANGE", "z", "0", "1", "BYSCORE", "BYSCORE"), c("ZRANGE", "nope", "0", "1", "BYSCORE"),
                c("ZRANGE", "s", "0", "1", "BYSCORE"), c("ZRANGE", "z", "0", "-1"),
                c("HSET", "h", "f", "1", "g", "2"), c("HEXISTS", "h", "f"), c("HEXISTS", "h", "nope"),
                c("HEXISTS", "nope", "f"), c("HEXISTS", "z", "a"), c("HEXISTS", "h"), c("HDEL", "h", "f"), c("HEXISTS", "h", "f"),
                c("HELLO", "3"),
                // RESP3 from here on
                c("LLEN", "nope"), c("ZRANK", "z", "b"), c("ZRANK", "z", "nope"), c("ZRANK", "nope", "x"),
                c("ZRANGE", "z", "-1", "1", "BYSCORE", "WITHSCORES"), c("ZRANGE", "z", "(5", "+inf", "BYSCORE"),
                c("HEXISTS", "h", "g"), c("HEXISTS", "h", "f"),
                c("RPUSH", "m", "1", "2", "3"), c("LTRIM", "m", "-2", "-1"), c("LRANGE", "m", "0", "-1"),
                c("HELLO", "2"), c("FLUSHALL"));
    }

    @Test
    void answersTheNewVerbsAsRedisDoes() {
        try (Client reference = Client.connect(redis.port()); Client ours = Client.connect(embedded.address().getPort())) {
            reference.command("CONFIG", "RESETSTAT");
            for (String[] command : script()) {
                if (command[0].equals("HELLO")) {
                    // HELLO's reply carries the server's version and a client id: only switch the protocol
                    reference.command(command);
                    ours.command(command);
                    continue;
                }
                assertEquals(reference.command(command), ours.command(command), () -> "reply to " + String.join(" ", command));
            }
            Map<String, Long> expectedCalls = reference.commandstats();
            Map<String, Long> actualCalls = ours.commandstats();
            for (String verb : List.of("llen", "ltrim", "zrank", "zrange", "lrange", "rpush", "lpush", "zadd", "hexists")) {
                assertEquals(expectedCalls.get(verb), actualCalls.get(verb), "calls of " + verb);
            }
            Map<String, String> expectedStats = Client.fields(reference.info("stats"));
            Map<String, String> actualStats = Client.fields(ours.info("stats"));
            for (String stat : List.of("keyspace_hits", "keyspace_misses")) {
                assertEquals(expectedStats.get(stat), actualStats.get(stat), stat);
            }
        }
    }
}
