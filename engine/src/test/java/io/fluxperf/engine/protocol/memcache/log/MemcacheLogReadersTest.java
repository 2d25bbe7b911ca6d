package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.LogReaders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** memcache's log readers on small logs: what each makes of every kind of line, and what it counts as bad. */
class MemcacheLogReadersTest {
    @TempDir
    Path dir;

    // ---- memcached watch ----

    @Test
    void watchMicrosecondsAreUnpaddedKeysUriDecodedAndStoreFetchesDropped() {
        Path log = LogReaders.write(dir, "watch.log", """
                OK
                ts=1700000000.14463 gid=6 type=item_get key=foo status=found clsid=1 cfd=13 size=3
                ts=1700000000.14466 gid=7 type=item_get key=fo%20o%C3%A9 status=not_found clsid=0 cfd=13 size=0
                ts=1700000000.14467 gid=8 type=item_store key=fo%20o%C3%A9 status=stored cmd=set ttl=100 clsid=1 cfd=13 size=5
                ts=1700000000.500000 gid=9 type=item_get key=bar status=not_found clsid=0 cfd=14 size=0
                ts=1700000000.500001 gid=10 type=item_store key=bar status=stored cmd=add ttl=0 clsid=1 cfd=14 size=7
                ts=1700000001.5 gid=11 type=item_get key=bar status=found clsid=1 cfd=14 size=7
                ts=1700000001.6 gid=12 type=eviction key=zzz
                """);
        LogStats stats = new LogStats();
        BadLines bad = new BadLines(false);
        ReaderContext ctx = LogReaders.context("memcache", false, null, bad, stats);
        List<LogEntry> all = LogReaders.readAll(MemcacheLogFormats.WATCH.prepare(log, null).open( ctx));
        List<LogEntry> sent = all.stream().filter(e -> !e.dropped).toList();
        assertEquals(0, bad.count(), bad.first().toString());
        assertEquals(4, sent.size(), "two of the gets are the fetches inside the set and the add");
        LogEntry first = sent.get(0);
        assertEquals(Command.GET, first.command);
        assertEquals(1_700_000_000_014_463_000L, first.timeNanos, "14463 is microseconds, not a fraction");
        assertEquals(6, first.sortKey, "sorted by gid");
        assertEquals(2, first.line);
        LogEntry set = sent.get(1);
        assertEquals(Command.SET, set.command);
        assertArrayEquals("fo oé".getBytes(StandardCharsets.UTF_8), java.util.Arrays.copyOf(set.keys, set.keyLength(0)));
        assertEquals(5, set.synthSize);
        assertEquals(100, set.ttlSeconds);
        assertEquals(Command.ADD, sent.get(2).command);
        assertEquals(1_700_000_001_000_005_000L, sent.get(3).timeNanos);
        assertEquals(first.client, set.client);
        assertTrue(sent.get(2).client != first.client);
        assertEquals(2L, stats.skipped().get(MemcacheWatchReader.INTERNAL_FETCH));
        assertEquals(1, stats.skipped().entrySet().stream().filter(e -> e.getKey().contains("eviction")).count());
    }

    @Test
    void watchBadLinesAreCountedWithTheirPlace() {
        Path log = LogReaders.write(dir, "watch.log", """
                ts=1700000000.1 gid=1 type=item_get key=a status=found clsid=1 cfd=13 size=3
                ts=1700000000.2 gid=2 type=item_store key=a status=stored
                ts=1700000000.3 gid=3 type=item_store key=a status=stored cmd=frob ttl=0 clsid=1 cfd=13 size=1
                something else
                ts=1700000000.4 gid=4 type=item_get key=b status=found clsid=1 cfd=13 size=3
                ts=1700000000.5 gid=5 type=item_g""");
        BadLines bad = new BadLines(false);
        List<LogEntry> all = LogReaders.readAll(MemcacheLogFormats.WATCH.prepare(log, null).open(
                LogReaders.context("memcache", false, null, bad, new LogStats())));
        assertEquals(2, all.size());
        assertEquals(4, bad.count());
        assertEquals(List.of("log:2: truncated line (no cfd=)", "log:3: unknown command 'frob'",
                "log:4: not a watch line (no ts=)", "log:6: truncated line (the log ends inside it)"), bad.first());
        UserError strict = assertThrows(UserError.class, () -> LogReaders.readAll(MemcacheLogFormats.WATCH.prepare(log, null).open(
                LogReaders.context("memcache", true, null, new BadLines(true), new LogStats()))));
        assertEquals("log:2: truncated line (no cfd=) (--strict stops at the first bad line)", strict.getMessage());
    }

    @Test
    void watchKeyPrefix() {
        Path log = LogReaders.write(dir, "watch.log",
                "ts=1700000000.1 gid=1 type=item_get key=a%2Fb status=found clsid=1 cfd=13 size=3\n");
        List<LogEntry> all = LogReaders.readAll(MemcacheLogFormats.WATCH.prepare(log, null).open(
                LogReaders.context("memcache", false, "r:", new BadLines(false), new LogStats())));
        assertEquals("r:a/b", LogReaders.key(all.get(0), 0));
    }

    // ---- raw memcache stream ----

    @Test
    void asciiStreamWithDataBlocksMultiGetsNoreplyAndSendTimes() throws IOException {
        byte[] binary = {0, 1, '\r', '\n', (byte) 0xff};
        ByteArrayBuilder b = new ByteArrayBuilder();
        b.add("get a b c\r\n");
        b.add("set k 5 60 5 noreply\r\n").add(binary).add("\r\n");
        b.add("cas k 0 0 2 12345\r\nxy\r\n");
        b.add("incr n 7\r\n");
        b.add("delete k\r\n");
        b.add("version\r\n");
        b.add("touch k 30\r\n");
        b.add("frob k\r\n");
        b.add("flush_all\r\n");
        b.add("set short 0 0 10\r\nabc");
        Path log = Files.write(dir.resolve("stream.txt"), b.bytes());
        Path times = LogReaders.write(dir, "stream.txt.times.csv", """
                time,client
                0.000,alpha
                0.001,beta
                0.002,alpha
                0.003
                0.004,beta
                0.005,beta
                0.006,beta
                0.007,beta
                0.008,beta
                0.009,beta
                """);
        BadLines bad = new BadLines(false);
        LogStats stats = new LogStats();
        List<LogEntry> all = LogReaders.readAll(MemcacheLogFormats.ASCII.prepare(log, times).open(LogReaders.context("memcache", false, null, bad, stats)));
        assertEquals(6, all.size());
        LogEntry get = all.get(0);
        assertEquals(Command.GET, get.command);
        assertEquals(3, get.keyCount);
        assertEquals("c", LogReaders.key(get, 2));
        assertEquals(0, get.timeNanos);
        LogEntry set = all.get(1);
        assertEquals(Command.SET, set.command);
        assertEquals(60, set.ttlSeconds);
        assertTrue(set.valueLogged);
        assertArrayEquals(binary, java.util.Arrays.copyOf(set.value, set.valueLength));
        assertEquals(1_000_000, set.timeNanos);
        assertTrue(set.client != get.client);
        assertEquals(12345, all.get(2).numeric);
        assertEquals(get.client, all.get(2).client);
        assertEquals(-1, all.get(3).client, "a row without a client");
        assertEquals(7, all.get(3).numeric);
        assertEquals(Command.DELETE, all.get(4).command);
        assertEquals(Command.TOUCH, all.get(5).command);
        assertEquals(30, all.get(5).ttlSeconds);
        assertEquals(List.of("log:11: unknown command 'frob'", "log:13: truncated data block (10 bytes announced)"),
                bad.first());
        assertEquals(1L, stats.skipped().get("admin command (version)"));
        assertEquals(1L, stats.skipped().get("flush (replayed only with --allow-flush)"));
        assertEquals(1L, stats.adjusted().get("noreply dropped (every reply is timed)"));
    }

    /** Meta commands in a raw stream, beside text ones: each as its protocol-neutral command, base64 keys decoded. */
    @Test
    void metaCommandsInARawStream() throws IOException {
        byte[] binary = {0, 1, '\r', '\n', (byte) 0xff};
        ByteArrayBuilder b = new ByteArrayBuilder();
        b.add("mg k v t q O1\r\n");
        b.add("ms k 5 T60 F3 q\r\n").add(binary).add("\r\n");
        b.add("ms aGk= 2 b ME\r\nxy\r\n");
        b.add("ms k 1 C77\r\nz\r\n");
        b.add("ms k 1 MA\r\nz\r\n");
        b.add("mg k c v\r\n");
        b.add("mg k T30\r\n");
        b.add("md k q\r\n");
        b.add("ma n\r\n");
        b.add("ma n MD D5 N0 J3\r\n");
        b.add("mn\r\n");
        b.add("me k\r\n");
        b.add("get plain\r\n");
        b.add("ms k 3 MX\r\nabc\r\n");
        b.add("mg k T\r\n");
        b.add("mg !!! b v\r\n");
        b.add("mz k\r\n");
        b.add("ms k\r\n");
        b.add("ms k 4\r\nab");
        Path log = Files.write(dir.resolve("meta.txt"), b.bytes());
        BadLines bad = new BadLines(false);
        LogStats stats = new LogStats();
        assertEquals(MemcacheLogFormats.META.label(), "memcache-meta-ascii");
        List<LogEntry> all = LogReaders.readAll(MemcacheLogFormats.META.prepare(log, null)
                .open(LogReaders.context("memcache-meta", false, null, bad, stats)));
        List<Command> commands = all.stream().map(e -> e.command).toList();
        assertEquals(List.of(Command.GET, Command.SET, Command.ADD, Command.CAS, Command.APPEND, Command.GETS,
                Command.TOUCH, Command.DELETE, Command.INCR, Command.DECR, Command.EXISTS, Command.GET), commands);
        LogEntry set = all.get(1);
        assertEquals(60, set.ttlSeconds);
        assertArrayEquals(binary, java.util.Arrays.copyOf(set.value, set.valueLength));
        assertEquals("hi", LogReaders.key(all.get(2), 0), "the b key decoded");
        assertEquals(77, all.get(3).numeric);
        assertEquals(30, all.get(6).ttlSeconds);
        assertEquals(1, all.get(8).numeric, "ma's delta is 1 unless D says");
        assertEquals(5, all.get(9).numeric);
        assertEquals("plain", LogReaders.key(all.get(11), 0));
        assertEquals(List.of("log:19: invalid mode MX in ms", "log:21: bad T flag in mg",
                "log:22: key '!!!' is not base64 (it has the b flag)", "log:23: unknown command 'mz'",
                "log:24: truncated line (ms needs a key and a data length)"), bad.first());
        assertEquals(6, bad.count(), "and the truncated data block at the end");
        assertEquals(1L, stats.skipped().get("meta no-op (mn)"));
        assertEquals(3L, stats.adjusted().get("quiet flag dropped (every reply is timed)"));
        // where the protocol has no exists, me is skipped
        LogStats textStats = new LogStats();
        List<LogEntry> text = LogReaders.readAll(MemcacheLogFormats.ASCII.prepare(log, null)
                .open(LogReaders.context("memcache", false, null, new BadLines(false), textStats)));
        assertEquals(11, text.size());
        assertEquals(1L, textStats.skipped().get("meta debug (me), which memcache cannot send"));
    }

    // ---- klog ----

    @Test
    void klogSpreadsEachSecondEvenly() {
        Path log = LogReaders.write(dir, "klog.txt", """
                10.0.0.1:5000 - [09/Jul/2012:18:15:45 -0700] "get foo" 0 14
                10.0.0.2:6000 - [09/Jul/2012:18:15:45 -0700] "set foo 0 30 300" 1 6
                10.0.0.1:5000 - [09/Jul/2012:18:15:45 -0700] "gets foo" 0 20
                10.0.0.1:5000 - [09/Jul/2012:18:15:45 -0700] "delete foo" 2 9
                10.0.0.1:5000 - [09/Jul/2012:18:15:46 -0700] "incr n 3" 3 2
                10.0.0.1:5000 - [09/Jul/2012:18:15:46 -0700] "cas foo 0 0 3 99" 1 6
                10.0.0.1:5000 - [09/Jul/2012:18:15:46 -0700] "frob" 1 6
                10.0.0.1:5000 - [09/Jul/2012:18:15:4
                """);
        BadLines bad = new BadLines(false);
        List<LogEntry> all = LogReaders.readAll(new KlogReader(LogInput.open(log),
                LogReaders.context("memcache", false, null, bad, new LogStats()),
                KlogReader.countSeconds(LogInput.open(log))));
        assertEquals(6, all.size());
        long second = 1341882945L; // 2012-07-10T01:15:45Z
        assertEquals(second * 1_000_000_000L, all.get(0).timeNanos);
        assertEquals(second * 1_000_000_000L + 250_000_000L, all.get(1).timeNanos);
        assertEquals(second * 1_000_000_000L + 500_000_000L, all.get(2).timeNanos);
        assertEquals(second * 1_000_000_000L + 750_000_000L, all.get(3).timeNanos);
        assertEquals((second + 1) * 1_000_000_000L, all.get(4).timeNanos);
        assertEquals((second + 1) * 1_000_000_000L + 333_333_333L, all.get(5).timeNanos, "3 lines in that second");
        assertEquals(Command.SET, all.get(1).command);
        assertEquals(300, all.get(1).synthSize);
        assertEquals(30, all.get(1).ttlSeconds);
        assertEquals(Command.GETS, all.get(2).command);
        assertEquals(3, all.get(4).numeric);
        assertEquals(99, all.get(5).numeric);
        assertEquals(all.get(0).client, all.get(2).client);
        assertTrue(all.get(0).client != all.get(1).client);
        assertEquals(List.of("log:7: unknown command 'frob'", "log:8: bad or truncated time in [...]"), bad.first());
    }

    @Test
    void klogDates() {
        assertEquals(0, KlogReader.daysFromCivil(1970, 1, 1));
        assertEquals(19_723, KlogReader.daysFromCivil(2024, 1, 1));
        assertEquals(11_016, KlogReader.daysFromCivil(2000, 2, 29));
    }

    // ---- gzip ----


    /** Bytes for a test stream. */
    static final class ByteArrayBuilder {
        private final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();

        ByteArrayBuilder add(String s) {
            out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
            return this;
        }

        ByteArrayBuilder add(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
