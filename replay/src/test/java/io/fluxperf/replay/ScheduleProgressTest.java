package io.fluxperf.replay;

import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A timed replay's progress line goes by the log's own clock: its ETA is what the schedule has
 * left, and within a long gap of the log it says how long it waits for the next command.
 */
@ExtendWith(RealServers.class)
class ScheduleProgressTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long START = 5 * SECOND;

    @TempDir
    Path dir;

    @Test
    void aLogReadToItsEndLeavesWhatItsLastSendTimeLeaves() {
        ScheduleProgress p = new ScheduleProgress();
        p.started(START);
        p.scheduled(0, 1, 52);
        p.scheduled(100_000 * SECOND, 1, 97); // the log's next command, 100,000 s later
        p.readAll();
        ScheduleProgress.At at = p.at(START + 12 * SECOND, 97, 1);
        assertEquals(99_988 * SECOND, at.leftNanos());
        assertEquals(99_988 * SECOND, at.waitNanos(), "12 s into a gap of 100,000 s");
        assertEquals(0, p.at(START + 100_001 * SECOND, 97, 1).waitNanos(), "past the gap");
    }

    @Test
    void aLogReadInPartIsScaledToItsSizeAndShortGapsAreNoWait() {
        ScheduleProgress p = new ScheduleProgress();
        p.started(START);
        for (int i = 0; i <= 10; i++) {
            p.scheduled(i * SECOND, 1, 25L * i); // 10 s of the log in its first quarter
        }
        ScheduleProgress.At at = p.at(START + 4 * SECOND, 1000, 1);
        assertEquals(36 * SECOND, at.leftNanos(), "a log of 40 s, 4 s into it");
        assertEquals(0, at.waitNanos());
        assertEquals(76 * SECOND, p.at(START + 4 * SECOND, 1000, 2).leftNanos(), "two passes: 80 s");
    }

    @Test
    void nothingIsKnownBeforeTheScheduleStarts() {
        ScheduleProgress p = new ScheduleProgress();
        p.scheduled(0, 1, 1);
        assertEquals(ScheduleProgress.At.UNKNOWN, p.at(START, 10, 1));
    }

    @Test
    void theProgressLineSaysTheWaitAndTheEta() {
        LogPosition end = new LogPosition(1, 2, 1.0);
        LiveSample idle = new LiveSample(1, 12 * SECOND, 1, 0, 0, 0);
        ScheduleProgress.At gap = new ScheduleProgress.At(99_988 * SECOND, 99_988 * SECOND);
        assertEquals("[replay 12s] line 2 (100.0 %), 0 rps, errors 0, ETA 27.8 h; waiting 27.8 h for the log's next"
                + " command at 1x; --max-wait caps such gaps",
                ReplayReport.progressLine(idle, 12 * SECOND, end, 1, "line", gap, "1x", false));
        assertEquals("[replay 12s] line 2 (100.0 %), 0 rps, errors 0, ETA 27.8 h; waiting 27.8 h for the log's next"
                + " command at 2x", ReplayReport.progressLine(idle, 12 * SECOND, end, 1, "line", gap, "2x", true));
        LogPosition half = new LogPosition(1, 500, 0.5);
        LiveSample busy = new LiveSample(1, 10 * SECOND, 5000, 0, 0, 500);
        assertEquals("[replay 10s] line 500 (50.0 %), 500 rps, errors 0, ETA 10s",
                ReplayReport.progressLine(busy, 10 * SECOND, half, 1, "line", ScheduleProgress.At.UNKNOWN, "max", false),
                "no schedule: from the share of the log behind");
        assertEquals("[replay 10s] line 500 (50.0 %), 500 rps, errors 0, ETA 90s",
                ReplayReport.progressLine(busy, 10 * SECOND, half, 1, "line", new ScheduleProgress.At(90 * SECOND, 0), "1x", false));
    }

    /** The tester's log: a SET, and its GET 100,000 s later. */
    @Test
    void aReplayInALongGapSaysItWaitsAndItsEtaIsTheLogs(RedisProcess redis) throws Exception {
        Path log = dir.resolve("gap.log");
        Files.writeString(log, "1795985233.075481 [0 127.0.0.1:57230] \"SET\" \"a\" \"1\"\n"
                + "1796085233.075481 [0 127.0.0.1:57230] \"GET\" \"a\"\n");
        Replay replay = new Replay(ReplayOptions.builder(log).server(redis.address()).live(true).build());
        ByteArrayOutputStream err = new ByteArrayOutputStream(); // its writes are synchronized: read while written
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        CompletableFuture<ReplayResult> running = CompletableFuture.supplyAsync(() -> replay.run(o, e));
        try {
            await("a progress line in the gap").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> err.toString(StandardCharsets.UTF_8).contains("waiting"));
        } finally {
            replay.requestStop();
        }
        running.get(10, TimeUnit.SECONDS);
        String line = err.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("waiting")).findFirst().orElseThrow();
        assertTrue(line.matches("\\[replay \\d+s\\] line 2 \\(100\\.0 %\\), 0 rps, errors 0, ETA 27\\.8 h; waiting 27\\.8 h for"
                + " the log's next command at 1x; --max-wait caps such gaps"), line);
    }
}
