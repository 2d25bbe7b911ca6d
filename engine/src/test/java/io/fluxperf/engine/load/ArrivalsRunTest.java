package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.Arrivals;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.PacedRate;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Open-loop runs with each --arrivals against a real memcached, read back from their trace: each
 * thread's intended send times have gaps of the distribution's shape (exponential: a coefficient of
 * variation of 1; uniform on [0, 2m): 1/√3; normal: 1/4), each thread's mean gap is threads / rate
 * within 1 %, all threads together hold the mean rate within 1 %, and (on a quiet machine) the
 * measured window sent what the schedule asked for.
 */
@ExtendWith(RealServers.class)
class ArrivalsRunTest {
    private static final int RATE = 20_000;
    private static final int THREADS = 2;
    private static final int CONNECTIONS = 4;

    @RealServer
    private MemcachedProcess memcached;

    @TempDir
    Path dir;

    /** A 1-s open-loop run of gets with {@code arrivals}, traced into {@code traceDir}. */
    private RunResult run(Arrivals arrivals, Path traceDir) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withRate(RATE)
                .withKeyspace(KeyspaceConfig.defaults().withCount(1000));
        RunConfig config = RunConfig.builder().threads(THREADS).connections(CONNECTIONS).pipeline(1)
                .duration(Duration.ofSeconds(1)).windows(1).warmup(Duration.ofMillis(200)).timeout(Duration.ofSeconds(1))
                // no early sends: a request that left early would be traced with its write as its time
                .earlySend(Duration.ZERO).seed(11).arrivals(arrivals).workload(get).build();
        try (RunTrace trace = RunTrace.open(traceDir, config, "{}")) {
            LoadRun run = new LoadRun(config, new RunListener() { });
            run.trace(trace);
            return run.execute(new InetSocketAddress("127.0.0.1", memcached.port()), memcached.address());
        }
    }

    /**
     * The shape comes from the trace's intended send times, which the schedule sets: that does not
     * depend on how fast this machine is; the rate the window achieved, checked last from the same
     * run (one run per distribution, not two), does.
     */
    @Tag("timing") // the shape is not, but a second's worth of requests needs 20,000/s of CPU, and the window's rate is
    @ParameterizedTest
    @EnumSource(Arrivals.class)
    void intendedTimesHaveTheDistributionsShapeAndTheWindowHoldsTheRate(Arrivals arrivals) {
        Path traceDir = dir.resolve("trace");
        RunResult result = run(arrivals, traceDir);

        long[][] intended = new long[THREADS][];
        int[] counts = new int[THREADS];
        for (int t = 0; t < THREADS; t++) {
            intended[t] = new long[RATE * 3];
        }
        long records = 0;
        try (TraceReader reader = TraceReader.open(traceDir)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                int thread = r.connectionId() / CONNECTIONS; // each thread's slots are numbered after the last one's
                intended[thread][counts[thread]++] = r.intendedSendNanos();
                records++;
            }
        }
        assertTrue(records > result.total().total().outcomes().requests(), "the trace holds the warm-up's requests too");
        assertTrue(records > RATE, "a second's requests and more: " + records);

        double meanGap = THREADS * 1e9 / RATE;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int t = 0; t < THREADS; t++) {
            long[] times = Arrays.copyOf(intended[t], counts[t]);
            Arrays.sort(times); // a thread emits in intended order; requests end (and are traced) in any
            first = Math.min(first, times[0]);
            last = Math.max(last, times[times.length - 1]);
            double sum = 0;
            double squares = 0;
            int n = times.length - 1;
            for (int i = 1; i < times.length; i++) {
                double gap = times[i] - times[i - 1];
                sum += gap;
                squares += gap * gap;
            }
            double mean = sum / n;
            double cv = Math.sqrt(Math.max(0, squares / n - mean * mean)) / mean;
            assertEquals(meanGap, mean, meanGap * 0.01, arrivals + ", thread " + t + ": mean gap over " + n);
            double expectedCv = switch (arrivals) {
                case SMOOTH -> 0;
                case UNIFORM -> 1 / Math.sqrt(3);
                case NORMAL -> 0.25;
                case EXPONENTIAL -> 1;
            };
            assertEquals(expectedCv, cv, arrivals == Arrivals.SMOOTH ? 0.01 : 0.05,
                    arrivals + ", thread " + t + ": coefficient of variation of the gaps");
        }
        // all threads together: as many requests as the rate asks for over the time the schedule spans
        double rate = (records - 1) / ((last - first) / 1e9);
        assertEquals(RATE, rate, RATE * 0.01, arrivals + ": the schedule's mean rate over " + records + " requests");

        WindowResult window = result.windows().get(0);
        PacedRate.assertHeld(RATE, window.rate(0), window, arrivals + ": the window's rate");
    }
}
