package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.trace.LatencyHistograms;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MONITOR log replayed by three agents at once ({@code --shard I/3 --out runs --run-id r}), each
 * writing {@code runs/r/shard-I} as {@code run}'s agents do, then {@code merge runs/r}: one replay
 * directory whose counts are the log's and redis' own, whose percentiles are those of one histogram
 * of the three traces, and which {@code report}, {@code compare}, {@code heatmap} and
 * {@code trace stats} read. The agents run in this JVM, started together by {@code --start-at}.
 */
@ExtendWith(RealServers.class)
@Tag("timing") // the agents' replays must overlap in time for merge to take them
class ShardedReplayMergeTest {
    private static final int SHARDS = 3;
    private static final int CLIENTS = 24;
    private static final int PER_CLIENT = 40;
    private static final int COMMANDS = CLIENTS * PER_CLIENT;
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path dir;
    private static Path runs;
    private static Path logFile;
    private static String server;
    /** The log's commands per verb, and redis' count of each once the agents were done. */
    private static final Map<String, Long> LOGGED = new HashMap<>();
    private static Map<String, Long> served;

    @BeforeAll
    static void agents(RedisProcess redis) throws IOException {
        // 24 clients, each setting, appending to and reading its own keys, a command every ms: about 1 s of log
        StringBuilder log = new StringBuilder("OK\n");
        LOGGED.clear();
        double time = 1796526000.0;
        for (int n = 0; n < PER_CLIENT; n++) {
            for (int c = 0; c < CLIENTS; c++) {
                String verb = switch (n % 3) {
                    case 0 -> "SET";
                    case 1 -> "APPEND";
                    default -> "GET";
                };
                String key = "c" + c + "#" + n;
                String args = verb.equals("GET") ? "\"" + key + "\"" : "\"" + key + "\" \"v" + n + "\"";
                log.append(String.format(Locale.ROOT, "%.6f [0 10.1.0.%d:%d] \"%s\" %s%n", time, c, 40000 + c, verb, args));
                time += 0.001;
                LOGGED.merge(verb.toLowerCase(Locale.ROOT), 1L, Long::sum);
            }
        }
        logFile = dir.resolve("monitor.log");
        Files.writeString(logFile, log, StandardCharsets.ISO_8859_1);
        // another log of the same commands (so the same config), half as long
        Path half = dir.resolve("half.log");
        String[] lines = log.toString().split("\n");
        Files.writeString(half, String.join("\n", java.util.Arrays.copyOf(lines, 1 + COMMANDS / 2)) + "\n",
                StandardCharsets.ISO_8859_1);
        runs = dir.resolve("runs");
        server = redis.address();
        String at = Instant.now().plusSeconds(4).toString();
        List<CompletableFuture<CliRun>> agents = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            String[] args = {"replay", "-s", server, "-l", logFile.toString(), "--shard", i + "/" + SHARDS,
                    "--start-at", at, "--out", runs.toString(), "--run-id", "r", "--trace", "--no-live"};
            agents.add(CompletableFuture.supplyAsync(() -> CliRun.of(args), Executors.newSingleThreadExecutor()));
        }
        String[] other = {"replay", "-s", server, "-l", half.toString(), "--shard", "1/" + SHARDS, "--start-at", at,
                "--out", runs.toString(), "--run-id", "other", "--no-live"};
        agents.add(CompletableFuture.supplyAsync(() -> CliRun.of(other), Executors.newSingleThreadExecutor()));
        for (CompletableFuture<CliRun> a : agents) {
            CliRun run = a.join();
            assertEquals(0, run.exitCode(), run.out() + run.err());
        }
        served = redis.commandstats();
    }

    /** What the half log's agent sent, which redis counted too. */
    private static long otherAgentSent() throws IOException {
        return JSON.readTree(runs.resolve("other/shard-1/result.json").toFile()).get("total").get("requests").asLong();
    }

    @Test
    void eachAgentWritesItsShardDirectoryAsRunDoes() throws IOException {
        String hash = null;
        for (int i = 0; i < SHARDS; i++) {
            JsonNode r = JSON.readTree(runs.resolve("r/shard-" + i + "/result.json").toFile());
            assertEquals("replay", r.get("command").asText());
            JsonNode shard = r.get("shard");
            assertEquals(i, shard.get("index").asInt());
            assertEquals(SHARDS, shard.get("count").asInt());
            assertEquals("r", shard.get("runId").asText());
            // redis has a clock (TIME): read when the agent started and when it wrote its result
            assertTrue(shard.get("serverClock").get("start").get("serverEpochMicros").asLong() > 0, shard.toString());
            assertTrue(shard.get("serverClock").get("end").get("serverEpochMicros").asLong() > 0, shard.toString());
            hash = hash == null ? r.get("configHash").asText() : hash;
            assertEquals(hash, r.get("configHash").asText(), "every agent's config hash is the same");
            assertTrue(Files.isDirectory(runs.resolve("r/shard-" + i + "/trace")), "--trace went into the agent's directory");
        }
    }

    @Test
    void theMergeCountsTheLogOnceAsRedisDidAndItsPercentilesAreTheTraces() throws Exception {
        CliRun merge = CliRun.of("merge", runs.resolve("r").toString());
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());
        assertTrue(merge.out().contains("Run r: 3 of 3 shards merged"), merge.out());
        assertTrue(merge.out().contains("Merged 3 shards into"), merge.out());
        Path merged = runs.resolve("r/merged");
        JsonNode m = JSON.readTree(merged.resolve("result.json").toFile());
        assertEquals("replay", m.get("command").asText());
        JsonNode total = m.get("total");
        assertEquals(COMMANDS, total.get("requests").asLong());
        assertEquals(COMMANDS, total.get("ok").asLong() + total.get("miss").asLong(), total.toString());
        // redis' own count of each command equals the log's, and the merge's per workload (one per verb)
        long sentByOther = 0;
        for (JsonNode w : total.get("workloads")) {
            String verb = w.get("name").asText();
            long other = JSON.readTree(runs.resolve("other/shard-1/result.json").toFile()).get("replay").get("commands")
                    .path(verb).asLong();
            sentByOther += other;
            assertEquals(LOGGED.get(verb) + other, served.get(verb), "cmdstat_" + verb + " of " + served
                    + ", less the other log's agent's " + other);
            assertEquals(LOGGED.get(verb), w.get("requests").asLong(), "workload " + verb);
        }
        assertEquals(otherAgentSent(), sentByOther);

        // the fidelity: the log's figures once, what the agents sent added up, the worst lag the worst of any
        JsonNode replay = m.get("replay");
        assertEquals(COMMANDS, replay.get("lines").get("replayed").asLong());
        assertEquals(COMMANDS, replay.get("lines").get("commands").asLong());
        assertEquals(COMMANDS + 1, replay.get("lines").get("read").asLong());
        for (Map.Entry<String, Long> e : LOGGED.entrySet()) {
            assertEquals(e.getValue(), replay.get("commands").get(e.getKey()).asLong(), e.getKey());
        }
        long late = 0;
        long paced = 0;
        long worst = 0;
        long firstStart = Long.MAX_VALUE;
        long lastEnd = Long.MIN_VALUE;
        for (int i = 0; i < SHARDS; i++) {
            JsonNode r = JSON.readTree(runs.resolve("r/shard-" + i + "/result.json").toFile());
            late += r.get("replay").get("lateSends").asLong();
            paced += r.get("replay").get("pacedSends").asLong();
            if (r.get("replay").get("largestLag").isObject()) {
                worst = Math.max(worst, r.get("replay").get("largestLag").get("nanos").asLong());
            }
            firstStart = Math.min(firstStart, r.get("startEpochMs").asLong());
            lastEnd = Math.max(lastEnd, r.get("endEpochMs").asLong());
        }
        assertEquals(late, replay.get("lateSends").asLong());
        assertEquals(paced, replay.get("pacedSends").asLong());
        assertEquals(COMMANDS, paced, "every replayed command had its time in the log");
        assertEquals(worst, replay.get("largestLag").isObject() ? replay.get("largestLag").get("nanos").asLong() : 0);
        // (result.json keeps whole milliseconds: a bound made of ns rounds by up to one)
        assertEquals(firstStart, m.get("startEpochMs").asLong(), 1);
        assertEquals(lastEnd, m.get("endEpochMs").asLong(), 1);
        assertEquals((lastEnd - firstStart) / 1e3, replay.get("replaySeconds").asDouble(), 0.003,
                "the replay's duration is the agents' span");

        // merged percentiles are those of one histogram of every request the three traces hold
        Histogram fromTraces = LatencyHistograms.create();
        long firstWall = Long.MAX_VALUE;
        long lastWall = Long.MIN_VALUE;
        for (int i = 0; i < SHARDS; i++) {
            try (TraceReader reader = TraceReader.open(runs.resolve("r/shard-" + i + "/trace"))) {
                long origin = reader.header().clockOriginEpochNanos();
                TraceRecord rec = new TraceRecord();
                while (reader.next(rec)) {
                    if (!rec.warmup()) {
                        LatencyHistograms.record(fromTraces, rec.intendedLatencyNanos());
                        firstWall = Math.min(firstWall, origin + rec.intendedSendNanos());
                        lastWall = Math.max(lastWall, origin + rec.completionNanos());
                    }
                }
            }
        }
        JsonNode latency = total.get("latency");
        assertEquals(COMMANDS, fromTraces.getTotalCount());
        assertEquals(fromTraces.getTotalCount(), latency.get("count").asLong());
        assertEquals(fromTraces.getValueAtPercentile(50), latency.get("p50").asLong());
        assertEquals(fromTraces.getValueAtPercentile(90), latency.get("p90").asLong());
        assertEquals(fromTraces.getValueAtPercentile(99), latency.get("p99").asLong());
        assertEquals(fromTraces.getValueAtPercentile(99.9), latency.get("p999").asLong());
        assertEquals(fromTraces.getMaxValue(), latency.get("max").asLong());

        // the merged trace: every record once, each at its own wall-clock time
        try (TraceReader reader = TraceReader.open(merged.resolve("trace"))) {
            long origin = reader.header().clockOriginEpochNanos();
            TraceRecord rec = new TraceRecord();
            long records = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            while (reader.next(rec)) {
                records++;
                first = Math.min(first, origin + rec.intendedSendNanos());
                last = Math.max(last, origin + rec.completionNanos());
            }
            assertEquals(COMMANDS, records);
            assertEquals(firstWall, first, "the earliest send, on the wall clock");
            assertEquals(lastWall, last, "the latest completion, on the wall clock");
        }

        // one report: the replay's, with its fidelity block of the merge
        CliRun report = CliRun.of("report", merged.toString());
        assertEquals(0, report.exitCode(), report.out() + report.err());
        assertEquals(Files.readString(merged.resolve("report.txt")), report.out());
        assertTrue(report.out().startsWith("-----\nConfig:\n"), report.out());
        assertTrue(report.out().contains("Replay: Log: " + logFile + " Format: redis-monitor"), report.out());
        assertTrue(report.out().contains("\nTotal:\nRequests: " + COMMANDS + " "), report.out());
        assertTrue(report.out().contains("Trace: " + COMMANDS + " records in "), report.out());
        assertTrue(report.out().contains("\nFidelity:\n"), report.out());
        assertTrue(report.out().contains(" cores (the 3 merged runs' processes)"), report.out());
        assertTrue(report.out().contains("Lines: read " + (COMMANDS + 1) + " commands " + COMMANDS + " replayed "
                + COMMANDS + " skipped 0"), report.out());
        assertTrue(report.out().contains("Late sends: " + late + " of " + COMMANDS + " commands"), report.out());

        // and the other views read it
        CliRun stats = CliRun.of("trace", "stats", merged.resolve("trace").toString());
        assertEquals(0, stats.exitCode(), stats.out() + stats.err());
        assertTrue(stats.out().contains("Requests: " + COMMANDS + " "), stats.out());
        Path png = dir.resolve("merged.png");
        CliRun heatmap = CliRun.of("heatmap", merged.resolve("trace").toString(), "--out", png.toString());
        assertEquals(0, heatmap.exitCode(), heatmap.out() + heatmap.err());
        assertTrue(Files.size(png) > 0);
        CliRun compare = CliRun.of("compare", merged.toString(), runs.resolve("r/shard-0").toString());
        assertEquals(0, compare.exitCode(), compare.out() + compare.err());
    }

    @Test
    void replayDirectoriesMergeAsGivenToo() throws IOException {
        Path all = dir.resolve("all");
        CliRun merge = CliRun.of("merge", runs.resolve("r/shard-0").toString(), runs.resolve("r/shard-1").toString(),
                runs.resolve("r/shard-2").toString(), "--out", all.toString());
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());
        assertTrue(merge.out().contains("Merged 3 replays into"), merge.out());
        JsonNode m = JSON.readTree(all.resolve("result.json").toFile());
        assertEquals(COMMANDS, m.get("total").get("requests").asLong());
        assertEquals(COMMANDS, m.get("replay").get("lines").get("replayed").asLong());
        CliRun report = CliRun.of("report", all.toString());
        assertEquals(0, report.exitCode(), report.out() + report.err());
        assertTrue(report.out().contains("\nFidelity:\n"), report.out());
    }

    @Test
    void aReplayOfAnotherLogIsRefused() {
        Path mine = runs.resolve("r/shard-0");
        Path other = runs.resolve("other/shard-1");
        CliRun refused = CliRun.of("merge", mine.toString(), other.toString(), "--out", dir.resolve("two-logs").toString());
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertEquals("fluxperf: merge: " + other + " replayed another log or at another pace than " + mine
                + " (lines read " + (COMMANDS / 2 + 1) + ", not " + (COMMANDS + 1) + "); merge the agents of one replay",
                refused.err().strip());
    }

    @Test
    void aMissingShardIsRefusedAndPartialNamesIt() throws IOException {
        Path holes = dir.resolve("holes");
        for (int i : new int[] {0, 2}) {
            copyTree(runs.resolve("r/shard-" + i), holes.resolve("shard-" + i));
        }
        CliRun refused = CliRun.of("merge", holes.toString());
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertEquals("fluxperf: merge: " + holes + " is missing shard 1 of 3; merge the others with --partial",
                refused.err().strip());

        CliRun partial = CliRun.of("merge", holes.toString(), "--partial");
        assertEquals(0, partial.exitCode(), partial.out() + partial.err());
        assertTrue(partial.out().contains("Run r: 2 of 3 shards merged; missing: shard 1"), partial.out());
        assertTrue(partial.err().contains("is missing shard-1; the merged figures are of 2 of 3 shards"), partial.err());
        JsonNode merged = JSON.readTree(holes.resolve("merged/result.json").toFile());
        assertEquals("[1]", merged.get("shards").get("missing").toString());
        long sum = 0;
        for (int i : new int[] {0, 2}) {
            sum += JSON.readTree(holes.resolve("shard-" + i + "/result.json").toFile()).get("total").get("requests").asLong();
        }
        assertEquals(sum, merged.get("total").get("requests").asLong());
        assertEquals(sum, merged.get("replay").get("lines").get("replayed").asLong());
    }

    @Test
    void aRunAndAReplayAreNotMergedTogether() {
        Path run = dir.resolve("a-run");
        CliRun made = CliRun.of("run", "--protocol", "redis", "-s", server, "--method", "get", "--requests", "50",
                "-d", "5", "--out", run.toString(), "--no-live");
        assertEquals(0, made.exitCode(), made.out() + made.err());
        Path replay = runs.resolve("r/shard-0");
        CliRun refused = CliRun.of("merge", replay.toString(), run.toString(), "--out", dir.resolve("mixed").toString());
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertEquals("fluxperf: merge: " + run + " was written by 'run' and " + replay + " by 'replay'; merge runs with"
                + " runs and replays with replays", refused.err().strip());
    }

    @Test
    void runIdWithoutAShardIsRefused() {
        CliRun refused = CliRun.of("replay", "-s", server, "-l", logFile.toString(), "--run-id", "r", "--out",
                dir.resolve("x").toString(), "--no-live");
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertEquals("fluxperf: --run-id names a sharded run's directory; give --shard I/N (or JOB_COMPLETION_INDEX) too",
                refused.err().strip());
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }
}
