package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} in a process of its own warms its hot path up in-process (the run's workloads
 * against an embedded target, on the loops the run then uses) before the first measured send,
 * with default options: the report measures memcached, not a cold JVM (whose first seconds put the
 * send lag p99 of a 10,000/s run at 120-170 ms), and memcached sees only the run's requests.
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class RunWarmupTest {
    @TempDir
    Path dir;

    @Test
    void aPacedRunIsOnTimeFromItsFirstRequestAndTheServerSeesOnlyIt(MemcachedProcess memcached) throws Exception {
        long before = memcached.stats().get("cmd_get");
        Path output = dir.resolve("run.out");
        Process run = CliRun.inChildJvm(output, "run", "-s", memcached.address(), "--method", "get",
                "--rate", "10000", "--duration", "2", "--no-live");
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the run ended");
        String text = Files.readString(output);
        assertEquals(0, run.exitValue(), text);
        String total = text.lines().dropWhile(l -> !l.equals("Total:")).filter(l -> l.startsWith("Requests:"))
                .findFirst().orElseThrow(() -> new AssertionError("no total in:\n" + text));
        long requests = CliRun.field(total, "Requests:");
        assertEquals(requests, memcached.stats().get("cmd_get") - before,
                "memcached counted the run's gets and no more: the warm-up went to the embedded target");
        String lag = text.lines().dropWhile(l -> !l.equals("Total:")).filter(l -> l.startsWith("Send lag:"))
                .findFirst().orElseThrow(() -> new AssertionError("no send lag in:\n" + text));
        // a cold JVM's was 120-170 ms here; a warmed one's about 1 ms on a machine busy with other tests
        assertTrue(CliRun.field(lag, "p99:") < 10_000_000, "send lag p99 of a warmed JVM from the first second: " + lag);
    }
}
