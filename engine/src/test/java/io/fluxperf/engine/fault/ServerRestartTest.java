package io.fluxperf.engine.fault;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.MemcachedProcess;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static io.fluxperf.engine.fault.FaultRun.answered;
import static io.fluxperf.engine.fault.FaultRun.assertTrueAbout;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * memcached is killed (SIGKILL) in the middle of a run and started again on the same port a
 * second later: the run goes on to its end, every window reconciles, the connection losses and
 * failed reconnects are counted, and traffic is back within 2 s of the server's return.
 */
@Tag("timing")
class ServerRestartTest {
    private static final Duration WINDOW = Duration.ofMillis(250);
    private static final int WINDOWS = 28;
    private static final int CONNECTIONS = 8;
    /** "get " + a 16-byte key + "\r\n". */
    private static final int GET_BYTES = 22;

    @TempDir
    Path dir;

    @Test
    void serverKilledAndRestartedOnTheSamePort() {
        assertTimeoutPreemptively(Duration.ofSeconds(40), this::killAndRestart);
    }

    private void killAndRestart() throws Exception {
        MemcachedProcess memcached = MemcachedProcess.start();
        int port = memcached.port();
        FaultRun run = new FaultRun(FaultRun.config(CONNECTIONS, 2, WINDOW, WINDOWS, Duration.ofMillis(500),
                WorkloadConfig.of(Command.GET).withRate(4000)), dir.resolve("trace"));
        long killedAt;
        long restartedAt;
        RunResult result;
        try {
            CompletableFuture<RunResult> running = run.start(new InetSocketAddress("127.0.0.1", port));
            awaitWindows(run, 6); // 1.5 s of normal traffic
            memcached.kill();
            killedAt = System.nanoTime();
            Thread.sleep(1000); // deliberate: the server stays down for a second, the outage under test
            memcached = MemcachedProcess.start(port);
            restartedAt = System.nanoTime(); // it accepts connections from here on
            result = running.get(30, TimeUnit.SECONDS);
            System.out.println(run.describe());
        } finally {
            memcached.close();
        }

        assertEquals(StopReason.COMPLETED, result.stopReason());
        run.assertReconciles(GET_BYTES);

        long closes = 0;
        long failures = 0;
        long reopened = 0;
        WindowResult firstBack = null;
        for (WindowResult w : result.windows()) {
            closes += w.connections().closedCount();
            failures += w.connections().failures();
            if (w.startNanos() >= killedAt) {
                reopened += w.connections().openedCount();
            }
            if (w.startNanos() > killedAt + TimeUnit.MILLISECONDS.toNanos(50) && w.endNanos() < restartedAt) {
                assertTrueAbout(answered(w.total()) == 0, "no replies while the server is dead: " + FaultRun.describe(w), run);
            }
            if (firstBack == null && w.startNanos() >= restartedAt && answered(w.total()) > 0) {
                firstBack = w;
            }
        }
        assertTrueAbout(closes >= CONNECTIONS, "every connection's loss is counted: " + closes, run);
        assertTrueAbout(failures > 0, "reconnects refused while the server was down are counted", run);
        assertTrueAbout(reopened >= CONNECTIONS, "every connection came back: " + reopened, run);
        assertTrueAbout(firstBack != null, "traffic resumed", run);
        long resumedAfter = firstBack.endNanos() - restartedAt;
        assertTrueAbout(resumedAfter <= TimeUnit.SECONDS.toNanos(2),
                "replies again within 2 s of the restart (by " + resumedAfter / 1_000_000 + " ms)", run);
        WindowResult last = result.windows().get(result.windows().size() - 1);
        assertEquals(CONNECTIONS, last.connections().open(), "all connections open at the end");
        assertTrueAbout(answered(last.total()) > 0, "the last window has traffic", run);
    }

    private static void awaitWindows(FaultRun run, int n) {
        await(n + " windows").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(5))
                .until(() -> run.windows.size() >= n);
    }
}
