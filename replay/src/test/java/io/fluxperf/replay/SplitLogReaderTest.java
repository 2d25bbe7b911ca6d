package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A log read in parts by several threads ({@link SplitLogReader}, {@code --reader-threads}) gives
 * what one reader gives: the same commands, per client and in the same order, with the same line
 * numbers, bad lines and skipped lines, also where a line straddles a part's nominal end; and a
 * replay so read reaches a real redis-server with each client's commands in order.
 */
@ExtendWith(RealServers.class)
class SplitLogReaderTest {
    private static final int CLIENTS = 40;

    @TempDir
    Path dir;

    /**
     * A MONITOR log of {@code lines} lines over {@link #CLIENTS} clients: SET/GET/DEL/INCR, escaped
     * values, a script's lines, AUTH lines (skipped), a few bad lines, a value longer than a part;
     * lines of varied lengths, so that lines lie across multiples of {@link SplitLogReader#PART_BYTES}.
     */
    private Path monitorLog(int lines, boolean bad) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("OK\n".getBytes(StandardCharsets.US_ASCII));
        long micros = 1_700_000_000_000_000L;
        for (int i = 0; i < lines; i++) {
            micros += 7 + i % 13;
            int c = (i * 7919) % CLIENTS;
            String client = "[0 10.0.0." + (1 + c % 5) + ":" + (40000 + c) + "]";
            String line;
            if (bad && i % 4999 == 17) {
                line = "this is no monitor line " + i;
            } else if (i % 997 == 5) {
                line = stamp(micros) + " [0 lua] \"SET\" \"lua:" + i + "\" \"x\"";
            } else if (i % 1499 == 3) {
                line = stamp(micros) + " " + client + " \"AUTH\" \"(redacted)\"";
            } else if (i == lines / 2) {
                line = stamp(micros) + " " + client + " \"SET\" \"c" + c + ":big\" \"" + "v".repeat(3 * SplitLogReader.PART_BYTES) + "\"";
            } else {
                line = switch (i % 5) {
                    case 0, 1 -> stamp(micros) + " " + client + " \"SET\" \"c" + c + ":k\" \"" + i + "\"";
                    case 2 -> stamp(micros) + " " + client + " \"GET\" \"c" + c + ":k\"";
                    case 3 -> stamp(micros) + " " + client + " \"INCR\" \"c" + c + ":n\"";
                    default -> stamp(micros) + " " + client + " \"SET\" \"c" + c + ":e\" \"a\\\"b\\n\\x00" + "z".repeat(i % 90) + "\"";
                };
            }
            out.writeBytes((line + (i % 3 == 0 ? "\r\n" : "\n")).getBytes(StandardCharsets.ISO_8859_1));
        }
        Path log = dir.resolve("monitor-" + lines + (bad ? "-bad" : "") + ".log");
        Files.write(log, out.toByteArray());
        return log;
    }

    private static String stamp(long micros) {
        String fraction = Long.toString(1_000_000 + micros % 1_000_000);
        return micros / 1_000_000 + "." + fraction.substring(1);
    }

    /** What one command was read as, with its verb's name, and its client's number. */
    private record Read(int client, String verb, long line, long time, String keys, String args, int valueArg) {
        static Read of(LogEntry e, VerbTable verbs) {
            return new Read(e.client, verbs.name(e.verb), e.line, e.timeNanos,
                    new String(e.keys, 0, e.keyStart(e.keyCount), StandardCharsets.ISO_8859_1) + "/" + e.keyCount,
                    new String(e.args, 0, e.argStart(e.argCount), StandardCharsets.ISO_8859_1) + "/" + e.argCount,
                    e.valueArg);
        }
    }

    /** One pass: every command read, the context's counters after it. */
    private record Pass(List<Read> reads, long lines, long badCount, List<String> bad, Map<String, Long> skipped) {
    }

    private static Pass pass(ReplayPlan plan, Path log, int threads) throws Exception {
        BadLines bad = new BadLines(false);
        LogStats stats = new LogStats();
        ReaderContext ctx = plan.context(bad, new VerbTable(plan.verbs), stats);
        List<Read> reads = new ArrayList<>();
        LogEntry e = new LogEntry();
        long lines;
        try (LogReader r = threads == 1 ? plan.open(ctx) : new SplitLogReader(log, plan.prepared, ctx, threads)) {
            while (r.next(e.reset())) {
                reads.add(Read.of(e, ctx.verbs));
            }
            lines = r.lines();
        }
        return new Pass(reads, lines, bad.count(), bad.first(), new TreeMap<>(stats.skipped()));
    }

    private static Map<Integer, List<Read>> byClient(List<Read> reads) {
        Map<Integer, List<Read>> m = new TreeMap<>();
        for (Read r : reads) {
            m.computeIfAbsent(r.client(), c -> new ArrayList<>()).add(r);
        }
        return m;
    }

    @Test
    void partsGiveWhatOneReaderGivesAndCutAtLineEnds() throws Exception {
        Path log = monitorLog(25_000, true);
        long size = Files.size(log);
        assertTrue(size > 20L * SplitLogReader.PART_BYTES, "the log spans many parts: " + size);
        // lines straddle the parts' nominal ends: a cut at the multiple itself would split them
        byte[] bytes = Files.readAllBytes(log);
        int straddling = 0;
        for (long at = SplitLogReader.PART_BYTES; at < size; at += SplitLogReader.PART_BYTES) {
            if (bytes[(int) at - 1] != '\n') {
                straddling++;
            }
        }
        assertTrue(straddling > 10, "lines laid across the parts' nominal ends: " + straddling);

        ReplayPlan plan = ReplayPlan.make(ReplayOptions.builder(log).live(false).build());
        Pass one = pass(plan, log, 1);
        for (int threads : new int[] {2, 3}) {
            Pass split = pass(plan, log, threads);
            assertEquals(one.reads().size(), split.reads().size(), threads + " threads: commands");
            assertEquals(byClient(one.reads()), byClient(split.reads()), threads + " threads: each client's commands, in order");
            assertEquals(one.reads(), split.reads(), threads + " threads: the log's order, line numbers and all");
            assertEquals(one.lines(), split.lines(), "lines");
            assertEquals(one.badCount(), split.badCount(), "bad lines");
            assertEquals(one.bad().size(), split.bad().size());
            assertTrue(one.bad().containsAll(split.bad()), "bad lines named as one reader names them: " + split.bad());
            assertEquals(one.skipped(), split.skipped(), "skipped lines");
        }
        assertEquals(CLIENTS, byClient(one.reads()).size());
        assertEquals(5, one.badCount(), one.bad().toString());
        assertTrue(one.reads().stream().anyMatch(r -> r.args().length() > 3 * SplitLogReader.PART_BYTES),
                "a line longer than a part is read whole");
    }

    /**
     * The thread that takes the commands allocates nothing per command: a pass (after the JIT's first
     * passes, reusing the parts as a --loop does) allocates its reader, its file's buffer and its
     * threads, a fixed amount whatever the log's length.
     */
    @Test
    void aPassAllocatesNothingPerCommand() throws Exception {
        Path log = monitorLog(25_000, false);
        ReplayPlan plan = ReplayPlan.make(ReplayOptions.builder(log).live(false).build());
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        SplitLogReader.Parts parts = new SplitLogReader.Parts(2);
        ReaderContext ctx = plan.context(new BadLines(false), new VerbTable(plan.verbs), new LogStats());
        LogEntry e = new LogEntry();
        long allocated = 0;
        long commands = 0;
        for (int pass = 0; pass < 6; pass++) {
            long before = mx.getCurrentThreadAllocatedBytes();
            commands = 0;
            try (LogReader r = new SplitLogReader(log, plan.prepared, ctx, parts)) {
                while (r.next(e.reset())) {
                    commands++;
                }
            }
            allocated = mx.getCurrentThreadAllocatedBytes() - before;
        }
        assertTrue(commands > 20_000, "commands: " + commands);
        assertTrue(allocated < 256 << 10, allocated + " bytes allocated in a pass of " + commands + " commands");
    }

    @Test
    void strictRaisesTheLogsFirstBadLine() throws Exception {
        Path log = monitorLog(6_000, true);
        ReplayPlan plan = ReplayPlan.make(ReplayOptions.builder(log).live(false).build());
        ReaderContext ctx = plan.context(new BadLines(true), new VerbTable(plan.verbs), new LogStats());
        LogEntry e = new LogEntry();
        UserError error = assertThrows(UserError.class, () -> {
            try (LogReader r = new SplitLogReader(log, plan.prepared, ctx, 3)) {
                while (r.next(e.reset())) {
                    // read on to the first bad line
                }
            }
        });
        // line 1 is redis-cli's OK; the log's line i+2 is its i-th command line
        assertTrue(error.getMessage().startsWith(log + ":19: "), error.getMessage());
    }

    @Test
    void splitReplayKeepsEachClientsOrderAgainstRedis(RedisProcess target) throws Exception {
        Path log = monitorLog(6_000, false);
        ReplayPlan plan = ReplayPlan.make(ReplayOptions.builder(log).live(false).build());
        assertEquals(2, SplitLogReader.threadsFor(2, plan.prepared, log, 1), "the replay below reads on 2 threads");
        assertEquals(1, SplitLogReader.threadsFor(0, plan.prepared, log, 1), "a small log: one thread unless told");
        assertEquals(1, SplitLogReader.threadsFor(2, plan.prepared, log, 2), "--scale: one thread");
        Map<String, Long> logged = new TreeMap<>();
        Map<String, String> last = new TreeMap<>();
        for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
            if (line.equals("OK") || line.contains("[0 lua]") || line.contains("\"AUTH\"")) {
                continue;
            }
            String[] w = line.split("\"");
            logged.merge(w[1].toLowerCase(java.util.Locale.ROOT), 1L, Long::sum);
            if (w[1].equals("SET") && w[3].endsWith(":k")) {
                last.put(w[3], w[5]);
            }
        }
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(target.address()).live(false)
                .speed(0).connections(CLIENTS).readerThreads(2).build());
        Map<String, Long> stats = new TreeMap<>(target.commandstats());
        stats.remove("info");
        assertEquals(logged, stats, run.out());
        assertEquals(0, run.result().run().total().total().outcomes().error(), run.out());
        try (RedisProcess.Client q = target.client()) {
            for (Map.Entry<String, String> e : last.entrySet()) {
                assertEquals(e.getValue(), q.command("GET", e.getKey()), "each client's last SET is the last: " + e.getKey());
            }
        }
    }
}
