package io.fluxperf.bench;

import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.trace.LatencyHistograms;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the driver records per request: {@code record} is {@link WorkloadStats#record} at a
 * request's end (outcome count, latency and service-time histograms, bytes); {@code recordSent}
 * its count at the write; {@code sendLag} the open-loop send-lag histogram
 * ({@link LatencyHistograms#record}). Latencies cycle through 4,096 values drawn log-uniformly
 * between 20 µs and 20 ms, so the histograms' buckets are hit as in a run, not one hot bucket.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar MetricsBench -prof gc}. Expected: 0 B/op
 * (the histograms are sized for 1 ns .. 1 h up front and never resize).
 */
@State(Scope.Thread)
public class MetricsBench extends HotPathBenchmark {
    private static final int MASK = 4095;

    private final WorkloadStats stats = new WorkloadStats();
    private final Histogram sendLag = LatencyHistograms.create();
    private final long[] latencies = new long[MASK + 1];
    private int i;

    @Setup
    public void setup() {
        SplittableRandom random = new SplittableRandom(42);
        for (int k = 0; k < latencies.length; k++) {
            latencies[k] = (long) (20_000 * Math.pow(1000, random.nextDouble()));
        }
    }

    @Benchmark
    public void record() {
        long latency = latencies[i++ & MASK];
        stats.record(Outcome.OK, latency, latency - 1_000, 80);
    }

    @Benchmark
    public void recordSent() {
        stats.recordSent(40);
    }

    @Benchmark
    public boolean sendLag() {
        return LatencyHistograms.record(sendLag, latencies[i++ & MASK] >>> 6);
    }
}
