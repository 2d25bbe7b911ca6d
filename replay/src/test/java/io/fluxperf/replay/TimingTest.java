package io.fluxperf.replay;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replay keeps the log's timing: a log with bursts (1 s busy at 2000 commands/s, 1 s idle) replayed
 * at 1x sends, in every second, as many commands as the log has in that second, within 5% of the
 * busy seconds' count (100 commands); at --speed 2 it takes half the time within 5%. What was sent
 * when is read from the replay's trace (actual send times).
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class TimingTest {
    private static final long S = 1_000_000_000L;
    private static final int RATE = 2000;
    private static final int SECONDS = 5;

    @TempDir
    static Path dir;
    static Path log;
    static long[] original;

    @BeforeAll
    static void writeLogAndWarmUp(MemcachedProcess target) {
        log = dir.resolve("bursts.log");
        original = LogWriter.watch(log, RATE, SECONDS, new boolean[] {true, false}, 50);
        // a warm JVM, so that the measured replays do not pay for class loading and compilation
        Path warm = dir.resolve("warm.log");
        LogWriter.watch(warm, 20_000, 1, new boolean[] {true}, 50);
        Replays.run(ReplayOptions.builder(warm).server(target.address()).speed(0).live(false).build());
        Replays.run(ReplayOptions.builder(warm).server(target.address()).speed(4).live(false).build());
    }

    /** Commands sent in each second since the first scheduled send time, from a trace. */
    static long[] sentPerSecond(Path trace, int seconds) {
        long[] counts = new long[seconds + 2];
        try (TraceReader r = TraceReader.open(trace)) {
            TraceRecord rec = new TraceRecord();
            long origin = Long.MAX_VALUE;
            long[] sent = new long[(int) Math.min(Integer.MAX_VALUE, 1_000_000)];
            int n = 0;
            while (r.next(rec)) {
                origin = Math.min(origin, rec.intendedSendNanos());
                sent[n++] = rec.actualSendNanos();
            }
            for (int i = 0; i < n; i++) {
                counts[(int) Math.min(counts.length - 1, (sent[i] - origin) / S)]++;
            }
        }
        return counts;
    }

    static long[] sendSpan(Path trace) {
        try (TraceReader r = TraceReader.open(trace)) {
            TraceRecord rec = new TraceRecord();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            while (r.next(rec)) {
                first = Math.min(first, rec.actualSendNanos());
                last = Math.max(last, rec.actualSendNanos());
            }
            return new long[] {first, last};
        }
    }

    @Test
    void burstsKeepTheirShapeAtOriginalSpeed(MemcachedProcess target) {
        Path trace = dir.resolve("trace-1x");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(target.address()).trace(trace).live(false).build());
        assertEquals(RATE * 3L, run.result().replayed(), run.out());
        long[] sent = sentPerSecond(trace, SECONDS);
        System.out.println("per second, log: " + Arrays.toString(original) + " replay: " + Arrays.toString(sent)
                + "; " + run.line("Send lag:"));
        for (int s = 0; s <= SECONDS; s++) {
            long logged = s < SECONDS ? original[s] : 0;
            assertTrue(Math.abs(sent[s] - logged) <= RATE * 5 / 100,
                    "second " + s + ": log " + logged + ", replay " + sent[s] + " " + Arrays.toString(sent)
                            + "\n" + run.out());
        }
        assertEquals(0, sent[SECONDS + 1], "nothing long after the log's end: " + Arrays.toString(sent));
        assertEquals(0, run.result().late());
        assertTrue(Math.abs(run.result().originalSeconds() - 4.9995) < 1e-6, run.out());
    }

    @Test
    void doubleSpeedTakesHalfTheTime(MemcachedProcess target) {
        Path trace = dir.resolve("trace-2x");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(target.address()).speed(2).trace(trace)
                .live(false).build());
        long[] span = sendSpan(trace);
        double seconds = (span[1] - span[0]) / 1e9;
        double expected = run.result().originalSeconds() / 2;
        System.out.println("2x: log " + run.result().originalSeconds() + " s, replay sends over " + seconds + " s");
        assertTrue(Math.abs(seconds - expected) <= expected * 0.05, seconds + " s, expected " + expected + " s\n" + run.out());
        assertTrue(Math.abs(run.result().expectedSeconds() - expected) < 1e-3, run.out());
    }
}
