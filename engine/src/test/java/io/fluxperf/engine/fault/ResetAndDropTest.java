package io.fluxperf.engine.fault;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.Fault;
import io.fluxperf.testkit.FaultCounters;
import io.fluxperf.testkit.FaultProxy;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static io.fluxperf.engine.fault.FaultRun.answered;
import static io.fluxperf.engine.fault.FaultRun.assertTrueAbout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every connection reset (RST) or dropped (FIN) again and again while an open-loop run goes on:
 * requests in flight end as closed, the closes are counted, the connections come back (backoff
 * from 50 ms), traffic continues in every window, and no exception reaches the caller.
 */
@ExtendWith(RealServers.class)
class ResetAndDropTest {
    @TempDir
    Path dir;

    @Test
    void resetsAndDropsEndRequestsAsClosedAndConnectionsComeBack(MemcachedProcess memcached) {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (FaultProxy proxy = FaultProxy.start("127.0.0.1", memcached.port())) {
                FaultRun run = new FaultRun(FaultRun.config(8, 4, Duration.ofSeconds(1), 3, Duration.ofMillis(500),
                        WorkloadConfig.of(Command.GET).withRate(5000)), dir.resolve("trace"));
                AutoCloseable[] faults = new AutoCloseable[1];
                run.onConnected(() -> faults[0] = proxy.rotate(Duration.ofMillis(300), List.of(Fault.reset(), Fault.drop())));
                run.execute(proxy.address());
                System.out.println(run.describe());
                faults[0].close();

                run.assertReconciles(22);
                FaultCounters c = proxy.counters();
                OutcomeCounts o = run.result.total().total().outcomes();
                long closes = run.result.windows().stream().mapToLong(w -> w.connections().closedCount()).sum();
                assertTrueAbout(c.resets() >= 8 * 3 && c.drops() >= 8 * 3, "faults: " + c, run);
                assertTrueAbout(closes >= (c.resets() + c.drops()) * 9 / 10, "every lost connection is counted: "
                        + closes + " of " + c, run);
                assertTrueAbout(o.closed() > 0, "requests in flight at a reset end as closed", run);
                assertEquals(0, o.error(), "a reset is not a protocol error");
                for (WindowResult w : run.result.windows()) {
                    assertTrueAbout(answered(w.total()) > 1000, "traffic goes on in window " + w.number(), run);
                }
                assertTrueAbout(run.errors().connectionErrors() > 0, "resets are reported as connection errors", run);
                assertTrueAbout(!run.errors().summary().contains("Exception"), "errors are sentences, not exceptions", run);
            }
        });
    }
}
