package io.fluxperf.engine.load;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request that times out on a connect-per-request connection: the bare socket closes (a late
 * reply can never be taken for the next request's), and the slot connects anew for the next one.
 */
class ConnectPerRequestTimeoutTest {
    @Test
    void aTimedOutRequestClosesItsSocketAndTheNextConnectsAgain() {
        // the embedded target answers every request 300 ms late; the run gives up after 40 ms
        try (MemcacheTargetServer slow = MemcacheTargetServer.start(
                TargetOptions.builder().responseDelay(Duration.ofMillis(300)).build())) {
            ConnectionOptions perRequest = ConnectionOptions.builder().connectPerRequest(true).build();
            RunConfig config = RunConfig.builder().threads(1).connections(2).pipeline(1)
                    .duration(Duration.ofSeconds(30)).windows(1).timeout(Duration.ofMillis(40)).tcpNoDelay(true)
                    .requests(20).seed(7).workload(WorkloadConfig.of(Command.GET)).connection(perRequest).build();
            RunResult result = new LoadRun(config, new RunListener() { }).execute(slow.address(), "slow target");
            OutcomeCounts o = result.total().total().outcomes();
            assertEquals(20, o.requests());
            assertEquals(20, o.timeout(), "every request timed out: " + o);
            ConnectionCounts c = result.total().connections();
            assertTrue(c.openedCount() >= 20, "a new connection after each timeout: " + c.openedCount());
            assertEquals(0, c.failures());
            assertEquals(c.openedCount(), c.closedCount() + c.open(), "every opened connection is accounted for");
        }
    }
}
