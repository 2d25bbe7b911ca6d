package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --warmup-hitrate} end to end against a real memcached: the line that ends the warm-up,
 * from the flag and from the file's {@code [general] warmup-hitrate}, and {@code --arrivals} echoed.
 */
@ExtendWith(RealServers.class)
class WarmupHitrateCommandTest {
    private static final Pattern COMPLETE =
            Pattern.compile("Warmup complete: hit rate (\\d+\\.\\d) % after (\\d+\\.\\d) s \\(target 90 %\\)");

    @RealServer
    private MemcachedProcess memcached;

    @TempDir
    Path dir;

    @Test
    void getsAndSetsReachTheTargetAndSaySoBeforeTheWindow() throws Exception {
        Path config = dir.resolve("run.toml");
        Files.writeString(config, """
                [general]
                threads = 1
                connections = 2
                duration = 1
                warmup = 20
                warmup-hitrate = 90
                arrivals = "exponential"

                [[workload]]
                method = "get"
                rate = 2000
                keyspace = 1000

                [[workload]]
                method = "set"
                rate = 2000
                keyspace = 1000
                """);
        Path json = dir.resolve("result.json");
        CliRun run = CliRun.of("run", "--config", config.toString(), "-s", memcached.address(), "--no-live",
                "--json", json.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String line = run.line("Warmup");
        Matcher m = COMPLETE.matcher(line);
        assertTrue(m.matches(), line);
        assertTrue(Double.parseDouble(m.group(1)) >= 90, line);
        assertTrue(Double.parseDouble(m.group(2)) < 20, "ended before its bound: " + line);
        assertTrue(run.line("Config: Windows:").endsWith("Arrivals: exponential"), run.line("Config: Windows:"));
        assertTrue(run.line("Config: Windows:").contains("Warmup: 20 s (ends early at a hit rate of 90 %)"),
                run.line("Config: Windows:"));
        assertTrue(run.out().indexOf(line) < run.out().indexOf("Window: 1"), run.out());
        JsonNode root = new ObjectMapper().readTree(Files.readString(json));
        assertTrue(root.get("warmup").get("reached").asBoolean(), root.get("warmup").toString());
        assertEquals("exponential", root.get("config").get("arrivals").asText());
        assertEquals(90.0, root.get("config").get("warmupHitratePercent").asDouble());
    }

    @Test
    void getsThatAlwaysMissEndAtTheBoundAndSaySo() {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--method", "get", "--flush", "--rate", "2000",
                "--keyspace", "1000", "-c", "2", "-d", "1", "--warmup", "2", "--warmup-hitrate", "90", "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals("Warmup ended at its bound of 2 s: hit rate 0.0 %, short of the 90 % target", run.line("Warmup"));
    }
}
