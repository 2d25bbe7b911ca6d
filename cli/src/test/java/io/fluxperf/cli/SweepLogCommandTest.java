package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.RealServers;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxperf sweep --log}: a capacity sweep in multiples of a command log's rate. Against an
 * embedded redis of fixed capacity (replies queue beyond 3,000 requests/s) a log of 500 commands/s
 * holds to 6x its rate and no further, so the knee found lies within 10 % of that; against a real
 * redis-server the sweep stops by itself, names a knee as a speed factor and draws it.
 *
 * <p>The objective is the median (p50 &lt; 50 ms): beyond the capacity the queue, and every
 * command's latency, grows for the whole pass, and the replay falls behind its schedule (a step
 * not reached), while a stall of a shared machine that breaks a p99 at any speed leaves the median
 * alone.
 */
@ExtendWith(RealServers.class)
class SweepLogCommandTest {
    private static final Pattern KNEE = Pattern.compile("Knee: p50<50ms holds to (\\d+(\\.\\d)?)x the log's rate \\(([\\d,]+) commands/s\\)");

    @TempDir
    Path tmp;

    /** A MONITOR log of {@code seconds} at {@code rate} GET/SET (4:1) a second from 20 clients, evenly spaced. */
    private static Path log(Path dir, int rate, int seconds) throws Exception {
        Path log = dir.resolve("monitor.log");
        long base = 1_700_000_000_000_000L;
        try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 0; i < rate * seconds; i++) {
                long at = base + i * 1_000_000L / rate;
                int client = i % 20;
                String cmd = i % 5 == 0 ? "\"SET\" \"key:" + i % 1000 + "\" \"value\"" : "\"GET\" \"key:" + i % 1000 + "\"";
                w.write(String.format(Locale.ROOT, "%d.%06d [0 127.0.0.1:%d] %s%n", at / 1_000_000, at % 1_000_000,
                        30_000 + client, cmd));
            }
        }
        return log;
    }

    /**
     * From 2x: the log's own rate (1x, its whole 4 s) is as far below the knee as 2x and would add
     * its 4 s and a step's start to the sweep without telling the knee apart any better.
     */
    @Tag("timing")
    @Test
    void aServerOfFixedCapacityHasItsKneeThere() throws Exception {
        Path log = log(tmp, 500, 4);
        try (TargetServer target = Protocols.startTarget("redis", TargetOptions.builder().capacity(3_000).build())) {
            Path out = tmp.resolve("sweep");
            CliRun run = CliRun.of("sweep", "--log", log.toString(), "-s", "127.0.0.1:" + target.address().getPort(),
                    "-c", "20", "--from", "2", "--to", "16", "--factor", "2", "--refine", "3", "--slo", "p50<50ms",
                    "--no-live", "--out", out.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("Log rate: 500 commands/s (2,000 commands over 3.998 s)"), run.out());
            Matcher k = KNEE.matcher(run.out());
            assertTrue(k.find(), run.out());
            double knee = Double.parseDouble(k.group(1));
            assertTrue(knee >= 5.4 && knee <= 6.6, "the knee within 10 % of 6x (3,000/s): " + k.group() + "\n" + run.out());
            JsonNode json = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
            assertEquals(Math.round(Double.parseDouble(k.group(3).replace(",", ""))), json.get("knee").asLong());
            assertTrue(Files.size(out.resolve("sweep.png")) > 0);
        }
    }

    @Tag("timing")
    @Test
    void aSweepAgainstRedisFindsAKneeAndDrawsIt() throws Exception {
        Path log = log(tmp, 1_000, 2);
        try (RedisProcess redis = RedisProcess.start()) {
            Path out = tmp.resolve("sweep");
            CliRun run = CliRun.of("sweep", "--log", log.toString(), "-s", redis.address(), "-c", "20", "--from", "1",
                    "--to", "1024", "--factor", "4", "--flush", "--slo", "p50<50ms", "--no-live", "--out", out.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("the server flushed before each"), run.out());
            assertTrue(run.out().contains("Stopped: at "), "a step broke an objective or was not reached: " + run.out());
            assertTrue(KNEE.matcher(run.out()).find(), run.out());
            for (String f : List.of("sweep.txt", "sweep.json", "sweep.png", "sweep.html")) {
                assertTrue(Files.size(out.resolve(f)) > 0, f);
            }
            // each step is a replay's run directory that report reads back
            try (var steps = Files.list(out)) {
                List<Path> dirs = steps.filter(Files::isDirectory).sorted().toList();
                assertTrue(dirs.size() >= 2, dirs.toString());
                CliRun report = CliRun.of("report", dirs.get(0).toString());
                assertEquals(0, report.exitCode(), report.err());
                assertEquals(Files.readString(dirs.get(0).resolve("report.txt")), report.out(), "report made again");
            }
        }
    }

    @Test
    void logSweepFlagsAreCheckedInOneSentence() throws Exception {
        Path log = log(tmp, 100, 1);
        CliRun run = CliRun.of("sweep", "--log", log.toString(), "--from", "0", "--to", "4", "--factor", "2", "--slo", "p99<1ms");
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains("--from: the first speed must be a positive multiple of the log's rate"), run.err());
        CliRun loop = CliRun.of("sweep", "-s", "127.0.0.1:1", "--from", "1", "--to", "4", "--factor", "2", "--slo", "p99<1ms",
                "--loop", "2");
        assertEquals(2, loop.exitCode(), loop.out() + loop.err());
        assertTrue(loop.err().contains("--loop: goes with --log"), loop.err());
    }
}
