package io.fluxperf.bench;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.workload.GeneratedLoad;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Request generation as a load thread does it: {@code run}'s {@link GeneratedLoad} flux for thread
 * 0 of 1, pulled one request at a time ({@code request(1)}), each request taken from the thread's
 * {@link RequestPool} and given back at once (as the driver does when its reply has been
 * recorded). One op = acquire, pick the workload, compute the intended send time (open loop),
 * draw and format the key, point at the value, release.
 *
 * <p>Workload: memcache {@code set} (so the value-size draw is included), 64-byte values, 100,000
 * keys of 16 bytes; {@code closed} has no rate, {@code open} has 50,000/s.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar GeneratedLoadBench -prof gc}. Expected:
 * 0 B/op (the Flux.generate sink and the pool reuse everything).
 */
@State(Scope.Thread)
public class GeneratedLoadBench extends HotPathBenchmark {
    @Param({"uniform", "zipf", "sequential"})
    public String distribution;

    @Param({"closed", "open"})
    public String loop;

    private RequestPool pool;
    private RequestPuller puller;

    @Setup
    public void setup() {
        KeyspaceConfig keys = new KeyspaceConfig(100_000, 16, KeyDistribution.parse(distribution),
                KeyspaceConfig.DEFAULT_ZIPF_EXPONENT);
        WorkloadConfig w = WorkloadConfig.of(Command.SET).withKeyspace(keys).withBytes(ValueSize.fixed(64))
                .withRate(loop.equals("open") ? 50_000 : 0);
        RunConfig config = runConfig(List.of(w));
        pool = new RequestPool(4);
        puller = new RequestPuller();
        new GeneratedLoad(config).requests(0, 1, pool, System.nanoTime()).subscribe(puller);
    }

    /** A one-thread run of these workloads (what {@code GeneratedLoad} reads of it: workloads, seed, limit). */
    static RunConfig runConfig(List<WorkloadConfig> workloads) {
        return RunConfig.builder().threads(1).connections(1).workloads(workloads).build();
    }

    @TearDown
    public void tearDown() {
        puller.dispose();
    }

    @Benchmark
    public long next() {
        Request r = puller.pull();
        long key = r.firstKeyIndex() + r.intendedNanos();
        pool.release(r);
        return key;
    }
}
