package io.fluxperf.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.CacheTraceFile;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code fluxperf profile}: its text and JSON, and the workload {@code --config-out} fits to a
 * Twitter-format trace, run against memcached: the run keeps the trace's verb shares (within two
 * points, by memcached's own counters and by the run's trace), its TTL mix (memcached's items'
 * expiry times), and the profile of the run's own trace gives back the trace's Zipf alpha (within 0.1).
 */
@ExtendWith(RealServers.class)
class ProfileCommandTest {
    @TempDir
    Path dir;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theConfigOutWorkloadRunsWithTheTracesVerbMixTtlsAndAlpha(MemcachedProcess memcached) throws Exception {
        CacheTraceFile trace = CacheTraceFile.builder().seed(5).seconds(4, 1500).keys(400, 1.0).clients(5)
                .ops("get", 70, "set", 20, "delete", 6, "incr", 4)
                .valueSizes(new int[] {64, 512}, new int[] {3, 1})
                .ttls(new int[] {60, 3600}, new int[] {3, 1}).make();
        Path log = trace.writeZstd(dir.resolve("cluster1.0.zst"));
        Path json = dir.resolve("profile.json");
        Path toml = dir.resolve("fitted.toml");
        CliRun profile = CliRun.of("profile", log.toString(), "--json", json.toString(), "--config-out", toml.toString());
        assertEquals(0, profile.exitCode(), profile.out() + profile.err());
        assertTrue(profile.line("Profile: ").contains("(twitter-cache-trace, zstd; protocol memcache)"), profile.out());
        JsonNode p = JSON.readTree(json.toFile());
        double alpha = p.get("zipfAlpha").asDouble();
        String config = Files.readString(toml);
        assertTrue(config.contains("exponent = "), config);
        assertTrue(config.contains("ttl = [{ seconds = 60, weight = "), config);
        assertTrue(config.contains("connections = 5 "), config);

        Path runTrace = dir.resolve("run-trace");
        CliRun run = CliRun.of("run", "--config", toml.toString(), "-s", memcached.address(), "--trace",
                runTrace.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());

        Map<String, Double> traced = new TreeMap<>();
        p.get("operations").fields().forEachRemaining(e -> traced.put(e.getKey(), e.getValue().asDouble()));
        Map<String, Long> stats = memcached.stats();
        double total = stats.get("cmd_get") + stats.get("cmd_set") + stats.get("delete_hits") + stats.get("delete_misses")
                + stats.get("incr_hits") + stats.get("incr_misses");
        assertEquals(traced.get("get"), stats.get("cmd_get") / total, 0.02, "get share by memcached: " + stats);
        assertEquals(traced.get("set"), stats.get("cmd_set") / total, 0.02, "set share by memcached");
        assertEquals(traced.get("delete"), (stats.get("delete_hits") + stats.get("delete_misses")) / total, 0.02);

        Path again = dir.resolve("again.json");
        CliRun reprofile = CliRun.of("profile", runTrace.toString(), "--json", again.toString());
        assertEquals(0, reprofile.exitCode(), reprofile.out() + reprofile.err());
        JsonNode r = JSON.readTree(again.toFile());
        assertEquals("trace", r.get("format").asText());
        for (String verb : List.of("get", "set", "delete", "incr")) {
            assertEquals(traced.get(verb), r.get("operations").get(verb).asDouble(), 0.02, verb + " share in the run's trace");
        }
        assertEquals(alpha, r.get("zipfAlpha").asDouble(), 0.1, "alpha of the run's own trace\n" + reprofile.out());

        // memcached's items carry the trace's ttls, three of 60 s for one of 3600 s
        long now = stats.get("time");
        int[] ttls = new int[2];
        for (String line : memcached.command("lru_crawler metadump all")) {
            int at = line.indexOf(" exp=");
            if (at > 0) {
                long exp = Long.parseLong(line.substring(at + 5, line.indexOf(' ', at + 5)));
                ttls[exp - now > 600 ? 1 : 0]++;
            }
        }
        assertTrue(ttls[1] > 0 && ttls[0] > ttls[1], "items of 60 s and of 3600 s: " + ttls[0] + " and " + ttls[1]);
    }
}
