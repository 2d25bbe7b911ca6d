package io.fluxperf.engine.fault;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.Fault;
import io.fluxperf.testkit.FaultCounters;
import io.fluxperf.testkit.FaultProxy;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static io.fluxperf.engine.fault.FaultRun.assertTrueAbout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Replies that are swapped between connections, cut short or corrupted on the way (through a
 * {@link FaultProxy} in front of memcached). Every key first gets its own value (--hit: the value
 * of key k is a slice of the run's pattern from k mod 251, and the 250 keys all differ), then gets
 * run through the faults; {@link ValueCheckingProtocol} looks at every reply the engine takes as a
 * hit. The engine must count the damage as errors or closes, throw nothing, and never give a
 * request a reply that belongs to another.
 */
@ExtendWith(RealServers.class)
class CorruptRepliesTest {
    private static final int KEYS = 250;
    private static final int VALUE_BYTES = 100;
    private static final int GET_BYTES = 22;

    @TempDir
    Path dir;
    @RealServer
    private MemcachedProcess memcached;
    private FaultProxy proxy;
    private final List<AutoCloseable> schedules = new ArrayList<>();

    @BeforeEach
    void startProxy() {
        proxy = FaultProxy.start("127.0.0.1", memcached.port());
    }

    @AfterEach
    void stopProxy() throws Exception {
        for (AutoCloseable s : schedules) {
            s.close();
        }
        proxy.close();
    }

    private static WorkloadConfig hitGets() {
        return WorkloadConfig.of(Command.GET).withHit(true).withBytes(ValueSize.fixed(VALUE_BYTES))
                .withKeyspace(new KeyspaceConfig(KEYS, 16, KeyDistribution.UNIFORM, 1));
    }

    private FaultRun run(Runnable faults) {
        FaultRun run = new FaultRun(FaultRun.config(8, 4, Duration.ofSeconds(1), 3, Duration.ofMillis(300), hitGets()),
                dir.resolve("trace"));
        run.onPreloaded(faults); // the preload goes through clean
        return run;
    }

    @Test
    void swappedTruncatedAndCorruptedRepliesAreNeverGivenToAnotherRequest() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            FaultRun run = run(() -> {
                proxy.corrupt(1e-4, FaultProxy.Corruption.FLIP, 11);
                schedules.add(proxy.every(Duration.ofMillis(100), Fault.swap()));
                schedules.add(proxy.rotate(Duration.ofMillis(100),
                        List.of(Fault.truncate(60), Fault.truncate(5), Fault.truncate(131), Fault.truncate(200))));
            });
            ValueCheckingProtocol check = run.checkValues();
            run.execute(proxy.address());
            System.out.println(run.describe());

            run.assertReconciles(GET_BYTES);
            OutcomeCounts o = run.result.total().total().outcomes();
            FaultCounters faults = proxy.counters();
            String about = check.summary() + "\n" + faults;
            assertTrueAbout(faults.swaps() > 10 && faults.truncations() > 10 && faults.bytesCorrupted() > 10,
                    "the faults happened: " + about, run);
            assertTrueAbout(o.error() > 0, "swapped and corrupted replies count as errors; " + about, run);
            assertTrueAbout(o.closed() > 0, "truncated replies end as closed; " + about, run);
            assertTrueAbout(o.ok() > 1000, "the rest hit; " + about, run);
            assertEquals(o.ok(), check.okReads.get(), "every hit was looked at");
            assertTrueAbout(check.otherKeysValue.get() == 0, "no hit carried another key's value; " + about, run);
            assertTrueAbout(run.errors().protocolErrors() > 0, "protocol errors are counted", run);
            assertTrueAbout(!run.errors().summary().contains("Exception"), "errors are sentences, not exceptions", run);
        });
    }

    /** Truncated replies only: each cut ends its requests as closed, never as a hit or a miss with a wrong value. */
    @Test
    void truncatedRepliesEndAsClosedAndTheConnectionReconnects() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            FaultRun run = run(() -> schedules.add(proxy.rotate(Duration.ofMillis(25),
                    List.of(Fault.truncate(1), Fault.truncate(29), Fault.truncate(30), Fault.truncate(77),
                            Fault.truncate(131), Fault.truncate(136)))));
            ValueCheckingProtocol check = run.checkValues();
            run.execute(proxy.address());
            System.out.println(run.describe());

            run.assertReconciles(GET_BYTES);
            OutcomeCounts o = run.result.total().total().outcomes();
            FaultCounters faults = proxy.counters();
            long closes = run.result.windows().stream().mapToLong(w -> w.connections().closedCount()).sum();
            assertTrueAbout(faults.truncations() > 50, "truncations happened: " + faults, run);
            assertTrueAbout(o.closed() >= faults.truncations() * 9 / 10, "a cut reply ends as closed: " + faults, run);
            assertTrueAbout(closes >= faults.truncations() * 9 / 10, "and its connection close is counted", run);
            assertEquals(0, o.error(), "a clean cut is not a protocol error");
            assertEquals(check.okReads.get(), check.ownValue.get(), check.summary());
            run.result.windows().forEach(w -> assertTrueAbout(FaultRun.answered(w.total()) > 100,
                    "connections come back and carry load in every window", run));
        });
    }

    /**
     * Value bytes damaged in flight (the framing intact) must count as errors: the values of a
     * --hit workload are known, so a hit whose bytes are not its key's value is not a hit.
     */
    @Test
    void corruptedValuesCountAsErrors() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            FaultRun run = run(() -> proxy.corrupt(1e-3, FaultProxy.Corruption.FLIP, 5));
            ValueCheckingProtocol check = run.checkValues();
            run.execute(proxy.address());
            System.out.println(run.describe());

            run.assertReconciles(GET_BYTES);
            OutcomeCounts o = run.result.total().total().outcomes();
            String about = check.summary() + "\n" + proxy.counters();
            assertTrueAbout(o.error() > 100, "damaged replies are errors; " + about, run);
            assertTrueAbout(check.corruptValue.get() == 0, "no damaged value is taken as a hit; " + about, run);
            assertTrueAbout(check.otherKeysValue.get() == 0, "no hit carried another key's value; " + about, run);
        });
    }
}
