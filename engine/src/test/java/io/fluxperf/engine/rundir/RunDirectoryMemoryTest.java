package io.fluxperf.engine.rundir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.SecondFigures;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.run.RunReport;
import io.fluxperf.trace.LatencyHistograms;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run directory's row of the memory formula (docs/internals.md, "How memory grows"): whatever
 * the workloads, one latency histogram for the seconds' all-workloads line and, per interval log
 * (windows.hlog, seconds.hlog), the copy it writes from and two encoding buffers of a latency
 * histogram's worst case: 3H + 4N.
 */
class RunDirectoryMemoryTest {
    @TempDir
    Path dir;

    @Test
    void aRunDirectoryHoldsThreeHistogramsAndFourEncodingBuffers() {
        Histogram h = LatencyHistograms.create();
        long expected = 3 * h.getEstimatedFootprintInBytes() + 4L * h.getNeededByteBufferCapacity();
        for (int workloads : new int[] {1, 20}) {
            List<WorkloadConfig> configs = Collections.nCopies(workloads, WorkloadConfig.of(Command.GET));
            RunConfig config = RunConfig.builder().workloads(configs).build();
            try (RunDirectoryWriter writer = RunDirectoryWriter.open(dir.resolve("run" + workloads), false, config, "run",
                    List.of("fluxperf", "run"), "--out")) {
                RunReport recorder = writer.recording(new RunReport() { });
                for (int window = 1; window <= 2; window++) {
                    WindowResult w = WindowResult.empty(window, 1_000_000_000L, configs);
                    for (int i = 0; i < 10_000; i++) {
                        w.workloads().get(i % workloads).record(Outcome.OK, 10_000L * (i + 1), 9_000L * (i + 1), 70);
                        LatencyHistograms.record(w.sendLag(), i);
                    }
                    for (int second = 0; second < 3; second++) {
                        recorder.second(new SecondFigures(window, second * 1_000_000_000L, (second + 1) * 1_000_000_000L,
                                w.workloads(), w.sendLag(), w.connectLatency()));
                    }
                    recorder.window(w);
                    assertEquals(expected, writer.histogramBytes(), workloads + " workloads, window " + window);
                }
                writer.failed("the test ends here");
            }
        }
    }
}
