package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.testkit.RedisProcess.Client;
import io.fluxperf.testkit.RedisProcess.Dbl;
import io.fluxperf.testkit.RedisProcess.Err;
import io.fluxperf.testkit.RedisProcess.Nil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every redis command through the load engine, against a real redis-server and against the
 * embedded redis target, with fluxperf's outcome counts checked against the server's own
 * counters (INFO commandstats, keyspace_hits, keyspace_misses) and its data; plus templates, AUTH,
 * RESP3, SELECT and pipelining. Key spaces are small and sequential so that every count is exact.
 */
class RedisLoadRunTest {
    private static final int KEYS = 100;
    private static final Map<RedisTargets, RedisTargets.Target> TARGETS = new EnumMap<>(RedisTargets.class);

    @BeforeAll
    static void start() {
        for (RedisTargets kind : RedisTargets.values()) {
            TARGETS.put(kind, kind.start(null));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (RedisTargets.Target t : TARGETS.values()) {
            t.close();
        }
    }

    private static RedisTargets.Target target(RedisTargets kind) {
        RedisTargets.Target t = TARGETS.get(kind);
        t.reset();
        return t;
    }

    static KeyspaceConfig keys(long count) {
        return new KeyspaceConfig(count, 8, KeyDistribution.SEQUENTIAL, 1);
    }

    static WorkloadConfig workload(Command c) {
        return WorkloadConfig.of(c).withKeyspace(keys(KEYS)).withBytes(ValueSize.fixed(32));
    }

    static WorkloadConfig template(String words) {
        return new WorkloadConfig(null, Command.COMMAND, 0, 1, ValueSize.fixed(16), keys(KEYS), false, false, 1, 0,
                CommandTemplate.parse(words));
    }

    static RunConfig config(long requests, int connections, int pipeline, ProtocolOptions options, WorkloadConfig w) {
        return RunConfig.builder().protocol("redis").threads(1).connections(connections).pipeline(pipeline)
                .duration(Duration.ofSeconds(30)).windows(1).timeout(Duration.ofSeconds(2)).tcpNoDelay(true)
                .requests(requests).seed(7).workload(w).protocolOptions(options).build();
    }

    static OutcomeCounts run(RedisTargets.Target t, RunConfig config) {
        RunResult result = new LoadRun(config, new RunListener() { })
                .execute(new InetSocketAddress("127.0.0.1", t.port()), t.name());
        OutcomeCounts o = result.total().total().outcomes();
        assertEquals(config.requests(), o.requests(), "every request ended");
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed());
        return o;
    }

    /** Runs {@code requests} of {@code w} on 4 connections and returns the outcomes. */
    static OutcomeCounts run(RedisTargets.Target t, long requests, WorkloadConfig w) {
        return run(t, config(requests, 4, 1, ProtocolOptions.none(), w));
    }

    private static void assertOutcomes(long ok, long miss, OutcomeCounts o) {
        assertEquals(ok, o.ok(), "ok");
        assertEquals(miss, o.miss(), "miss");
        assertEquals(0, o.error() + o.timeout() + o.closed(), "errors, timeouts, closed");
    }

    private static String key(long i) {
        return String.format("%08d", i);
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void stringsSetGetMgetMset(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(0, 200, run(t, 200, workload(Command.GET)));
        assertEquals(200, t.stat("keyspace_misses"));
        assertEquals(0, t.stat("keyspace_hits"));

        WorkloadConfig set = workload(Command.SET);
        assertOutcomes(200, 0, run(t, 200, set));
        assertEquals(200, t.calls("set"));
        assertEquals((long) KEYS, t.command("DBSIZE"));
        byte[] expected = GeneratedLoad.patternFor(config(1, 1, 1, ProtocolOptions.none(), set)).expected(17, 32);
        assertEquals(new String(expected, StandardCharsets.ISO_8859_1), t.command("GET", key(17)), "the value written for key 17");

        assertOutcomes(200, 0, run(t, 200, workload(Command.GET)));
        assertEquals(1 + 200, t.stat("keyspace_hits"));
        assertEquals(200 + 1 + 200, t.calls("get"));

        assertOutcomes(50, 0, run(t, 50, workload(Command.MGET).withKeysPerRequest(3)));
        assertEquals(50, t.calls("mget"));
        assertEquals(1 + 200 + 150, t.stat("keyspace_hits"));

        assertOutcomes(100, 0, run(t, 100, workload(Command.MSET).withKeyspace(keys(1000))));
        assertEquals(100, t.calls("mset"));
        assertEquals((long) KEYS, t.command("DBSIZE"), "MSET wrote keys 0..99 again");

        t.command("FLUSHALL");
        assertOutcomes(0, 30, run(t, 30, workload(Command.MGET).withKeysPerRequest(2)));
        assertOutcomes(20, 0, run(t, 20, workload(Command.GET).withKeysPerRequest(2).withHit(true)));
        assertEquals(50 + 30 + 20, t.calls("mget"), "GET with several keys goes as MGET");
        assertEquals(200 + 1 + 200, t.calls("get"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void getWithHitAndGetAfterFlush(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(300, 0, run(t, 300, workload(Command.GET).withHit(true)));
        assertEquals(KEYS, t.calls("set"), "the preload set every key once");
        assertEquals(300, t.stat("keyspace_hits"));
        assertEquals(0, t.stat("keyspace_misses"));

        assertOutcomes(0, 300, run(t, 300, workload(Command.GET).withFlush(true)));
        assertEquals(1, t.calls("flushall"));
        assertEquals(300, t.stat("keyspace_misses"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void existsExpireDel(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        try (Client c = t.client()) {
            for (int i = 0; i < KEYS / 2; i++) {
                c.command("SET", key(i), "v");
            }
        }
        assertOutcomes(100, 100, run(t, 200, workload(Command.EXISTS)));
        assertEquals(100, t.stat("keyspace_hits"));
        assertEquals(100, t.stat("keyspace_misses"));

        assertOutcomes(100, 100, run(t, 200, workload(Command.EXPIRE)));
        long ttl = (long) t.command("TTL", key(3));
        assertTrue(ttl > 3590 && ttl <= 3600, "EXPIRE without a ttl sends 3600 s: " + ttl);
        assertOutcomes(50, 0, run(t, 50, workload(Command.EXPIRE).withTtlSeconds(60)));
        ttl = (long) t.command("TTL", key(3));
        assertTrue(ttl > 55 && ttl <= 60, "EXPIRE with --ttl 60: " + ttl);
        assertEquals(250, t.calls("expire"));

        assertOutcomes(50, 150, run(t, 200, workload(Command.DELETE)));
        assertEquals(200, t.calls("del"));
        assertEquals(0L, t.command("DBSIZE"));

        assertOutcomes(40, 0, run(t, 40, workload(Command.SET).withTtlSeconds(100)));
        ttl = (long) t.command("TTL", key(5));
        assertTrue(ttl > 95 && ttl <= 100, "SET with --ttl sends EX: " + ttl);
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void incrDecr(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(200, 0, run(t, 200, workload(Command.INCR)));
        assertEquals("2", t.command("GET", key(42)));
        assertOutcomes(300, 0, run(t, 300, workload(Command.DECR)));
        assertEquals("-1", t.command("GET", key(42)));
        assertEquals(200, t.calls("incr"));
        assertEquals(300, t.calls("decr"));
        t.command("SET", key(0), "not a number");
        OutcomeCounts o = run(t, 1, workload(Command.INCR));
        assertEquals(1, o.error(), "INCR of a non-number is an error reply");
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void hashes(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(0, 100, run(t, 100, workload(Command.HGET)));
        assertEquals(100, t.stat("keyspace_misses"));
        WorkloadConfig hset = workload(Command.HSET);
        assertOutcomes(200, 0, run(t, 200, hset));
        byte[] expected = GeneratedLoad.patternFor(config(1, 1, 1, ProtocolOptions.none(), hset)).expected(7, 32);
        assertEquals(new String(expected, StandardCharsets.ISO_8859_1), t.command("HGET", key(7), key(7)),
                "the field is the key, the value the workload's");
        assertOutcomes(200, 0, run(t, 200, workload(Command.HGET)));
        assertOutcomes(100, 0, run(t, 100, workload(Command.HGETALL)));
        assertEquals(1 + 300, t.stat("keyspace_hits"));
        assertOutcomes(100, 100, run(t, 200, workload(Command.HDEL)));
        assertOutcomes(0, 100, run(t, 100, workload(Command.HGETALL)));
        assertEquals(200, t.calls("hset"));
        assertEquals(1 + 300, t.calls("hget"));
        assertEquals(200, t.calls("hgetall"));
        assertEquals(200, t.calls("hdel"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void lists(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(0, 100, run(t, 100, workload(Command.LRANGE)));
        assertOutcomes(200, 0, run(t, 200, workload(Command.LPUSH)));
        assertOutcomes(100, 0, run(t, 100, workload(Command.RPUSH)));
        assertEquals(3, ((List<?>) t.command("LRANGE", key(9), "0", "-1")).size());
        assertOutcomes(100, 0, run(t, 100, workload(Command.LRANGE)));
        assertEquals(1 + 100, t.stat("keyspace_hits"));
        assertEquals(100, t.stat("keyspace_misses"));
        assertOutcomes(200, 0, run(t, 200, workload(Command.LPOP)));
        assertOutcomes(100, 100, run(t, 200, workload(Command.RPOP)));
        assertOutcomes(0, 100, run(t, 100, workload(Command.LRANGE)));
        assertEquals(200, t.calls("lpush"));
        assertEquals(100, t.calls("rpush"));
        assertEquals(200, t.calls("lpop"));
        assertEquals(200, t.calls("rpop"));
        assertEquals(1 + 300, t.calls("lrange"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void sets(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(0, 100, run(t, 100, workload(Command.SMEMBERS)));
        assertOutcomes(200, 0, run(t, 200, workload(Command.SADD)));
        assertEquals(List.of(key(11)), t.command("SMEMBERS", key(11)), "the member is the key");
        assertOutcomes(100, 0, run(t, 100, workload(Command.SMEMBERS)));
        assertOutcomes(100, 100, run(t, 200, workload(Command.SREM)));
        assertOutcomes(0, 100, run(t, 100, workload(Command.SMEMBERS)));
        assertEquals(1 + 100, t.stat("keyspace_hits"));
        assertEquals(200, t.stat("keyspace_misses"));
        assertEquals(200, t.calls("sadd"));
        assertEquals(200, t.calls("srem"));
        assertEquals(1 + 300, t.calls("smembers"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void sortedSets(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(0, 100, run(t, 100, workload(Command.ZRANGE)));
        assertOutcomes(200, 0, run(t, 200, workload(Command.ZADD)));
        assertEquals(List.of(key(13), "0"), t.command("ZRANGE", key(13), "0", "-1", "WITHSCORES"));
        assertOutcomes(100, 0, run(t, 100, workload(Command.ZRANGE)));
        assertOutcomes(100, 100, run(t, 200, workload(Command.ZREM)));
        assertOutcomes(0, 100, run(t, 100, workload(Command.ZRANGE)));
        assertEquals(1 + 100, t.stat("keyspace_hits"));
        assertEquals(200, t.stat("keyspace_misses"));
        assertEquals(200, t.calls("zadd"));
        assertEquals(200, t.calls("zrem"));
        assertEquals(1 + 300, t.calls("zrange"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void ping(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(500, 0, run(t, 500, workload(Command.PING)));
        assertEquals(500, t.calls("ping"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void commandTemplates(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(100, 0, run(t, 100, template("SET __key__ __data__")));
        assertOutcomes(200, 0, run(t, 200, template("GET __key__")));
        assertEquals(200, t.stat("keyspace_hits"));
        assertEquals(100, t.calls("set"));
        assertEquals(200, t.calls("get"));
        assertOutcomes(0, 50, run(t, 50, template("get missing:__key__")));
        assertOutcomes(50, 0, run(t, 50, template("SET c:__counter__ __data__ EX 100")));
        assertEquals(2L, t.command("EXISTS", "c:1", "c:50"), "__counter__ numbers the requests 1..50");
        assertEquals(0L, t.command("EXISTS", "c:0", "c:51"));
        assertOutcomes(0, 20, run(t, 20, template("EXISTS none:__key__")));
        assertOutcomes(20, 0, run(t, 20, template("HSET h:__key__ f __data__")));
        assertEquals(16, ((String) t.command("HGET", "h:" + key(3), "f")).length());
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void selectDatabase(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        ProtocolOptions db3 = ProtocolOptions.of("db", "3");
        assertOutcomes(100, 0, run(t, config(100, 4, 1, db3, workload(Command.SET))));
        assertEquals(0L, t.command("DBSIZE"));
        try (Client c = t.client()) {
            c.command("SELECT", "3");
            assertEquals((long) KEYS, c.command("DBSIZE"));
            assertTrue(c.info("keyspace").contains("db3:keys=100,"), c.info("keyspace"));
        }
        assertOutcomes(100, 0, run(t, config(100, 4, 1, db3, workload(Command.GET))));
        ProtocolOptions db99 = ProtocolOptions.of("db", "99");
        UserError e = assertThrows(UserError.class, () -> run(t, config(10, 2, 1, db99, workload(Command.GET))));
        assertEquals("--db 99: redis refused SELECT 99: ERR DB index is out of range.", e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void resp3(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        ProtocolOptions resp3 = ProtocolOptions.of("resp", "3");
        assertOutcomes(0, 100, run(t, config(100, 4, 1, resp3, workload(Command.GET))));
        assertOutcomes(0, 50, run(t, config(50, 4, 1, resp3, workload(Command.MGET).withKeysPerRequest(2))));
        assertOutcomes(0, 50, run(t, config(50, 4, 1, resp3, workload(Command.HGETALL))));
        assertOutcomes(200, 0, run(t, config(200, 4, 1, resp3, workload(Command.GET).withHit(true))));
        // each container type under its own key names (key length 10, 11, 12)
        KeyspaceConfig hashes = keys(KEYS).withKeyLength(10);
        KeyspaceConfig sets = keys(KEYS).withKeyLength(11);
        KeyspaceConfig zsets = keys(KEYS).withKeyLength(12);
        assertOutcomes(100, 0, run(t, config(100, 4, 1, resp3, workload(Command.HSET).withKeyspace(hashes))));
        assertOutcomes(100, 0, run(t, config(100, 4, 1, resp3, workload(Command.HGETALL).withKeyspace(hashes))));
        assertOutcomes(100, 0, run(t, config(100, 4, 1, resp3, workload(Command.SADD).withKeyspace(sets))));
        assertOutcomes(100, 0, run(t, config(100, 4, 1, resp3, workload(Command.SMEMBERS).withKeyspace(sets))));
        assertOutcomes(100, 0, run(t, config(100, 4, 1, resp3, workload(Command.ZADD).withKeyspace(zsets))));
        assertOutcomes(100, 0, run(t, config(100, 4, 1, resp3, workload(Command.ZRANGE).withKeyspace(zsets))));
        assertOutcomes(0, 100, run(t, config(100, 4, 1, resp3, workload(Command.HGET).withKeyspace(keys(KEYS).withKeyLength(9)))));
        assertEquals(11 * 4, t.calls("hello"), "HELLO 3 once per connection");
        try (Client c = t.client()) {
            c.command("HELLO", "3");
            assertEquals(Nil.NIL, c.command("GET", "nope"), "RESP3 null");
            String zkey = String.format("%012d", 5);
            assertEquals(List.of(List.of(zkey, new Dbl("0"))), c.command("ZRANGE", zkey, "0", "-1", "WITHSCORES"));
        }
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void pipelineOf16(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        WorkloadConfig get = workload(Command.GET).withHit(true).withKeyspace(keys(1000));
        OutcomeCounts o = run(t, config(20_000, 4, 16, ProtocolOptions.none(), get));
        assertOutcomes(20_000, 0, o);
        assertEquals(20_000, t.stat("keyspace_hits"));
        assertEquals(20_000, t.calls("get"));
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void authentication(RedisTargets kind) throws Exception {
        try (RedisTargets.Target t = kind.start("s3cret")) {
            ProtocolOptions right = ProtocolOptions.of("password", "s3cret");
            assertOutcomes(100, 0, run(t, config(100, 4, 1, right, workload(Command.SET))));
            ProtocolOptions asDefaultUser = ProtocolOptions.of("user", "default", "password", "s3cret", "db", "2");
            assertOutcomes(0, 100, run(t, config(100, 4, 1, asDefaultUser, workload(Command.GET))));
            ProtocolOptions resp3 = ProtocolOptions.of("password", "s3cret", "db", "1", "resp", "3");
            assertOutcomes(0, 100, run(t, config(100, 4, 1, resp3, workload(Command.GET))));

            ProtocolOptions wrong = ProtocolOptions.of("password", "wrong");
            UserError e = assertThrows(UserError.class, () -> run(t, config(100, 4, 1, wrong, workload(Command.GET))));
            assertEquals("--password: redis refused AUTH: WRONGPASS invalid username-password pair or user is disabled.",
                    e.getMessage());
            ProtocolOptions wrong3 = ProtocolOptions.of("password", "wrong", "resp", "3");
            e = assertThrows(UserError.class, () -> run(t, config(100, 4, 1, wrong3, workload(Command.GET))));
            assertEquals("--password: redis refused HELLO 3 AUTH: WRONGPASS invalid username-password pair or user is disabled.",
                    e.getMessage());
            ProtocolOptions none3 = ProtocolOptions.of("resp", "3");
            e = assertThrows(UserError.class, () -> run(t, config(100, 4, 1, none3, workload(Command.GET))));
            assertTrue(e.getMessage().startsWith("--password: redis requires a password (it answered HELLO with: NOAUTH "),
                    e.getMessage());
            // without a password and without a handshake, each request is answered NOAUTH: an error reply
            OutcomeCounts o = run(t, 20, workload(Command.GET));
            assertEquals(20, o.error());
        }
        RedisTargets.Target open = target(kind);
        ProtocolOptions needless = ProtocolOptions.of("password", "pw");
        UserError e = assertThrows(UserError.class, () -> run(open, config(10, 2, 1, needless, workload(Command.GET))));
        assertEquals("--password: redis has no password configured, so it refused AUTH; leave out --password.", e.getMessage());
    }

    /** Connect per request runs its connections on bare sockets: each does the handshake before its one request. */
    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void aConnectionPerRequestAuthenticatesAndSelectsEachTime(RedisTargets kind) throws Exception {
        try (RedisTargets.Target t = kind.start("s3cret")) {
            ConnectionOptions perRequest = ConnectionOptions.builder().connectPerRequest(true).build();
            ProtocolOptions db2 = ProtocolOptions.of("password", "s3cret", "db", "2");
            RunConfig set = withConnection(config(300, 4, 1, db2, workload(Command.SET)), perRequest);
            long before = kind == RedisTargets.REDIS_SERVER ? t.stat("total_connections_received") : 0;
            assertOutcomes(300, 0, run(t, set));
            if (kind == RedisTargets.REDIS_SERVER) {
                long made = t.stat("total_connections_received") - before - 1; // -1: this INFO's own
                assertEquals(300, made, "a connection per request, and no spare one");
            }
            assertEquals(0L, ((Long) t.command("DBSIZE")), "database 0 stays empty: SELECT 2 came first");
            ProtocolOptions wrong = ProtocolOptions.of("password", "wrong", "db", "2");
            UserError e = assertThrows(UserError.class,
                    () -> run(t, withConnection(config(100, 4, 1, wrong, workload(Command.GET)), perRequest)));
            assertTrue(e.getMessage().startsWith("--password: redis refused AUTH"), e.getMessage());
        }
    }

    private static RunConfig withConnection(RunConfig c, ConnectionOptions connection) {
        return RunConfig.builder().protocol(c.protocol()).threads(c.threads()).connections(c.connections())
                .pipeline(c.pipeline()).duration(c.duration()).windows(c.windows()).warmup(c.warmup())
                .timeout(c.timeout()).tcpNoDelay(c.tcpNoDelay()).requests(c.requests()).seed(c.seed())
                .workloads(c.workloads()).protocolOptions(c.protocolOptions()).connection(connection)
                .statsInterval(c.statsInterval()).build();
    }

    @ParameterizedTest
    @EnumSource(RedisTargets.class)
    void wrongTypeRepliesAreErrors(RedisTargets kind) {
        RedisTargets.Target t = target(kind);
        assertOutcomes(100, 0, run(t, 100, workload(Command.LPUSH)));
        OutcomeCounts o = run(t, 100, workload(Command.GET));
        assertEquals(100, o.error());
        assertTrue(t.command("GET", key(1)) instanceof Err);
    }
}
