package io.fluxperf.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every sample log under samples/logs replays cleanly against a real server of its protocol. */
@ExtendWith(RealServers.class)
class SampleLogsTest {
    static Path logsDir() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("samples/logs"))) {
                return p.resolve("samples/logs");
            }
        }
        throw new IllegalStateException("no samples/logs above " + Path.of("").toAbsolutePath());
    }

    static Stream<Path> logs() throws IOException {
        try (Stream<Path> files = Files.list(logsDir())) {
            return files.filter(p -> !p.toString().endsWith(".times.csv")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("logs")
    void replaysCleanly(Path log) {
        LogFormat format = FormatDetector.detect(log);
        try (AutoCloseable server = LogFormats.protocolOf(format).name().equals("redis") ? RedisProcess.start() : MemcachedProcess.start()) {
            String address = server instanceof RedisProcess r ? r.address() : ((MemcachedProcess) server).address();
            Replays.Run run = Replays.run(ReplayOptions.builder(log).server(address).speed(20).live(false).build());
            ReplayResult r = run.result();
            assertEquals(0, r.badLines(), run.out());
            assertTrue(r.replayed() > 0, run.out());
            assertEquals(r.replayed(), r.run().total().total().outcomes().requests(), run.out());
            assertEquals(0, r.run().total().total().outcomes().error() + r.run().total().total().outcomes().timeout()
                    + r.run().total().total().outcomes().closed(), run.out());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void rawStreamSendsTheLoggedBytesWithTheKeyPrefixAndItsSendTimes(MemcachedProcess server) {
        Path log = logsDir().resolve("memcache-stream.txt");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(server.address()).keyPrefix("s:").loops(2)
                .live(false).build());
        assertArrayEquals("Ada Lovelace!".getBytes(StandardCharsets.US_ASCII), server.get("s:user:1"));
        assertArrayEquals("Grace Hopper Hopper".getBytes(StandardCharsets.US_ASCII), server.get("s:user:2"),
                "two loops: the second add fails, the second append does not");
        assertNull(server.get("user:1"));
        Map<String, Long> commands = run.result().commands();
        assertEquals(Map.of("set", 4L, "get", 6L, "incr", 2L, "add", 2L, "append", 2L, "gets", 2L, "touch", 2L,
                "delete", 2L), commands);
        assertTrue(Math.abs(run.result().expectedSeconds() - 2 * 1.1005) < 1e-6, run.out());
        assertTrue(run.out().contains("Replay: Note: send times from " + log + ".times.csv"), run.out());
        assertEquals(1.1005, run.result().originalSeconds(), 1e-9, run.out());
    }

    @Test
    void warmupIsSentButLeftOutOfTheReport(MemcachedProcess server) {
        Path log = logsDir().resolve("memcache-stream.txt"); // 11 commands over 1.1 s, 3 in the first 0.25 s
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(server.address()).warmup(java.time.Duration.ofMillis(200))
                .live(false).build());
        assertTrue(run.out().contains("Warmup complete"), run.out());
        assertEquals(11, run.result().replayed());
        assertEquals(8, run.result().run().total().total().outcomes().requests(), run.out());
        assertTrue(run.line("Commands: ").endsWith("(the warm-up's included)"), run.out());
    }

    @Test
    void klogSaysItsTimestampsAreSpreadAndTheJsonHasTheFidelity(@TempDir Path dir, MemcachedProcess server) throws IOException {
        Path log = logsDir().resolve("twemcache.klog");
        Path json = dir.resolve("replay.json");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(server.address()).speed(0).json(json)
                .live(false).build());
        assertTrue(run.out().contains("Replay: Note: klog timestamps have one-second resolution: each second's commands are spread evenly across it"), run.out());
        assertEquals(List.of("set", "get", "gets", "incr", "cas", "delete"), List.copyOf(run.result().commands().keySet()));
        JsonNode replay = new ObjectMapper().readTree(json.toFile()).path("replay");
        assertEquals("klog", replay.path("format").asText());
        assertEquals("max", replay.path("speed").asText());
        assertTrue(replay.path("sendLagNanos").isNull());
        assertEquals(10, replay.path("lines").path("replayed").asLong());
        assertEquals(4, replay.path("commands").path("get").asLong());
        assertEquals(2.666667, replay.path("originalSeconds").asDouble(), 1e-9, "the last second has 3 commands: 2/3 s in");
        // --speed max has no schedule: nothing to expect of its length
        assertTrue(replay.path("expectedSeconds").isNull());
        assertTrue(run.line("Duration: ").matches("Duration: original 2\\.667 s replay [0-9.]+ s not timed \\(speed max\\)"),
                run.line("Duration: "));
    }
}
