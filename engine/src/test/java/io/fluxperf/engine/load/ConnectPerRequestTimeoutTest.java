package io.fluxperf.engine.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.ConnectionOptions;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.memcache.MemcacheTargetServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

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
            ConnectionOptions perRequest = new ConnectionOptions(false, false, null, false, null, true, 0, 0, false);
            RunConfig config = new RunConfig(null, "memcache", 1, 2, 1, Duration.ofSeconds(30), 1, Duration.ZERO,
                    Duration.ofMillis(40), true, 20, 7, List.of(WorkloadConfig.of(Command.GET)),
                    ProtocolOptions.defaults(), perRequest, Duration.ZERO);
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
