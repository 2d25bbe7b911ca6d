package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.SecondFigures;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.trace.LatencyHistograms;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A paced window that begins with a backlog (every request of its first second sent late) is named,
 * and the verdict is no longer good: its latencies hold a wait from before it. Seen at 50,000/s: a
 * window began 0.65-0.92 s behind and kept that backlog, going out as connections freed (so the
 * send lag raised no client limit), and said "Trust: good".
 */
class BeganBehindTest {
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private static RunConfig config(WorkloadConfig w) {
        return RunConfig.builder().server("127.0.0.1:11211").threads(1).connections(25).pipeline(1)
                .duration(Duration.ofSeconds(3)).windows(2).timeout(Duration.ofSeconds(1)).workloads(List.of(w)).build();
    }

    /** Records one window of three seconds into {@code trust}: the first second's sends lag by {@code firstLags}, the rest by 20 µs. */
    private static WindowTrust window(TrustRecorder trust, int number, RunConfig config, long... firstLags) {
        long start = (number - 1) * 3 * SECOND;
        WorkloadStats stats = new WorkloadStats();
        Histogram lag = WorkloadStats.newHistogram();
        for (int second = 0; second < 3; second++) {
            WorkloadStats s = new WorkloadStats();
            Histogram secondLag = WorkloadStats.newHistogram();
            for (int i = 0; i < 2000; i++) {
                long sendLag = second == 0 ? firstLags[i % firstLags.length] : 20_000;
                s.record(Outcome.OK, sendLag + 100_000, 100_000, 10);
                stats.record(Outcome.OK, sendLag + 100_000, 100_000, 10);
                LatencyHistograms.record(secondLag, sendLag);
                LatencyHistograms.record(lag, sendLag);
            }
            trust.second(new SecondFigures(number, start + second * SECOND, start + (second + 1) * SECOND, List.of(s),
                    secondLag, WorkloadStats.newHistogram()));
        }
        WindowResult w = new WindowResult(number, start, start + 3 * SECOND, config.workloads(), List.of(stats), stats,
                ConnectionCounts.of(25, 25, 0, 0, 25, 3 * SECOND, 3 * SECOND), lag, WorkloadStats.newHistogram(), -1, new long[0]);
        return trust.window(w);
    }

    @Test
    void aPacedWindowThatBeginsBehindIsNamedAndTheVerdictSaysSo() {
        RunConfig config = config(WorkloadConfig.of(Command.GET).withRate(2000));
        TrustRecorder trust = new TrustRecorder(config, null);
        WindowTrust behind = window(trust, 1, config, 820 * MS, 900 * MS, 650 * MS);
        assertEquals(1, behind.drift().size(), behind.toString());
        Finding f = behind.drift().get(0);
        assertEquals(Finding.Kind.BEGAN_BEHIND, f.kind());
        assertTrue(f.text().startsWith("window 1 began 650 ms behind its schedule"), f.text());
        assertTrue(behind.limits().isEmpty(), "due requests waited for room: the send lag names no client limit " + behind);

        WindowTrust onTime = window(trust, 2, config, 820 * MS, 30_000, 650 * MS);
        assertTrue(onTime.drift().isEmpty(), "some requests of its first second left on time: " + onTime);

        RunTrust run = TrustRecorder.finish(config, WorkloadStats.newHistogram(), List.of(behind, onTime), List.of(), null,
                List.of());
        assertTrue(run.verdict().flags().contains(TrustVerdict.Flag.UNSTABLE), run.verdict().text());
        assertEquals(List.of("Unstable: " + f.text()), TrustLines.window(behind).stream().filter(l -> l.startsWith("Unstable")).toList());
        assertEquals(f, TrustJson.window(TrustJson.window(behind)).drift().get(0), "the run directory keeps it");
    }

    @Test
    void aClosedLoopRunHasNoSchedule() {
        RunConfig config = config(WorkloadConfig.of(Command.GET));
        TrustRecorder trust = new TrustRecorder(config, null);
        assertTrue(window(trust, 1, config, 820 * MS).drift().isEmpty());
    }

    @Test
    void theCheckItself() {
        assertNull(Stability.beganBehind(1, -1), "nothing paced in the first second");
        assertNull(Stability.beganBehind(1, 999_999), "under a millisecond is on time");
        assertEquals(Finding.Kind.BEGAN_BEHIND, Stability.beganBehind(3, MS).kind());
        assertEquals(3, Stability.beganBehind(3, MS).window());
    }
}
