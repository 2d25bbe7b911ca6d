package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.run.RunOrchestrator;
import io.fluxperf.engine.run.RunReport;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The per-window intervals of p99 hold what they claim to: over 20 windows of a steady run against
 * the embedded target, its replies delayed by a fixed 2 ms (so that the server, not the machine's
 * noise, sets the latency), each window's 95 % interval of p99 holds the p99 of all 20 windows
 * together in at least 17 of them (a binomial count with p = 0.95 is below 17 one time in 60), or
 * the run does not trust itself: its client paused or could not keep up, on a machine busy with
 * other work, and its trust line says so.
 */
class IntervalCoverageTest {
    @Test
    @Tag("timing")
    void theWindowsIntervalsHoldTheWholeRunsP99() throws Exception {
        List<WindowTrust> windows = new ArrayList<>();
        try (TargetServer target = Protocols.find("memcache").target().start(TargetOptions.builder()
                .responseDelay(Duration.ofMillis(2)).build())) {
            RunConfig config = RunConfig.builder().server("127.0.0.1:" + target.address().getPort()).threads(1)
                    .connections(20).pipeline(1).duration(Duration.ofMillis(500)).windows(20).timeout(Duration.ofSeconds(2))
                    .warmup(Duration.ofSeconds(1)).workload(WorkloadConfig.of(Command.GET).withRate(4000)).build();
            RunReport report = new RunReport() {
                @Override
                public void windowTrust(WindowTrust t) {
                    windows.add(t);
                }
            };
            RunOrchestrator run = new RunOrchestrator(config, report);
            RunResult result = run.execute();
            long p99 = result.total().total().latency().getValueAtPercentile(99);
            assertEquals(20, windows.size());
            int held = 0;
            StringBuilder seen = new StringBuilder();
            for (WindowTrust w : windows) {
                LatencyInterval i = w.intervals().get(2);
                assertTrue(!i.fewSamples(), "2,000 requests a window leave 20 beyond p99: " + i);
                if (i.low() <= p99 && p99 <= i.high()) {
                    held++;
                }
                seen.append(String.format(" [%d, %d]", i.low() / 1000, i.high() / 1000));
            }
            // the intervals assume a steady client: a run whose client paused or fell behind says so on its trust
            // line, and that is what a reader is told to read first (docs/measurement.md); a run that trusts
            // itself must cover
            TrustVerdict verdict = run.trust().verdict();
            assertTrue(held >= 17 || !verdict.good() && (verdict.flags().contains(TrustVerdict.Flag.CLIENT_PAUSED)
                    || verdict.flags().contains(TrustVerdict.Flag.CLIENT_LIMITED)), "held the run's p99 of " + p99 / 1000
                    + " us in " + held + " of 20 windows, and the run's " + verdict.line() + ":" + seen);
            assertTrue(run.trust().totalIntervals().get(2).low() <= p99, "the total's interval holds its own value");
        }
    }
}
