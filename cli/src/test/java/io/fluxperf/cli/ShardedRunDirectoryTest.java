package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Each agent's run directory in OUT/RUN_ID/shard-I, and what its result.json says about the shard. */
@ExtendWith(RealServers.class)
class ShardedRunDirectoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void agentsWriteTheirDirectoriesUnderOneRunWithShardAndServerClock(RedisProcess redis, @TempDir Path out) throws Exception {
        for (int i = 0; i < 2; i++) {
            CliRun run = CliRun.of("run", "--protocol", "redis", "-s", redis.address(), "--method", "set", "--rate", "2000",
                    "-d", "1", "--shard", i + "/2", "--out", out.toString(), "--run-id", "nightly-7", "--no-live");
            assertEquals(0, run.exitCode(), run.out() + run.err());
        }
        String hash = null;
        for (int i = 0; i < 2; i++) {
            JsonNode r = JSON.readTree(out.resolve("nightly-7/shard-" + i + "/result.json").toFile());
            JsonNode shard = r.get("shard");
            assertEquals(i, shard.get("index").asInt());
            assertEquals(2, shard.get("count").asInt());
            assertEquals("nightly-7", shard.get("runId").asText());
            assertTrue(shard.get("startAt").isNull());
            JsonNode clock = shard.get("serverClock");
            for (String when : new String[] {"start", "end"}) {
                JsonNode reading = clock.get(when);
                long offset = reading.get("serverEpochMicros").asLong() - reading.get("localEpochMicros").asLong();
                assertTrue(Math.abs(offset) < reading.get("roundTripMicros").asLong() / 2 + 2_000, clock.toString());
            }
            assertEquals(1000.0, r.get("config").get("workloads").get(0).get("rate").asDouble(), "half the rate each");
            assertEquals(1000, r.get("total").get("requests").asLong(), 10);
            hash = hash == null ? r.get("configHash").asText() : hash;
            assertEquals(hash, r.get("configHash").asText(), "the agents share one config");
        }
    }

    @Test
    void theDefaultRunIdIsMadeOfTheStartAndTheConfigHash(RedisProcess redis, @TempDir Path out) throws Exception {
        Instant at = Instant.now().minus(1, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS);
        CliRun run = CliRun.of("run", "--protocol", "redis", "-s", redis.address(), "--method", "get", "--rate", "500",
                "-d", "1", "--shard", "1/3", "--start-at", at.toString(), "--out", out.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("fluxperf: late: the load was ready"), run.err());
        Path runDir;
        try (var dirs = Files.list(out)) {
            runDir = dirs.findFirst().orElseThrow();
        }
        JsonNode r = JSON.readTree(runDir.resolve("shard-1/result.json").toFile());
        String hash = r.get("configHash").asText().substring("sha256:".length(), "sha256:".length() + 8);
        String stamp = java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(at);
        assertEquals("run-" + stamp + "-" + hash, runDir.getFileName().toString());
        assertEquals(at.toString(), r.get("shard").get("startAt").asText());
    }

    @Test
    void aRunIdNeedsAShardAndADirectoryName() {
        CliRun alone = CliRun.of("run", "--run-id", "x");
        assertEquals(2, alone.exitCode());
        assertEquals("fluxperf: --run-id names a sharded run's directory; give --shard I/N (or JOB_COMPLETION_INDEX) too",
                alone.err().strip());
        CliRun bad = CliRun.of("run", "--shard", "0/2", "--run-id", "../up", "--out", "x");
        assertEquals(2, bad.exitCode());
        assertEquals("fluxperf: --run-id: '../up' is not a directory name: use letters, digits, '.', '_' and '-',"
                + " at most 100, starting with a letter or digit", bad.err().strip());
    }
}
