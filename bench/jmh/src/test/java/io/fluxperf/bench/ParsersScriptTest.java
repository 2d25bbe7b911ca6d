package io.fluxperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/lib/parsers.sh's parse_fluxperf, which compare.sh reads fluxperf's --json with: its
 * figures line, and the extras a fixed-rate run adds (send lag, the wait for a connection with room).
 */
class ParsersScriptTest {
    @TempDir
    Path dir;

    private static Path parsers() {
        return RepoFiles.find("bench/lib/parsers.sh");
    }

    private List<String> parse(String json) throws IOException, InterruptedException {
        Path file = dir.resolve("run.json");
        Files.writeString(file, json);
        Process p = new ProcessBuilder("bash", "-c", "source \"$0\" && parse_fluxperf \"$1\"", parsers().toString(), file.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the parser ends");
        assertEquals(0, p.exitValue(), out);
        return Arrays.asList(out.split("\n"));
    }

    private static String run(String sendLag, String connections) {
        return """
                {"config": {"workloads": [{"rate": 50000}]}, "stopReason": "completed",
                 "windows": [{"rate": 49990.0}, {"rate": 50010.0}],
                 "total": {"requests": 500000, "rate": 50000.0, "seconds": 10.0, "error": 0, "timeout": 0, "closed": 0, "miss": 0,
                           "latency": {"p50": 40000, "p99": 120000, "p999": 900000},
                           "service": {"p50": 30000, "p99": 90000},
                           "sendLag": %s, "connections": %s,
                           "cpuNanos": 9000000000, "cpuNanosPerRequest": 18000.0, "busiestLoadThreadCpuShare": 0.85}}
                """.formatted(sendLag, connections);
    }

    @Test
    void aFixedRateRunGivesItsSendLagAndItsWaitForRoom() throws Exception {
        List<String> out = parse(run("{\"p99\": 87000}", "{\"attempts\": 50, \"roomWaitNanos\": 12460000, \"roomWaitBehindNanos\": 3100000}"));
        assertEquals("500000 50000.00 40 120 900 18.000", out.get(0));
        assertTrue(out.get(1).contains("lag_p99=87 room_ms=12.5 room_behind_ms=3.1 "), out.get(1));
        assertTrue(out.get(1).contains("min_win_rate=49990 max_win_rate=50010"), out.get(1));
    }

    @Test
    void aClosedLoopRunHasNoWaitForRoom() throws Exception {
        List<String> out = parse(run("null", "{\"attempts\": 50, \"roomWaitNanos\": 0, \"roomWaitBehindNanos\": 0}"));
        assertTrue(out.get(1).contains("lag_p99=NA room_ms=NA room_behind_ms=NA "), out.get(1));
    }
}
