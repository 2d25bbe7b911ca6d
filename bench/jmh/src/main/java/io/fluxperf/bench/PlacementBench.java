package io.fluxperf.bench;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.PoolOptions;
import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ServerDistribution;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.pool.PoolRouter;
import io.fluxperf.engine.pool.ServerPool;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.protocol.resp.cluster.HashSlots;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Where a request of a run with several servers goes, per request: {@code place} is a load
 * thread's {@link PoolRouter} on a 16-byte key over 3 servers, by libmemcached's weighted ketama
 * (an MD5 of the key and a binary search of 480 points) or modula (one-at-a-time hash);
 * {@code clusterSlot} is redis Cluster's CRC16 slot of the same key. Keys cycle over 1,024 so that
 * the search is not one cached path.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar PlacementBench -prof gc}. Expected:
 * 0 B/op everywhere.
 */
public class PlacementBench extends HotPathBenchmark {

    @State(Scope.Thread)
    public static class Pool {
        @Param({"ketama", "modula"})
        public String distribution;

        ServerPool pool;
        PoolRouter router;
        final Request[] requests = new Request[1024];
        int next;

        @Setup
        public void setup() {
            RunConfig config = RunConfig.builder().pool(PoolOptions.of(
                    List.of("127.0.0.1:11211", "127.0.0.1:11212", "127.0.0.1:11213"),
                    ServerDistribution.parse(distribution), false, ReadFrom.MASTER))
                    .workload(WorkloadConfig.of(Command.GET)).build();
            pool = ServerPool.open(config, Protocols.find("memcache"));
            router = pool.newRouter();
            for (int i = 0; i < requests.length; i++) {
                requests[i] = new Request().command(Command.GET, 0).addKey(i * 7919L, KeyspaceConfig.DEFAULT_KEY_LENGTH);
            }
        }

        @TearDown
        public void close() {
            pool.close();
        }
    }

    @Benchmark
    public int place(Pool p) {
        Request r = p.requests[p.next++ & 1023];
        r.server(-1);
        return p.router.place(r);
    }

    @Benchmark
    public int clusterSlot(Pool p) {
        Request r = p.requests[p.next++ & 1023];
        return HashSlots.slotOf(r.keyBytes(), r.keyOffset(0), r.keyLength(0));
    }
}
