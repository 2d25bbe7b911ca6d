package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.admin.LiveFigures;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.trust.TrustRecorder;
import io.fluxperf.trace.LatencyHistograms;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The memory formula of docs/internals.md ("How memory grows"), checked against the histograms the
 * recorders and the clock's consumers really hold: per load thread two interval buffers of
 * {@code (2W + 2)} latency histograms with int counts (plus one per server), whatever the cadences;
 * each cadence a fixed set on the run's thread, not one per thread.
 */
class HistogramMemoryTest {
    /** One latency histogram of the usual range and precision (1 ns .. 1 h, 3 digits). */
    private static final long H = LatencyHistograms.create().getEstimatedFootprintInBytes();
    /** The same with int counts, as a load thread's interval holds it. */
    private static final long I = LatencyHistograms.createInterval().getEstimatedFootprintInBytes();
    /** Shenandoah's smallest region (its regions are 1/2048 of the heap's maximum, at least this). */
    private static final long REGION = 256 * 1024;
    /** One of the admin endpoint's per-workload histograms (2 digits). */
    private static final long A = StatsBlocks.adminHistograms(1)[0].getEstimatedFootprintInBytes();
    /** TCP's RTT histogram. */
    private static final long R = new TcpHealth().histogramBytes();

    /** The formula: bytes per load thread. {@code servers}: 0 with one server, else the pool's members. */
    static long perThread(int workloads, int servers) {
        return 2 * ((2L * workloads + 2 + serverFigures(servers)) * I + R);
    }

    /** The formula: bytes on the run's thread, by cadence. */
    static long runThread(int workloads, int servers, boolean seconds, boolean stats, boolean admin, boolean live) {
        long s = serverFigures(servers);
        long window = (2L * workloads + 2 + s) * H + 2 * R;
        long run = (2L * workloads + 4 + s) * H + R; // the whole run's sums: each workload, the total, lag, connect
        long bytes = window + run;
        if (seconds) {
            bytes += (2L * workloads + 2) * H + 2 * R;
        }
        if (stats || admin) {
            bytes += (3 + s) * H + 2 * R + (admin ? 2L * workloads * A : 0);
        }
        if (admin) {
            bytes += (2L * workloads + 1) * A; // the endpoint's own figures: each workload's latency and service, send lag
        }
        if (live) {
            bytes += H;
        }
        return bytes + H; // the trust line's whole-run latency, in every run that names its pauses (the default)
    }

    private static long serverFigures(int servers) {
        return servers == 0 ? 0 : servers + 1; // one more for requests sent to none
    }

    @ParameterizedTest
    @CsvSource({"1, 1, 0, false, false, false, false", "2, 1, 0, true, true, true, true", "2, 20, 0, true, true, true, true",
            "4, 3, 2, false, true, false, true"})
    void theHistogramsHeldAreTheFormulas(int threads, int workloads, int servers, boolean seconds, boolean stats,
                                         boolean admin, boolean live) {
        List<WorkloadConfig> configs = Collections.nCopies(workloads, WorkloadConfig.of(Command.GET));
        List<ServerStats> shapes = null;
        if (servers > 0) {
            shapes = new ArrayList<>();
            for (int i = 0; i < servers; i++) {
                shapes.add(new ServerStats("s" + i, null));
            }
            shapes.add(new ServerStats(ServerStats.NOT_SENT, null));
        }
        long perThread = 0;
        for (int buffer = 0; buffer < 2; buffer++) { // the one recorded into and the spare
            ThreadFigures f = new ThreadRecorder(workloads, null, null, shapes).newFigures();
            perThread += f.histogramBytes();
            assertEachFitsARegion(f);
        }
        assertEquals(perThread(workloads, servers), perThread, "per thread");

        Runnable none = () -> { };
        RunningWindow running = new RunningWindow(workloads, threads, shapes, none);
        long run = running.figures().histogramBytes() + runSums(configs, threads, shapes);
        if (seconds) {
            run += new WindowSeconds(new RunListener() { }, workloads, threads, none).histogramBytes();
        }
        if (stats || admin) {
            RunConfig config = RunConfig.builder().workloads(configs).build();
            run += new StatsBlocks(config, 1, new RunListener() { }, admin ? new NoFeed() : null, new RunErrors(), null,
                    running, shapes, none).histogramBytes();
        }
        if (admin) {
            RunConfig config = RunConfig.builder().workloads(configs).build();
            run += new LiveFigures(config, "run", null, false).histogramBytes();
        }
        if (live) {
            run += H; // LiveLine's window latency, all workloads together
        }
        run += new TrustRecorder(RunConfig.builder().workloads(configs).build(), null).histogramBytes();
        assertEquals(runThread(workloads, servers, seconds, stats, admin, live), run, "on the run's thread");
        assertEquals((2L * workloads + 4 + serverFigures(servers)) * H + R, windowEnd(configs, threads, shapes),
                "a window's own figures, made at its end");
        System.out.printf("threads %d, workloads %d, servers %d: %.1f MB%n", threads, workloads, servers,
                (threads * perThread + run) / 1e6);
    }

    /**
     * Each latency histogram a load thread holds is not humongous under Shenandoah with a 256-MB
     * heap: its counts and their array's header fit one region (a long-count one takes two).
     */
    private static void assertEachFitsARegion(ThreadFigures f) {
        List<AbstractHistogram> all = new ArrayList<>(List.of(f.sendLag, f.connectLatency));
        for (var w : f.workloads) {
            all.add(w.latency());
            all.add(w.service());
        }
        if (f.servers != null) {
            for (ServerStats s : f.servers) {
                all.add(s.latency());
            }
        }
        for (AbstractHistogram h : all) {
            // HdrHistogram's estimate: 512 B of fields besides the counts, more than an int[]'s 16-B header
            assertTrue(h.getEstimatedFootprintInBytes() <= REGION, h.getEstimatedFootprintInBytes() + " B");
        }
        assertTrue(H > REGION, "a long-count histogram takes two regions: what this guards against");
    }

    /** The histograms of the window WindowBookkeeping makes at a window's end (held until its report is made). */
    private static long windowEnd(List<WorkloadConfig> configs, int threads, List<ServerStats> shapes) {
        WindowBookkeeping b = new WindowBookkeeping(() -> { }, false, configs);
        WindowResult w = b.window(1, 0, 1, -1, new FigureSum(configs.size(), threads, shapes, () -> { }));
        long bytes = w.histogramBytes() + w.tcp().histogramBytes();
        if (w.pool() != null) {
            for (ServerStats s : w.pool().servers()) {
                bytes += s.histogramBytes();
            }
        }
        return bytes;
    }

    /** What WindowBookkeeping holds for the whole run once a window has been added. */
    private static long runSums(List<WorkloadConfig> configs, int threads, List<ServerStats> shapes) {
        WindowBookkeeping b = new WindowBookkeeping(() -> { }, false, configs);
        FigureSum one = new FigureSum(configs.size(), threads, shapes, () -> { });
        WindowResult w = b.window(1, 0, 1, -1, one);
        b.addToRun(w);
        WindowResult run = b.run();
        long bytes = run.sendLag().getEstimatedFootprintInBytes() + run.connectLatency().getEstimatedFootprintInBytes()
                + run.total().latency().getEstimatedFootprintInBytes() + run.total().service().getEstimatedFootprintInBytes()
                + R;
        for (var s : run.workloads()) {
            bytes += s.latency().getEstimatedFootprintInBytes() + s.service().getEstimatedFootprintInBytes();
        }
        if (run.pool() != null) {
            for (ServerStats s : run.pool().servers()) {
                bytes += s.histogramBytes();
            }
        }
        return bytes;
    }

    /** An admin feed that reads nothing: only its presence shapes the statistics blocks. */
    private static final class NoFeed implements LiveFeed {
        @Override
        public void connected(long open, long failed) {
        }

        @Override
        public void measuring(long nanos) {
        }

        @Override
        public void interval(IntervalSample sample, AbstractHistogram latency, Histogram sendLag, Histogram[] latencyByWorkload,
                             Histogram[] serviceByWorkload, long[][] windowSoFar, ConnectionCounts connections, double[] rates) {
        }

        @Override
        public void window(WindowResult window) {
        }
    }
}
