package io.fluxperf.replay.cachetrace;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.CacheTraceFile;
import io.fluxperf.testkit.LogReaders;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CacheTraceReaderTest {
    @TempDir
    Path dir;

    private List<LogEntry> read(Path log, ReaderContext ctx) {
        LogFormat.PreparedLog prepared = CacheTraceFormat.INSTANCE.prepare(log, null);
        return LogReaders.readAll(prepared.open(ctx));
    }

    private static String arg(LogEntry e, int i) {
        return new String(e.args, e.argStart(i), e.argLength(i), StandardCharsets.ISO_8859_1);
    }

    @Test
    void eachLineIsOneCommandWithItsKeyPaddedItsValueSizeTtlAndClient() {
        Path log = LogReaders.write(dir, "t.csv", """
                7,nz:u:abc,12,0,21,get,0
                7,nz:u:abc,12,215,21,set,3600
                7,longer-than-its-size,4,3,9,add,60
                8,k,1,0,21,delete,0
                8,k,1,2,9,incr,0
                """);
        BadLines bad = new BadLines(false);
        List<LogEntry> entries = read(log, LogReaders.context("memcache", false, "p:", bad, new LogStats()));
        assertEquals(0, bad.count(), bad.first().toString());
        assertEquals(5, entries.size());
        LogEntry get = entries.get(0);
        assertEquals(Command.GET, get.command);
        assertEquals("p:nz:u:abc~~~~", LogReaders.key(get, 0)); // the prefix, then the key padded to 12
        assertEquals(0, get.readSize);
        assertEquals(-1, get.synthSize);
        LogEntry set = entries.get(1);
        assertEquals(Command.SET, set.command);
        assertEquals(215, set.synthSize);
        assertEquals(3600, set.ttlSeconds);
        assertEquals(get.client, set.client);
        LogEntry add = entries.get(2);
        assertEquals(Command.ADD, add.command);
        assertEquals("p:longer-than-its-size", LogReaders.key(add, 0), "a key longer than its size is kept whole");
        assertEquals(60, add.ttlSeconds);
        assertTrue(add.client != set.client);
        assertEquals(Command.DELETE, entries.get(3).command);
        assertEquals(0, entries.get(3).ttlSeconds);
        assertEquals(Command.INCR, entries.get(4).command);
        assertEquals(1, entries.get(4).numeric);
        // three commands in second 7 at 0, 1/3 and 2/3 of it; two in second 8 at 0 and 1/2
        long s = 1_000_000_000L;
        assertArrayEquals(new long[] {7 * s, 7 * s + s / 3, 7 * s + 2 * s / 3, 8 * s, 8 * s + s / 2},
                entries.stream().mapToLong(e -> e.timeNanos).toArray());
        assertArrayEquals(new long[] {1, 2, 3, 4, 5}, entries.stream().mapToLong(e -> e.line).toArray());
    }

    @Test
    void badLinesAreCountedAndNamedByTheirLine() {
        Path log = LogReaders.write(dir, "t.csv", """
                1,a,1,0,1,get,0
                1,a,1,0,1,get
                1,a,1,0,1,get,0,extra
                x,a,1,0,1,get,0
                1,a,one,0,1,get,0
                1,a,1,0,1,touch,0
                1,a b,3,0,1,get,0
                1,a,1,0,1,set,-5

                2,b,1,9,1,set,0
                """);
        BadLines bad = new BadLines(false);
        List<LogEntry> entries = read(log, LogReaders.context("memcache", false, null, bad, new LogStats()));
        assertEquals(2, entries.size());
        assertEquals(7, bad.count());
        assertEquals(List.of(
                "log:2: 6 fields, not 7 (timestamp,key,key size,value size,client id,operation,TTL)",
                "log:3: 8 fields, not 7 (timestamp,key,key size,value size,client id,operation,TTL)",
                "log:4: the timestamp 'x' is not a whole number of seconds",
                "log:5: the key size 'one' is not a number of bytes up to 65536",
                "log:6: unknown operation 'touch' (expected one of get, gets, set, add, replace, cas, append, prepend,"
                        + " delete, incr, decr)"), bad.first());
        assertEquals(10, entries.get(1).line);
    }

    @Test
    void strictStopsAtTheFirstBadLine() {
        Path log = LogReaders.write(dir, "t.csv", "1,a,1,0,1,get,0\n1,a,1\n");
        BadLines bad = new BadLines(true);
        UserError e = assertThrows(UserError.class,
                () -> read(log, LogReaders.context("memcache", true, null, bad, new LogStats())));
        assertTrue(e.getMessage().startsWith("log:2: 3 fields, not 7"), e.getMessage());
    }

    @Test
    void redisGetsStandInsForTheOperationsItLacks() {
        Path log = LogReaders.write(dir, "t.csv", """
                1,k1,4,0,1,gets,0
                1,k1,4,5,1,add,60
                1,k1,4,3,1,replace,0
                1,k1,4,3,1,cas,30
                1,k1,4,2,1,append,0
                1,k1,4,2,1,prepend,90
                1,k1,4,7,1,set,10
                """);
        List<LogEntry> entries = read(log, LogReaders.context("redis", false, null, new BadLines(false), new LogStats()));
        assertEquals(Command.GET, entries.get(0).command, "gets is a get");
        LogEntry add = entries.get(1);
        assertEquals(Command.COMMAND, add.command);
        assertEquals(List.of("SET", "k1~~", "abcde", "NX", "EX", "60"),
                java.util.stream.IntStream.range(0, add.argCount).mapToObj(i -> arg(add, i)).toList());
        assertEquals(2, add.valueArg);
        assertEquals("k1~~", LogReaders.key(add, 0));
        LogEntry replace = entries.get(2);
        assertEquals(List.of("SET", "k1~~", "abc", "XX"),
                java.util.stream.IntStream.range(0, replace.argCount).mapToObj(i -> arg(replace, i)).toList());
        LogEntry cas = entries.get(3);
        assertEquals(List.of("SET", "k1~~", "abc", "XX", "EX", "30"),
                java.util.stream.IntStream.range(0, cas.argCount).mapToObj(i -> arg(cas, i)).toList());
        for (int i : new int[] {4, 5}) {
            LogEntry e = entries.get(i);
            assertEquals(List.of("APPEND", "k1~~", "ab"),
                    java.util.stream.IntStream.range(0, e.argCount).mapToObj(k -> arg(e, k)).toList());
        }
        LogEntry set = entries.get(6);
        assertEquals(Command.SET, set.command, "redis has set: the codec adds EX");
        assertEquals(0, set.argCount);
        assertEquals(10, set.ttlSeconds);
        assertEquals(7, set.synthSize);
    }

    @Test
    void aProtocolWithoutTheCoreOperationsIsRefused() {
        Path log = LogReaders.write(dir, "t.csv", "1,k1,4,0,1,get,0\n");
        UserError e = assertThrows(UserError.class,
                () -> read(log, LogReaders.context("http", false, null, new BadLines(false), new LogStats())));
        assertTrue(e.getMessage().startsWith("--protocol http: a cache trace's operations need get, set, delete, incr"
                + " and decr, and http has no set, incr, decr (use one of "), e.getMessage());
    }

    @Test
    void aZstdTraceReadsAsThePlainOne() {
        CacheTraceFile trace = CacheTraceFile.builder().seconds(3, 50).make();
        List<LogEntry> plain = read(trace.write(dir.resolve("t.csv")),
                LogReaders.context("memcache", false, null, new BadLines(false), new LogStats()));
        List<LogEntry> zstd = read(trace.writeZstd(dir.resolve("cluster52.0.zst")),
                LogReaders.context("memcache", false, null, new BadLines(false), new LogStats()));
        assertEquals(150, plain.size());
        assertEquals(plain.size(), zstd.size());
        for (int i = 0; i < plain.size(); i++) {
            assertEquals(LogReaders.key(plain.get(i), 0), LogReaders.key(zstd.get(i), 0));
            assertEquals(plain.get(i).timeNanos, zstd.get(i).timeNanos);
            assertEquals(plain.get(i).command, zstd.get(i).command);
        }
    }

    @Test
    void theFirstLineTellsTheFormat() {
        assertTrue(CacheTraceFormat.INSTANCE.recognizes("0,nz:u:eeW511W3dcH3de3d15ec,24,0,12,get,0"));
        assertFalse(CacheTraceFormat.INSTANCE.recognizes("1700000000.1 [0 127.0.0.1:1] \"GET\" \"k\""));
        assertFalse(CacheTraceFormat.INSTANCE.recognizes("0.5,client-1"));
    }
}
