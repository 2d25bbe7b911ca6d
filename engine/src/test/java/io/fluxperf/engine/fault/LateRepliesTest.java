package io.fluxperf.engine.fault;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.Fault;
import io.fluxperf.testkit.FaultProxy;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static io.fluxperf.engine.fault.FaultRun.assertTrueAbout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Replies that arrive around their request's timeout (the reply delay switches between 120 ms
 * under and 100 ms over the timeout every 150 ms): some make it, some time out, and a reply that
 * comes after its request timed out is never taken as the reply to a later request (the
 * connection is closed at the timeout). Every hit is checked against its own key's value.
 */
@ExtendWith(RealServers.class)
class LateRepliesTest {
    private static final Duration TIMEOUT = Duration.ofMillis(300);

    @TempDir
    Path dir;

    @Test
    void repliesAfterTheTimeoutAreNeverGivenToLaterRequests(MemcachedProcess memcached) {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (FaultProxy proxy = FaultProxy.start("127.0.0.1", memcached.port())) {
                WorkloadConfig gets = WorkloadConfig.of(Command.GET).withHit(true).withBytes(ValueSize.fixed(100))
                        .withKeyspace(new KeyspaceConfig(250, 16, KeyDistribution.UNIFORM, 1));
                FaultRun run = new FaultRun(FaultRun.config(16, 8, Duration.ofSeconds(1), 3, TIMEOUT, gets), dir.resolve("trace"));
                AutoCloseable[] delays = new AutoCloseable[1];
                run.onPreloaded(() -> delays[0] = proxy.rotate(Duration.ofMillis(150), List.of(
                        Fault.named("in time", p -> p.delay(FaultProxy.Direction.TO_CLIENT, TIMEOUT.minusMillis(120))),
                        Fault.named("late", p -> p.delay(FaultProxy.Direction.TO_CLIENT, TIMEOUT.plusMillis(100))))));
                ValueCheckingProtocol check = run.checkValues();
                run.execute(proxy.address());
                delays[0].close();
                System.out.println(run.describe() + "\n" + check.summary() + "\n" + proxy.counters());

                run.assertReconciles(22);
                OutcomeCounts o = run.result.total().total().outcomes();
                assertTrueAbout(o.timeout() > 10, "requests time out", run);
                assertTrueAbout(o.ok() > 300, "replies in time are hits", run);
                assertEquals(0, o.error(), "no late reply is taken for garbage or for another request's reply");
                assertEquals(o.ok(), check.okReads.get());
                assertEquals(check.okReads.get(), check.ownValue.get(), check.summary());
            }
        });
    }
}
