package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.LogReaders;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MONITOR reader on small logs, plain and gzip: what it replays, skips and counts as bad. */
class RedisMonitorReaderTest {
    @TempDir
    Path dir;

    @Test
    void gzipIsReadByContentNotName() throws IOException {
        Path log = dir.resolve("monitor.log"); // no .gz
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(log))) {
            out.write("OK\n1700000000.000001 [0 127.0.0.1:1] \"GET\" \"k\"\n".getBytes(StandardCharsets.US_ASCII));
        }
        List<LogEntry> all = LogReaders.readAll(RedisMonitorFormat.INSTANCE.prepare(log, null).open(
                LogReaders.context("redis", false, null, new BadLines(false), new LogStats())));
        assertEquals(1, all.size());
        assertEquals(Command.GET, all.get(0).command);
        assertEquals("k", LogReaders.key(all.get(0), 0));
    }

    @Test
    void gzipCutShortReplaysWhatCameBeforeAndSaysSo() throws IOException {
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(gz)) {
            for (int i = 0; i < 2000; i++) {
                out.write(("1700000000." + String.format("%06d", i) + " [0 127.0.0.1:1] \"GET\" \"key" + i + "\"\n")
                        .getBytes(StandardCharsets.US_ASCII));
            }
        }
        byte[] whole = gz.toByteArray();
        Path log = Files.write(dir.resolve("cut.log.gz"), java.util.Arrays.copyOf(whole, whole.length / 2));
        BadLines bad = new BadLines(false);
        List<LogEntry> all = LogReaders.readAll(RedisMonitorFormat.INSTANCE.prepare(log, null).open(
                LogReaders.context("redis", false, null, bad, new LogStats())));
        assertTrue(all.size() > 100 && all.size() < 2000, "read " + all.size());
        List<String> reported = bad.first();
        assertEquals("log: the gzip stream is cut short at byte " + Files.size(log)
                + " (the file ends inside it); what came before was read",
                reported.get(reported.size() - 1));
        assertTrue(reported.size() == 1 || reported.get(0).startsWith("log:" + (all.size() + 1) + ": "), reported.toString());
    }

    // ---- MONITOR reader: what is skipped ----

    @Test
    void monitorSkipsScriptsAuthAndFlushes() {
        Path log = LogReaders.write(dir, "monitor.log", """
                OK
                1700000000.000001 [0 127.0.0.1:1] "AUTH" "(redacted)"
                1700000000.000002 [0 127.0.0.1:1] "EVAL" "redis.call('set', KEYS[1], ARGV[1])" "1" "k" "v"
                1700000000.000003 [0 lua] "set" "k" "v"
                1700000000.000004 [0 127.0.0.1:1] "FLUSHALL"
                1700000000.000005 [0 unix:/tmp/redis.sock] "HINCRBY" "h" "f" "1"
                """);
        LogStats stats = new LogStats();
        List<LogEntry> all = LogReaders.readAll(RedisMonitorFormat.INSTANCE.prepare(log, null).open(
                LogReaders.context("redis", false, null, new BadLines(false), stats)));
        assertEquals(2, all.size());
        assertEquals(Command.EVAL, all.get(0).command, "EVAL, one of redis' commands, counts as eval");
        assertEquals(5, all.get(0).argCount, "and is sent as its words");
        assertEquals("k", LogReaders.key(all.get(0), 0));
        assertEquals(Command.HINCRBY, all.get(1).command);
        assertEquals(4, all.get(1).argCount);
        assertEquals(1L, stats.skipped().get(RedisMonitorReader.SCRIPT));
        assertEquals(1L, stats.skipped().get("AUTH/HELLO (MONITOR hides the password; use --password)"));
        assertEquals(1L, stats.skipped().get("flush (replayed only with --allow-flush)"));
        assertFalse(all.get(0).client == all.get(1).client);
    }
}
