package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.shard.Shard;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.LatencyHistograms;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four agents as four processes on this machine, as the pods of an Indexed Job run them
 * ({@code JOB_COMPLETION_INDEX} 0..3, {@code FLUXPERF_SHARDS=4}, one {@code --start-at}), against
 * one real memcached with rpc-perf's default mix: what they send together is what one machine
 * would have sent, and memcached's own counters agree.
 */
@ExtendWith(RealServers.class)
class ShardedRunTest {
    static final int SHARDS = 4;
    /** rpc-perf's default mix (samples/default.toml) at a fifth of its rates: four JVMs share two cores with other work. */
    static final double SET_RATE = 2_000;
    static final double GET_RATE = 10_000;
    static final long KEYS = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** samples/default.toml with its rates scaled down and nothing else changed. */
    static Path defaultMix(Path dir) throws IOException {
        String toml = Files.readString(Path.of("../samples/default.toml"))
                .replace("rate = 10000", "rate = " + (long) SET_RATE)
                .replace("rate = 50000", "rate = " + (long) GET_RATE);
        assertTrue(toml.contains("rate = 2000") && toml.contains("rate = 10000") && toml.contains("hit = true"), toml);
        Path file = dir.resolve("default-mix.toml");
        Files.writeString(file, toml);
        return file;
    }

    /** One agent as a pod runs it: its index and the count in the environment, fluxperf as a child JVM. */
    static Process agent(int index, Path log, Map<String, String> env, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put(Shard.INDEX_ENV, Integer.toString(index));
        pb.environment().putAll(env);
        return pb.start();
    }

    static void awaitAll(List<Process> agents, Path dir) throws Exception {
        for (int i = 0; i < agents.size(); i++) {
            Process p = agents.get(i);
            boolean done = p.waitFor(90, TimeUnit.SECONDS);
            if (!done) {
                agents.forEach(Process::destroyForcibly);
            }
            assertTrue(done, "agent " + i + " did not finish");
            assertEquals(0, p.exitValue(), "agent " + i + ":\n" + Files.readString(dir.resolve("agent-" + i + ".log")));
        }
    }

    @Test
    void badShardValuesAreOneSentenceAndExitTwo() {
        assertBad("fluxperf: --shard: the index must be between 0 and 3 for 4 shards, not 4", "run", "--shard", "4/4");
        assertBad("fluxperf: --start-at: expected an RFC 3339 time such as 2026-12-06T03:00:00Z or epoch seconds, not 'noon'",
                "replay", "-l", "x.log", "--start-at", "noon");
        assertBad("fluxperf: --run-id names a sharded run's directory; give --shard I/N (or JOB_COMPLETION_INDEX) too",
                "replay", "-l", "x.log", "--run-id", "r");
        Map<String, String> saved = ShardFlags.environment;
        try {
            ShardFlags.environment = Map.of(Shard.INDEX_ENV, "5", Shard.COUNT_ENV, "4");
            assertBad("fluxperf: JOB_COMPLETION_INDEX: the shard index must be between 0 and 3 for 4 shards, not 5",
                    "run", "--method", "get", "--rate", "100");
            ShardFlags.environment = Map.of(Shard.INDEX_ENV, "1");
            assertBad("fluxperf: JOB_COMPLETION_INDEX is set (1) but the shard count is not: give --shards N or set"
                    + " FLUXPERF_SHARDS", "run");
        } finally {
            ShardFlags.environment = saved;
        }
    }

    private static void assertBad(String message, String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals(message, run.err().strip());
    }

    @Tag("timing")
    @Test
    void fourAgentsTogetherSendTheMixOnceAndMemcachedCountsIt(MemcachedProcess memcached, @TempDir Path dir) throws Exception {
        Path config = defaultMix(dir);
        // ahead by what four JVMs on two busy cores take to start, warm up, connect and preload (5–15 s)
        long startAt = Instant.now().plusSeconds(12).getEpochSecond();
        List<Process> agents = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            agents.add(agent(i, dir.resolve("agent-" + i + ".log"), Map.of(Shard.COUNT_ENV, Integer.toString(SHARDS)),
                    "run", "--config", config.toString(), "-s", memcached.address(), "-d", "3", "--no-live",
                    "--start-at", Long.toString(startAt),
                    "--out", dir.resolve("runs").toString(), "--run-id", "mix", "--trace"));
        }
        awaitAll(agents, dir);

        boolean[] late = new boolean[SHARDS];
        for (int i = 0; i < SHARDS; i++) {
            // on a busy machine an agent may be ready after the start: it then sends its backlog at once
            late[i] = Files.readString(dir.resolve("agent-" + i + ".log")).contains("fluxperf: late:");
        }
        long[] requests = new long[2];
        long preloaded = 0;
        StringBuilder figures = new StringBuilder();
        for (int i = 0; i < SHARDS; i++) {
            JsonNode r = JSON.readTree(dir.resolve("runs/mix/shard-" + i + "/result.json").toFile());
            figures.append("agent ").append(i).append(": ").append(r.get("total").get("seconds")).append(" s, ")
                    .append(r.get("total").get("workloads")).append(", send lag ").append(r.get("total").get("sendLag")).append('\n');
            preloaded += r.get("preloadedKeys").asLong();
            JsonNode total = r.get("total");
            assertEquals(0, total.get("error").asLong() + total.get("timeout").asLong() + total.get("closed").asLong(),
                    "agent " + i + ": " + total);
            for (JsonNode w : total.get("workloads")) {
                int k = w.get("index").asInt();
                assertEquals(k == 0 ? SET_RATE / SHARDS : GET_RATE / SHARDS, w.get("targetRate").asDouble(), 1e-9);
                requests[k] += w.get("requests").asLong();
                // each agent sends its share of the rate over the schedule's 3 s, within 1 %
                double share = k == 0 ? SET_RATE / SHARDS : GET_RATE / SHARDS;
                assertEquals(share * 3, w.get("requests").asDouble(), share * 3 * 0.01, "agent " + i + ":\n" + figures);
            }
            if (!late[i]) {
                // its window is the schedule's 3 s, give or take the last replies on a loaded machine, which the rate
                // over the window would count against the agent
                assertEquals(3.0, total.get("seconds").asDouble(), 0.15, "agent " + i + ":\n" + figures);
            }
        }
        // the agents together: each workload's rate within 1 % of its target, and memcached counted every request
        // together, over the schedule's 3 s: each workload's rate within 1 % of its target
        assertEquals(SET_RATE, requests[0] / 3.0, SET_RATE * 0.01, "set, all agents:\n" + figures);
        assertEquals(GET_RATE, requests[1] / 3.0, GET_RATE * 0.01, "get, all agents:\n" + figures);
        Map<String, Long> stats = memcached.stats();
        assertEquals(KEYS, preloaded, "the preload slices add up to the key space");
        assertEquals(requests[0] + KEYS, stats.get("cmd_set"), "sets: the load's and the preload's");
        assertEquals(requests[1], stats.get("cmd_get"));
        if (!late[0] && !late[1] && !late[2] && !late[3]) {
            // every slice was preloaded before the start: the gets of every agent hit
            assertEquals(requests[1], stats.get("get_hits"), "every get hit a preloaded key");
        }
        // the union of the slices is the key space, as memcached holds it
        Set<String> held = new HashSet<>(memcached.keys());
        assertEquals(KEYS, held.size());

        // each agent's writes stayed in its slice (keys i, i + 4, …): no key is in two agents' write slices
        Set<Long> written = new HashSet<>();
        Histogram fromTraces = LatencyHistograms.create();
        for (int i = 0; i < SHARDS; i++) {
            try (TraceReader reader = TraceReader.open(dir.resolve("runs/mix/shard-" + i + "/trace"))) {
                TraceRecord rec = new TraceRecord();
                while (reader.next(rec)) {
                    if (!rec.warmup()) {
                        LatencyHistograms.record(fromTraces, rec.intendedLatencyNanos());
                    }
                    if (rec.workload() == 0 && !rec.warmup()) {
                        long key = Long.parseLong(rec.keyText());
                        assertEquals(i, key % SHARDS, "agent " + i + " wrote key " + key);
                        written.add(key);
                    }
                }
            }
        }
        assertTrue(written.size() > requests[0] * 0.5, written.size() + " distinct keys of " + requests[0] + " sets");

        // merge OUT/RUN_ID: one run directory whose counts are the shards' sums and memcached's own
        CliRun merge = CliRun.of("merge", dir.resolve("runs/mix").toString());
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());
        assertTrue(merge.out().contains("Run mix: 4 of 4 shards merged"), merge.out());
        JsonNode merged = JSON.readTree(dir.resolve("runs/mix/merged/result.json").toFile());
        JsonNode total = merged.get("total");
        assertEquals(requests[0] + requests[1], total.get("requests").asLong());
        assertEquals(stats.get("cmd_get") + stats.get("cmd_set") - KEYS, total.get("requests").asLong(),
                "the merge counts what memcached counted (less the preload)");
        for (JsonNode w : total.get("workloads")) {
            assertEquals(requests[w.get("index").asInt()], w.get("requests").asLong(), w.toString());
        }
        assertEquals(KEYS, merged.get("preloadedKeys").asLong());
        assertEquals(List.of(), JSON.convertValue(merged.get("shards").get("missing"), List.class));
        // merged percentiles are those of one histogram of every request the four traces hold
        assertEquals(fromTraces.getTotalCount(), total.get("latency").get("count").asLong());
        assertEquals(fromTraces.getValueAtPercentile(50), total.get("latency").get("p50").asLong());
        assertEquals(fromTraces.getValueAtPercentile(90), total.get("latency").get("p90").asLong());
        assertEquals(fromTraces.getValueAtPercentile(99), total.get("latency").get("p99").asLong());
        assertEquals(fromTraces.getValueAtPercentile(99.9), total.get("latency").get("p999").asLong());
        assertEquals(fromTraces.getValueAtPercentile(99.99), total.get("latency").get("p9999").asLong());
        assertEquals(fromTraces.getMaxValue(), total.get("latency").get("max").asLong());
    }
}
