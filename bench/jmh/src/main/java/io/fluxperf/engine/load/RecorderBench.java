package io.fluxperf.engine.load;

import io.fluxperf.bench.HotPathBenchmark;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a load thread's {@link ThreadRecorder} does per request, whatever the run's report cadences:
 * {@code sent} at the write (count, bytes, send lag of a paced request) and {@code completed} at
 * the reply (outcome, latency, service time, bytes), each recorded once into the interval going
 * on. In the engine's package because the recorder is the load thread's own, not an API.
 * Latencies cycle through 4,096 values drawn log-uniformly between 20 µs and 20 ms.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar RecorderBench -prof gc}. Expected:
 * 0 B/op.
 */
@State(Scope.Thread)
public class RecorderBench extends HotPathBenchmark {
    private static final int MASK = 4095;

    /** Four workloads, no trace, no alarm (only a phase's start and a swap read the loop's CPU). */
    private final ThreadRecorder recorder = new ThreadRecorder(4, null, null);
    private final long[] latencies = new long[MASK + 1];
    private Request request;
    private int i;

    @Setup
    public void setup() {
        SplittableRandom random = new SplittableRandom(42);
        for (int k = 0; k < latencies.length; k++) {
            latencies[k] = (long) (20_000 * Math.pow(1000, random.nextDouble()));
        }
        request = new RequestPool(1).acquire().command(Command.GET, 2).addKey(7, 16);
    }

    @Benchmark
    public void sentAndCompleted() {
        long now = System.nanoTime();
        long latency = latencies[i++ & MASK];
        request.intendedNanos(now - latency).sentNanos(now - latency / 2); // paced, on time: no lateness stretch
        recorder.sent(request, 40, now - latency + 1_000);
        recorder.completed(request, Outcome.OK, now, 80, -1);
    }
}
