package io.fluxperf.engine.fault;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One traced {@link LoadRun} of a fault test: it keeps every window as it comes,
 * reads the trace back after the run, and checks that the counts reconcile (invariant 1): in every
 * window requests = the sum of outcomes = requests timed; over the run, requests = requests issued
 * (bytes sent / bytes per request, for workloads of fixed-size requests) = trace records, outcome by
 * outcome.
 */
final class FaultRun {
    final RunConfig config;
    private Protocol protocol;
    private final RunListener listener;
    private volatile LoadRun run;
    final List<WindowResult> windows = new CopyOnWriteArrayList<>();
    private final Path traceDir;
    private volatile Runnable onPreloaded = () -> { };
    private volatile Runnable onConnected = () -> { };
    RunResult result;
    long wallNanos;
    final long[] traced = new long[5];
    long traceRecords;

    FaultRun(RunConfig config, Path traceDir) {
        this.config = config;
        this.traceDir = traceDir;
        this.protocol = Protocols.find(config.protocol());
        this.listener = new RunListener() {
            @Override
            public void connected(long open, long failures) {
                onConnected.run();
            }

            @Override
            public void preloaded(long keys, long failed, double seconds) {
                onPreloaded.run();
            }

            @Override
            public void window(WindowResult window) {
                windows.add(window);
            }
        };
    }

    /** Checks every OK read's value against what the run wrote: call before {@link #execute}. */
    ValueCheckingProtocol checkValues() {
        ValueCheckingProtocol check = new ValueCheckingProtocol(protocol, GeneratedLoad.patternFor(config));
        protocol = check;
        return check;
    }

    /** The run's errors that are not outcomes; after {@link #execute}. */
    io.fluxperf.engine.load.RunErrors errors() {
        return run.errors();
    }

    /** Ends the run early, as Ctrl-C does; nothing before it has started. */
    void requestStop() {
        LoadRun r = run;
        if (r != null) {
            r.requestStop();
        }
    }

    /** One thread; {@code connections} × {@code pipeline} in flight; no warm-up; seed 7. */
    static RunConfig config(int connections, int pipeline, Duration window, int windows, Duration timeout,
                            WorkloadConfig... workloads) {
        return RunConfig.builder().threads(1).connections(connections).pipeline(pipeline).duration(window)
                .windows(windows).timeout(timeout).tcpNoDelay(true).seed(7).workloads(List.of(workloads)).build();
    }

    /** Runs when the preload is done, on the run's thread (faults that must spare the preload). */
    FaultRun onPreloaded(Runnable action) {
        this.onPreloaded = action;
        return this;
    }

    FaultRun onConnected(Runnable action) {
        this.onConnected = action;
        return this;
    }

    /** Runs on the calling thread, then reads the trace back. */
    RunResult execute(InetSocketAddress target) {
        long start = System.nanoTime();
        run = new LoadRun(config, protocol, listener);
        try (RunTrace trace = RunTrace.open(traceDir, config, "{}")) {
            run.trace(trace);
            result = run.execute(target, "127.0.0.1:" + target.getPort());
        }
        wallNanos = System.nanoTime() - start;
        try (TraceReader reader = TraceReader.open(traceDir)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                traceRecords++;
                traced[r.outcome()]++;
                assertFalse(r.warmup(), "no warm-up in fault runs");
            }
        }
        return result;
    }

    CompletableFuture<RunResult> start(InetSocketAddress target) {
        return CompletableFuture.supplyAsync(() -> execute(target));
    }

    /**
     * Invariant 1 for this run. {@code requestBytes}: the size of every request of the run (all
     * of one fixed size), to count the requests issued from the bytes sent; 0 to skip that check.
     */
    void assertReconciles(int requestBytes) {
        assertEquals(config.windows(), result.windows().size(), "every window reported: " + result.stopReason());
        for (WindowResult w : result.windows()) {
            assertWindowReconciles(w);
        }
        WindowResult total = result.total();
        assertWindowReconciles(total);
        OutcomeCounts o = total.total().outcomes();
        long sum = result.windows().stream().mapToLong(w -> w.total().outcomes().requests()).sum();
        assertEquals(sum, o.requests(), "the total is the sum of the windows");
        if (requestBytes > 0) {
            long sent = result.windows().stream().mapToLong(w -> w.total().bytesSent()).sum();
            assertEquals(0, sent % requestBytes, "bytes sent are whole requests");
            assertEquals(sent / requestBytes, o.requests(), "every request issued has ended in exactly one outcome");
        }
        assertEquals(o.requests(), traceRecords, "one trace record per request");
        long[] outcomes = {o.ok(), o.miss(), o.error(), o.timeout(), o.closed()};
        assertEquals(Arrays.toString(outcomes), Arrays.toString(traced), "trace outcomes = run outcomes");
    }

    static void assertWindowReconciles(WindowResult w) {
        OutcomeCounts o = w.total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed(), "window " + w.number());
        assertEquals(o.requests(), w.total().latency().getTotalCount(), "every request is timed, window " + w.number());
        assertEquals(o.requests(), w.total().service().getTotalCount(), "service times, window " + w.number());
        long perWorkload = w.workloads().stream().mapToLong(s -> s.outcomes().requests()).sum();
        assertEquals(o.requests(), perWorkload, "workloads add up, window " + w.number());
    }

    static String describe(WindowResult w) {
        OutcomeCounts o = w.total().outcomes();
        return String.format("window %d [%.0f ms]: requests %d ok %d miss %d error %d timeout %d closed %d;"
                        + " connections attempts %d opened %d failed %d closed %d open %d",
                w.number(), w.seconds() * 1000, o.requests(), o.ok(), o.miss(), o.error(), o.timeout(), o.closed(),
                w.connections().attempts(), w.connections().openedCount(), w.connections().failures(),
                w.connections().closedCount(), w.connections().open());
    }

    String describe() {
        StringBuilder s = new StringBuilder("stop reason ").append(result.stopReason()).append('\n');
        for (WindowResult w : result.windows()) {
            s.append(describe(w)).append('\n');
        }
        s.append("total: ").append(describe(result.total())).append('\n');
        s.append(run.errors().summary());
        return s.toString();
    }

    static long answered(WorkloadStats s) {
        return s.outcomes().ok() + s.outcomes().miss();
    }

    static void assertTrueAbout(boolean condition, String what, FaultRun run) {
        assertTrue(condition, () -> run == null ? what : what + "\n" + run.describe());
    }
}
