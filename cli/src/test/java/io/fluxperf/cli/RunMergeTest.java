package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.LatencyHistograms;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code merge}: four runs made together against one memcached add up exactly, to what memcached itself counted. */
@ExtendWith(RealServers.class)
@Tag("timing")
class RunMergeTest {
    static final String CONFIG = """
            [general]
            duration = "1s"
            windows = 2
            connections = 2
            seed = 11

            [[workload]]
            name = "set"
            method = "set"
            rate = 600
            keyspace = 2000

            [[workload]]
            name = "get"
            method = "get"
            rate = 600
            keyspace = 4000
            """;

    @TempDir
    Path tmp;

    @Test
    void fourRunsStartedTogetherMergeExactly(MemcachedProcess memcached) throws Exception {
        Path config = tmp.resolve("load.toml");
        Files.writeString(config, CONFIG);
        Map<String, Long> before = memcached.stats();
        List<Path> dirs = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<CliRun>> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Path dir = tmp.resolve("host" + i);
            dirs.add(dir);
            runs.add(pool.submit(() -> {
                go.await();
                return CliRun.of("run", "--config", config.toString(), "-s", memcached.address(), "--out", dir.toString(),
                        "--trace", "--no-live");
            }));
        }
        go.countDown();
        for (int i = 0; i < runs.size(); i++) {
            CliRun run = runs.get(i).get(60, TimeUnit.SECONDS);
            assertEquals(0, run.exitCode(), run.out() + run.err());
            // against a real memcached too, the report made from the directory is the printed one
            assertEquals(run.out(), CliRun.of("report", dirs.get(i).toString()).out());
        }
        pool.shutdown();
        Map<String, Long> after = memcached.stats();
        long served = after.get("cmd_get") - before.get("cmd_get") + after.get("cmd_set") - before.get("cmd_set");

        Path all = tmp.resolve("all");
        List<String> args = new ArrayList<>(List.of("merge"));
        dirs.forEach(d -> args.add(d.toString()));
        args.addAll(List.of("--out", all.toString()));
        CliRun merge = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());

        ObjectMapper json = new ObjectMapper();
        JsonNode merged = json.readTree(all.resolve("result.json").toFile());
        long sum = 0;
        long[] perWorkload = new long[2];
        java.util.Set<String> inputFlags = new java.util.TreeSet<>();
        for (Path d : dirs) {
            JsonNode r = json.readTree(d.resolve("result.json").toFile());
            r.path("trust").path("flags").forEach(f -> inputFlags.add(f.asText()));
            sum += r.path("total").path("requests").asLong();
            for (int w = 0; w < 2; w++) {
                perWorkload[w] += r.path("total").path("workloads").get(w).path("requests").asLong();
            }
        }
        long requests = merged.path("total").path("requests").asLong();
        assertTrue(requests > 1_000, "up to 4 x 2 s x 1200/s: " + requests);
        assertEquals(sum, requests, "the merged count is the sum of the runs'");
        assertEquals(served, requests, "and what memcached served, by its own stats");
        for (int w = 0; w < 2; w++) {
            assertEquals(perWorkload[w], merged.path("total").path("workloads").get(w).path("requests").asLong());
        }
        long windowSum = 0;
        for (JsonNode w : merged.path("windows")) {
            windowSum += w.path("requests").asLong();
        }
        assertEquals(requests, windowSum);
        assertEquals(4, merged.path("mergedFrom").size());
        // the merge trusts its figures no more than its least trusted input: every input's flags are its own
        JsonNode trust = merged.path("trust");
        java.util.Set<String> mergedFlags = new java.util.TreeSet<>();
        trust.path("flags").forEach(f -> mergedFlags.add(f.asText()));
        assertEquals(inputFlags, mergedFlags, trust.toString());
        assertTrue(trust.path("merged").asBoolean(), trust.toString());
        assertEquals(inputFlags.isEmpty(), "good".equals(trust.path("verdict").asText()), trust.toString());

        // the merged percentiles are those of one histogram of every request in the four traces
        Histogram fromTraces = LatencyHistograms.create();
        long records = 0;
        for (Path d : dirs) {
            try (TraceReader reader = TraceReader.open(d.resolve("trace"))) {
                TraceRecord r = new TraceRecord();
                while (reader.next(r)) {
                    if (!r.warmup()) {
                        LatencyHistograms.record(fromTraces, r.intendedLatencyNanos());
                        records++;
                    }
                }
            }
        }
        assertEquals(requests, records);
        assertEquals(json.valueToTree(LatencySummary.of(fromTraces)).toString(), merged.path("total").path("latency").toString());

        // the merged directory reads like any other
        CliRun report = CliRun.of("report", all.toString());
        assertEquals(0, report.exitCode(), report.err());
        assertEquals(Files.readString(all.resolve("report.txt"), StandardCharsets.UTF_8), report.out());
        assertTrue(report.out().contains("Requests: " + requests + " "), report.out());
        assertTrue(report.out().strip().endsWith("Trust: " + trust.path("verdict").asText()), report.out());
        // the CPU added up is every agent's, and says so
        assertTrue(report.out().contains(" cores (the 4 merged runs' processes)"), report.out());
        assertFalse(report.out().contains("(this process"), report.out());
        assertEquals(Files.readString(all.resolve("result.json")), CliRun.of("report", all.toString(), "--json").out());
        Map<String, Long> counts = RunDirectoryTest.tagCounts(all.resolve("windows.hlog").toFile());
        assertEquals(requests, counts.get(""));
        assertEquals(requests, RunDirectoryTest.tagCounts(all.resolve("seconds.hlog").toFile()).get(""));
        CliRun stats = CliRun.of("trace", "stats", all.resolve("trace").toString());
        assertEquals(0, stats.exitCode(), stats.err());
        assertTrue(stats.out().contains(Long.toString(records)), stats.out());
        CliRun heatmap = CliRun.of("heatmap", all.resolve("trace").toString(), "--out", tmp.resolve("h.png").toString());
        assertEquals(0, heatmap.exitCode(), heatmap.out() + heatmap.err());
        assertTrue(Files.size(tmp.resolve("h.png")) > 0);

        // a run of another config, and one made later, are refused by name
        Path other = tmp.resolve("other");
        assertEquals(0, CliRun.of("run", "--config", config.toString(), "-s", memcached.address(), "--seed", "12",
                "--out", other.toString(), "--no-live").exitCode());
        CliRun differs = CliRun.of("merge", dirs.get(0).toString(), other.toString(), "--out", tmp.resolve("x").toString());
        assertEquals(2, differs.exitCode());
        RunDirectoryTest.assertOneSentence(differs.err(), other.toString());
        Path later = tmp.resolve("later");
        assertEquals(0, CliRun.of("run", "--config", config.toString(), "-s", memcached.address(),
                "--out", later.toString(), "--no-live").exitCode());
        CliRun apart = CliRun.of("merge", dirs.get(0).toString(), later.toString(), "--out", tmp.resolve("y").toString());
        assertEquals(2, apart.exitCode());
        RunDirectoryTest.assertOneSentence(apart.err(), later.toString());
        assertTrue(apart.err().contains("do not overlap"), apart.err());
    }
}
