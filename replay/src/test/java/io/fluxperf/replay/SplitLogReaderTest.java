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

    /**
     * A Twitter cache trace of {@code lines} lines over {@link #CLIENTS} clients: every operation,
     * several commands a second (spread over it in the log's order), CRLF ends, bad lines (six
     * fields, an unknown operation, a bad TTL), an empty client id, and one line longer than a part
     * (longer than the reader takes: a bad line too).
     */
    private Path cacheTrace(int lines) throws Exception {
        StringBuilder out = new StringBuilder();
        String[] ops = {"get", "get", "set", "gets", "add", "replace", "cas", "append", "prepend", "delete", "incr", "decr"};
        for (int i = 0; i < lines; i++) {
            long second = 1000 + i / 37;
            int c = (i * 7919) % CLIENTS;
            String key = "nz:u:" + Integer.toHexString(i % 977) + "x".repeat(i % 29);
            String line;
            if (i % 4001 == 11) {
                line = second + "," + key + ",24,10," + c + ",get";
            } else if (i % 4001 == 12) {
                line = second + "," + key + ",24,10," + c + ",frobnicate,0";
            } else if (i % 4001 == 13) {
                line = second + "," + key + ",24,10," + c + ",set,-5";
            } else if (i == lines / 2) {
                line = second + "," + "k".repeat(2 * SplitLogReader.PART_BYTES) + ",24,10," + c + ",get,0";
            } else {
                String client = i % 501 == 7 ? "" : Integer.toString(c);
                line = second + "," + key + "," + (10 + i % 40) + "," + (i % 300) + "," + client + "," + ops[i % ops.length]
                        + "," + (i % 7 == 0 ? 3600 : 0);
            }
            out.append(line).append(i % 3 == 0 ? "\r\n" : "\n");
        }
        return write("trace-" + lines + ".csv", out);
    }

    /**
     * memcached's {@code watch fetchers mutations} of {@code lines} lines over {@link #CLIENTS}
     * connections: gets, stores each with the fetch memcached logs inside it first (which is dropped),
     * %-escaped keys, evictions (skipped), bad lines, and gids slightly out of order.
     */
    private Path watchLog(int lines) throws Exception {
        StringBuilder out = new StringBuilder("OK\n");
        long micros = 1_700_000_000_000_000L;
        String[] cmds = {"set", "add", "replace", "append", "prepend", "cas"};
        for (int i = 0; i < lines; i++) {
            micros += 3 + i % 11;
            int cfd = 13 + (i * 7919) % CLIENTS;
            String ts = "ts=" + micros / 1_000_000 + "." + micros % 1_000_000;
            String gid = " gid=" + (i % 10 == 3 ? i + 2 : i % 10 == 5 ? i - 2 : i);
            String key = "k" + (i % 613) + (i % 9 == 0 ? "%20sp" : "") + "y".repeat(i % 31);
            if (i % 3001 == 17) {
                out.append(ts).append(" type=item_get key=").append(key).append('\n'); // no gid
            } else if (i % 3001 == 19) {
                out.append(ts).append(gid).append(" type=item_get key=").append(key).append(" status=found cfd=x size=3\n");
            } else if (i % 211 == 5) {
                out.append(ts).append(gid).append(" type=eviction key=").append(key).append(" ttl=0 la=1 clsid=1\n");
            } else if (i % 4 == 1) {
                String cmd = cmds[i % cmds.length];
                out.append(ts).append(gid).append(" type=item_get key=").append(key).append(" status=not_found clsid=1 cfd=")
                        .append(cfd).append(" size=0\n");
                out.append(ts).append(gid).append(" type=item_store key=").append(key).append(" status=stored cmd=").append(cmd)
                        .append(" ttl=").append(i % 5 * 60).append(" clsid=1 cfd=").append(cfd).append(" size=").append(i % 700)
                        .append('\n');
            } else {
                out.append(ts).append(gid).append(" type=item_get key=").append(key).append(" status=found clsid=1 cfd=")
                        .append(cfd).append(" size=").append(i % 400).append('\n');
            }
        }
        return write("watch-" + lines + ".log", out);
    }

    /**
     * twemcache's klog of {@code lines} lines over {@link #CLIENTS} peers: several commands a second
     * (spread over it in the log's order), gets of several keys, stores, incr, admin commands
     * (skipped) and bad lines.
     */
    private Path klog(int lines) throws Exception {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            int c = (i * 7919) % CLIENTS;
            int second = 15 + i / 23;
            String time = "[09/Jul/2012:18:" + String.format("%02d:%02d", (second / 60) % 60, second % 60) + " -0700]";
            String peer = "10.0." + c % 3 + "." + (1 + c) + ":" + (50000 + c);
            String key = "key" + (i % 541) + "z".repeat(i % 37);
            String cmd;
            if (i % 3001 == 23) {
                out.append(peer).append(" [no time] \"get ").append(key).append("\" 0 14\n");
                continue;
            } else if (i % 3001 == 29) {
                cmd = "frob " + key;
            } else if (i % 401 == 9) {
                cmd = i > lines / 2 && i % 3 == 0 ? "version" : "stats";
            } else {
                cmd = switch (i % 6) {
                    case 0, 1 -> "get " + key;
                    case 2 -> "get " + key + " " + key + "b";
                    case 3 -> "set " + key + " 0 " + (i % 3 * 100) + " " + i % 500;
                    case 4 -> "incr " + key + " " + i % 7;
                    default -> "delete " + key;
                };
            }
            out.append(peer).append(" - ").append(time).append(" \"").append(cmd).append("\" 0 ").append(10 + i % 90)
                    .append(i % 5 == 0 ? "\r\n" : "\n");
        }
        return write("klog-" + lines + ".log", out);
    }

    /** The lines of a log, compressed or not. */
    private static long lineCount(Path log) throws Exception {
        long n = 0;
        try (io.fluxperf.engine.log.LogInput in = io.fluxperf.engine.log.LogInput.open(log)) {
            byte[] b = in.stream().readAllBytes();
            for (byte x : b) {
                n += x == '\n' ? 1 : 0;
            }
            return b.length > 0 && b[b.length - 1] != '\n' ? n + 1 : n;
        }
    }

    /** {@code log} zstd-compressed, as Twitter publishes its traces. */
    private static Path zstd(Path log) throws Exception {
        Path z = log.resolveSibling(log.getFileName() + ".zst");
        try (java.io.OutputStream out = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(z))) {
            Files.copy(log, out);
        }
        return z;
    }

    private Path write(String name, CharSequence text) throws Exception {
        Path log = dir.resolve(name);
        Files.writeString(log, text, StandardCharsets.ISO_8859_1);
        return log;
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

    /** Everything a command was read as: {@link Read} and its sizes, expiry, number, sort key and whether it was dropped. */
    private record Whole(Read read, String command, long sortKey, int synthSize, int readSize, int ttl, long numeric,
                         boolean dropped) {
        static Whole of(LogEntry e, VerbTable verbs) {
            return new Whole(Read.of(e, verbs), String.valueOf(e.command), e.sortKey, e.synthSize, e.readSize, e.ttlSeconds,
                    e.numeric, e.dropped);
        }
    }

    /**
     * One pass as the replay's read-ahead takes it: each command stays in the window (so a later line
     * may drop it, as watch's store drops its own fetch), and everything each was read as.
     */
    private static List<Whole> wholePass(ReplayPlan plan, Path log, int threads, BadLines bad, LogStats stats)
            throws Exception {
        ReaderContext ctx = plan.context(bad, new VerbTable(plan.verbs), stats);
        List<LogEntry> read = new ArrayList<>();
        try (LogReader r = threads == 1 ? plan.open(ctx) : new SplitLogReader(log, plan.prepared, ctx, threads)) {
            LogEntry e = new LogEntry();
            while (r.next(e)) {
                e.inWindow = true;
                read.add(e);
                e = new LogEntry();
            }
            assertEquals(lineCount(log), r.lines(), threads + " threads: lines");
        }
        List<Whole> out = new ArrayList<>();
        for (LogEntry e : read) {
            out.add(Whole.of(e, ctx.verbs));
        }
        return out;
    }

    /**
     * The line formats other than MONITOR that split (cache traces, plain and zstd-compressed as
     * published, watch, klog) give in parts what one reader gives: every field of every command, in
     * the log's order, with their seconds spread as one reader spreads them and watch's internal
     * fetches dropped as one reader drops them; the same bad lines under the same numbers, the same
     * skipped lines; lines straddle the parts' ends.
     */
    @Test
    void traceWatchAndKlogPartsGiveWhatOneReaderGives() throws Exception {
        Path trace = cacheTrace(20_000);
        for (Path log : List.of(trace, zstd(trace), watchLog(12_000), klog(20_000))) {
            byte[] bytes;
            try (io.fluxperf.engine.log.LogInput in = io.fluxperf.engine.log.LogInput.open(log)) {
                bytes = in.stream().readAllBytes(); // a compressed log is cut after decompression
            }
            long size = bytes.length;
            assertTrue(size > 10L * SplitLogReader.PART_BYTES, log + " spans many parts: " + size);
            int straddling = 0;
            for (long at = SplitLogReader.PART_BYTES; at < size; at += SplitLogReader.PART_BYTES) {
                straddling += bytes[(int) at - 1] != '\n' ? 1 : 0;
            }
            assertTrue(straddling > 5, log + ": lines laid across the parts' nominal ends: " + straddling);
            ReplayPlan plan = ReplayPlan.make(ReplayOptions.builder(log).live(false).build());
            assertTrue(plan.prepared.splits(), plan.format + " splits");
            assertEquals(2, SplitLogReader.threadsFor(2, plan.prepared, log, 1), plan.format + " is read on the threads asked for");
            BadLines oneBad = new BadLines(false);
            LogStats oneStats = new LogStats();
            List<Whole> one = wholePass(plan, log, 1, oneBad, oneStats);
            assertTrue(oneBad.count() >= 5, plan.format + ": bad lines " + oneBad.first());
            assertTrue(one.stream().map(w -> w.read().time()).distinct().count() > one.size() / 2,
                    plan.format + ": commands spread within their seconds");
            for (int threads : new int[] {2, 3}) {
                BadLines bad = new BadLines(false);
                LogStats stats = new LogStats();
                List<Whole> split = wholePass(plan, log, threads, bad, stats);
                assertEquals(one.size(), split.size(), plan.format + ", " + threads + " threads: commands");
                for (int i = 0; i < one.size(); i++) {
                    assertEquals(one.get(i), split.get(i), plan.format + ", " + threads + " threads: command " + i);
                }
                assertEquals(oneBad.count(), bad.count(), plan.format + ": bad lines");
                assertEquals(oneBad.first(), bad.first(), plan.format + ": the first bad lines, named as one reader names them");
                assertEquals(new TreeMap<>(oneStats.skipped()), new TreeMap<>(stats.skipped()), plan.format + ": skipped lines");
                if (!plan.format.label().equals("memcache-watch")) {
                    // in the order one reader meets their reasons (watch drops its fetches in the
                    // log's order, after a part's other skips: the same counts, the order may differ)
                    assertEquals(List.copyOf(oneStats.skipped().keySet()), List.copyOf(stats.skipped().keySet()),
                            plan.format + ": reasons for skipping, in order");
                }
            }
            if (plan.format.label().equals("memcache-watch")) {
                assertTrue(one.stream().filter(Whole::dropped).count() > 1000, "the fetches inside stores are dropped");
            }
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
        return new Pass(reads, lines, bad.count(), bad.first(), stats.skipped());
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
            assertEquals(one.bad(), split.bad(), "the first bad lines, named as one reader names them");
            assertEquals(List.copyOf(one.skipped().entrySet()), List.copyOf(split.skipped().entrySet()),
                    "skipped lines, by reason in the order one reader meets them");
        }
        assertEquals(CLIENTS, byClient(one.reads()).size());
        assertEquals(5, one.badCount(), one.bad().toString());
        assertTrue(one.reads().stream().anyMatch(r -> r.args().length() > 3 * SplitLogReader.PART_BYTES),
                "a line longer than a part is read whole");
    }

    /**
     * The thread that takes the commands allocates nothing per command, also where it completes them
     * in the log's order (a cache trace's and a klog's spread seconds, watch's dropped fetches): a
     * pass (after the JIT's first passes, reusing the parts as a --loop does) allocates its reader,
     * its file's buffer, its threads and its format's step, a fixed amount whatever the log's length.
     */
    @Test
    void aPassAllocatesNothingPerCommand() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (Path log : List.of(monitorLog(25_000, false), cacheTrace(25_000), watchLog(15_000), klog(25_000))) {
            ReplayPlan plan = ReplayPlan.make(ReplayOptions.builder(log).live(false).build());
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
            assertTrue(commands > 15_000, plan.format + ": commands: " + commands);
            assertTrue(allocated < 256 << 10, plan.format + ": " + allocated + " bytes allocated in a pass of " + commands
                    + " commands");
        }
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

        Path trace = cacheTrace(30_000);
        ReplayPlan tracePlan = ReplayPlan.make(ReplayOptions.builder(trace).live(false).build());
        ReaderContext traceCtx = tracePlan.context(new BadLines(true), new VerbTable(tracePlan.verbs), new LogStats());
        UserError traceError = assertThrows(UserError.class, () -> {
            try (LogReader r = new SplitLogReader(trace, tracePlan.prepared, traceCtx, 3)) {
                while (r.next(e.reset())) {
                    // read on to the first bad line
                }
            }
        });
        assertTrue(traceError.getMessage().startsWith(trace + ":12: 6 fields"), traceError.getMessage());
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
