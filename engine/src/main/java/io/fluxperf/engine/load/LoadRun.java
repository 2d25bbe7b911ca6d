package io.fluxperf.engine.load;

import io.fluxperf.engine.CpuCourtesy;
import io.fluxperf.engine.HousekeepingPriority;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.ProcessCpu;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.report.LatencySummary;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.workload.Preload;
import io.fluxperf.trace.LatencyHistograms;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;
import reactor.core.publisher.Flux;

/**
 * Runs a load test from the run's own thread: connect, flush and preload when asked, warm up,
 * then the measured windows, each ended by a snapshot taken on every event loop. The last window
 * ends by stopping the sources and waiting for every request in flight (at most the timeout), so
 * every issued request is counted in exactly one window (invariant 1).
 */
public final class LoadRun {
    private static final long LIVE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** The live line's latency, all threads together (reused every second). */
    private final Histogram liveLatency = LatencyHistograms.create();

    private final RunConfig config;
    private final Protocol protocol;
    private final RunListener listener;
    private final RunErrors errors = new RunErrors();
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private volatile boolean stopRequested;
    private RunTrace trace;
    /** --trace-required: a run whose trace fails stops, rather than going on untraced. */
    private boolean traceRequired;
    /** --stats-interval: when the next block is due (System.nanoTime), and what was printed. */
    private long nextStatsNanos = Long.MAX_VALUE;
    private long lastStatsNanos;
    private long loadStartNanos;
    private long lastProtocolErrors;
    private long lastConnectionErrors;
    private final List<IntervalSample> intervals = new ArrayList<>();
    /**
     * Lower the JIT's and this run's own thread's priority at the end of the warm-up, or 3 s into a
     * run without one (see {@link #yieldToLoops}).
     */
    private boolean yieldToLoops;
    private boolean settleBeforeLoad;
    private boolean liveSamples = true;
    /** The priority has been lowered (it is, once per run). */
    private boolean yielded;
    /**
     * Rounds of {@link #rehearseWindowEnd}. With ten, C2 still compiled HdrHistogram's
     * {@code getMean} and {@code getStdDeviation} at the first real window ends, 34–40 ms of the
     * client's CPU in the measured windows of a 50,000/s run in slices of up to 4 ms; with twenty,
     * 1.4–4.3 ms. Twenty take about 0.6 s before the first request instead of 0.45 s.
     */
    static final int REHEARSAL_ROUNDS = 20;
    /**
     * Extra summaries (mean, deviation, percentiles) per rehearsal round. Without them C2 still
     * compiled HdrHistogram's {@code getStdDeviation} at the first real window end (2 runs of 2, with
     * -XX:+PrintCompilation); with 5, it and {@code getMean} are compiled before the load.
     */
    private static final int REHEARSAL_SUMMARIES = 5;
    /**
     * The JIT compiles the paced path at full priority first: lowered from the start, it compiled
     * with the loops' leftovers while the loops, still in slow code, left it little (19–20 instead
     * of 16 µs per request for the first 30 s at 50,000/s).
     */
    private static final long YIELD_AFTER_NANOS = TimeUnit.SECONDS.toNanos(3);
    /**
     * With a warm-up, the priorities drop this long before its end rather than at it: the
     * {@code renice} it runs took 4–5 ms of the client's CPU (its process, the JVM's spawn helper
     * and reaper) inside the first window.
     */
    private static final long YIELD_BEFORE_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /**
     * How often the warm-up's figures are emptied ({@link LoadDriver#forgetWarmupFigures}). The
     * recording code is compiled during the warm-up; in one histogram that never starts again, a
     * new highest or lowest value soon stops coming, the JIT compiles those branches as never
     * taken, and the first window's new histograms took them: its start threw away the compiled
     * request path (a connection per request: LoadDriver.complete, SocketWire.handle and 7 more)
     * to compile it again while the window ran.
     */
    private static final long WARMUP_FORGET_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /**
     * For the first {@link #WAKEUP_EXERCISE_NANOS} of a paced run's warm-up ({@link #yieldToLoops}),
     * and never its last second, this run's thread queues an empty task on every loop each
     * {@link #WAKEUP_EXERCISE_INTERVAL_NANOS} ({@link LoadDriver#wakeFromOutside}). The JIT
     * compiles the loop's wait (Netty's {@code EpollIoHandler.run}) a few seconds into the load,
     * from a profile in which a task from another thread (a window's snapshot, a few a second) had
     * not yet come in during the wait's own checks. When one later did, 13–38 s into a run, the
     * compiled code met a branch the JIT had left out, was thrown away, and the loop ran slower
     * until the JIT, on the loop's CPU, had compiled it again: 6 times in 15 runs of three 10-s
     * windows at 30,000/s (in 5 of them), and not once in 16 runs with the exercise. Made
     * frequent while the profile is taken, those races are in it. It stops early: run for 6 s, its
     * own cost put the loop's last compile into the first window; at one in 500 µs, the rarest
     * race first came after the compile, and its recompile ran late in the warm-up.
     */
    private static final long WAKEUP_EXERCISE_NANOS = TimeUnit.SECONDS.toNanos(3);
    private static final long WAKEUP_EXERCISE_INTERVAL_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long WAKEUP_EXERCISE_SPARED_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** System.nanoTime() until which {@link #waitUntil} wakes the loops from outside. */
    private long exerciseWakeupsUntil = Long.MIN_VALUE;

    /** A run of {@code config}'s protocol, as the registry has it. */
    public LoadRun(RunConfig config, RunListener listener) {
        this(config, registered(config.protocol()), listener);
    }

    /**
     * A run that speaks {@code protocol}, which need not be registered: a test may watch what a
     * protocol's codecs decode by wrapping the registered one.
     */
    public LoadRun(RunConfig config, Protocol protocol, RunListener listener) {
        this.config = config;
        this.protocol = protocol;
        if (config.connection().udp() && protocol.datagramFraming() == null) {
            throw new UserError("--udp: protocol " + protocol.name() + " has no UDP framing; "
                    + Protocols.all().stream().filter(p -> p.datagramFraming() != null).map(Protocol::name).toList()
                    + " runs over UDP");
        }
        for (WorkloadConfig w : config.workloads()) {
            if (!protocol.supports(w.method())) {
                throw new UserError("--method: " + protocol.name() + " has no command '" + w.method().label() + "'");
            }
        }
        if (config.connection().ioUring()) {
            IoUringClientLoop.ensureAvailable(); // one sentence now, not a stack trace from the first loop
        }
        this.listener = listener;
    }

    private static Protocol registered(String name) {
        Protocol found = Protocols.find(name);
        if (found == null) {
            throw new UserError("--protocol: unknown protocol '" + name + "'; expected one of " + Protocols.names());
        }
        return found;
    }

    /** Ends the run early (Ctrl-C): sending stops, requests in flight finish, the report covers what ran. */
    public void requestStop() {
        stopRequested = true;
        stopSignal.countDown();
    }

    /** Writes one trace record per request of the measured run (and of the warm-up, flagged as such). */
    public LoadRun trace(RunTrace runTrace) {
        return trace(runTrace, false);
    }

    /** @param required stop the run when writing the trace fails (a full disk) */
    public LoadRun trace(RunTrace runTrace, boolean required) {
        this.trace = runTrace;
        this.traceRequired = required;
        return this;
    }

    /**
     * For a paced run in a process of its own (the CLI): at the end of the warm-up (without one, 3 s
     * into the run), the JIT compiler threads and the thread that calls {@link #execute} drop to the
     * lowest priority, so that they no longer take the loops' CPU while requests are due
     * ({@link HousekeepingPriority}). Not undone at the end: a process that runs more than once
     * must not ask for it.
     */
    public LoadRun yieldToLoops(boolean yield) {
        this.yieldToLoops = yield;
        return this;
    }

    /**
     * For any run in a process of its own (the CLI), paced or not: before the load starts, the
     * window bookkeeping of a run of several windows is compiled on made-up figures
     * ({@link #rehearseWindowEnd}, the listener's report included) and the heap is collected once.
     * Without it, closed-loop runs of 1-s windows on one CPU measured 18-23k requests/s in window 2
     * against 53-81k in window 1 (7 runs; 54-59k with it, 3 runs): the JIT compiled the first
     * window's compaction and report, 300 methods, while the loop needed the CPU. It cost about
     * half a second before the load while kept windows were packed, less now that they are
     * encoded. {@link #yieldToLoops} implies it.
     */
    public LoadRun settleBeforeLoad(boolean settle) {
        this.settleBeforeLoad = settle;
        return this;
    }

    /**
     * Whether the listener gets a {@link RunListener#live} sample every second (the default).
     * Off when nothing shows them ({@code --no-live}): each sample adds every thread's histograms
     * on its loop, and the JIT compiled that adding in the middle of the window.
     */
    public LoadRun liveSamples(boolean live) {
        this.liveSamples = live;
        return this;
    }

    public RunErrors errors() {
        return errors;
    }

    /**
     * @param target            where to send
     * @param targetDescription how the report names it
     */
    public RunResult execute(SocketAddress target, String targetDescription) {
        return execute(target, targetDescription, null);
    }

    /**
     * Runs with requests from {@code source} (a replayed log) instead of the config's workloads; the
     * config's workloads then only name the workload indexes that the source's requests carry, for
     * the report. Flush and preload follow the config as usual.
     *
     * @param source null: the config's generated workloads
     */
    public RunResult execute(SocketAddress target, String targetDescription, RequestSource source) {
        List<ClientLoop> loops = new ArrayList<>();
        List<LoadDriver> drivers = new ArrayList<>();
        try {
            for (int t = 0; t < config.threads(); t++) {
                ClientLoop loop = ClientLoop.create("fluxperf-load-" + t, config.connection().ioUring());
                loops.add(loop);
                drivers.add(new LoadDriver(t, config, protocol, loop, target, errors,
                        trace != null ? trace.forThread() : null));
            }
            connect(drivers, targetDescription);
            if (config.needsFlush()) {
                flush(drivers.get(0), targetDescription);
            }
            long preloaded = 0;
            GeneratedLoad load = new GeneratedLoad(config);
            if (config.needsPreload() && !stopRequested) {
                preloaded = preload(drivers, new Preload(config, load.pattern()));
            }
            return measure(drivers, source != null ? source : load, targetDescription, preloaded);
        } finally {
            CpuCourtesy.end();
            for (LoadDriver d : drivers) {
                await(d.close(), Duration.ofSeconds(5));
            }
            for (ClientLoop l : loops) {
                l.dispose(Duration.ofSeconds(2));
            }
        }
    }

    private void connect(List<LoadDriver> drivers, String targetDescription) {
        List<CompletableFuture<Integer>> attempts = drivers.stream().map(LoadDriver::connectAll).toList();
        long failed = 0;
        for (CompletableFuture<Integer> a : attempts) {
            failed += await(a, Duration.ofSeconds(30));
        }
        long open = config.totalConnections() - failed;
        if (errors.fatal() != null) {
            throw new UserError(errors.fatal());
        }
        if (open == 0) {
            throw new UserError("cannot connect to " + targetDescription + ": " + errors.firstConnectFailure());
        }
        listener.connected(open, failed);
    }

    private void flush(LoadDriver driver, String targetDescription) {
        RequestSource flushOnce = (thread, threads, pool, start) ->
                Flux.generate(sink -> {
                    Request r = pool.acquire();
                    sink.next(r.command(Command.FLUSH, 0).addKey(0, 1));
                    sink.complete();
                });
        await(driver.start(flushOnce, System.nanoTime()), config.timeout().plusSeconds(5));
        ThreadSnapshot s = await(driver.snapshot(true), Duration.ofSeconds(5));
        if (s.workloads()[0].outcomes().ok() != 1) {
            throw new UserError("--flush: " + targetDescription + " did not accept flush_all");
        }
        listener.flushed();
    }

    private long preload(List<LoadDriver> drivers, Preload preload) {
        long started = System.nanoTime();
        List<CompletableFuture<Void>> phases = new ArrayList<>();
        for (LoadDriver d : drivers) {
            phases.add(d.start(preload, started));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(phases.toArray(CompletableFuture[]::new));
        while (!all.isDone() && !stopRequested) {
            awaitStop(TimeUnit.MILLISECONDS.toNanos(100));
        }
        if (stopRequested) {
            drivers.forEach(LoadDriver::stop);
        }
        await(all, config.timeout().plusSeconds(10));
        List<ThreadSnapshot> snapshots = snapshotAll(drivers, true);
        long failed = 0;
        for (ThreadSnapshot s : snapshots) {
            for (WorkloadStats w : s.workloads()) {
                failed += w.outcomes().requests() - w.outcomes().ok();
            }
        }
        if (failed == preload.keys() && failed > 0 && !stopRequested) {
            // not one write took: the server refuses them (full, read-only, another protocol)
            throw new UserError("--hit: " + errors.summaryOrNone() + "; the server accepted none of the "
                    + preload.keys() + " preload writes");
        }
        // some failed (a stall, a reset): say so, and the reads of those keys will miss
        listener.preloaded(preload.keys(), failed, (System.nanoTime() - started) / 1e9);
        return preload.keys();
    }

    private RunResult measure(List<LoadDriver> drivers, RequestSource load, String targetDescription, long preloaded) {
        boolean settle = settleBeforeLoad || yieldToLoops;
        if (settle && config.windows() > 1) { // a single window's bookkeeping comes after the load
            rehearseWindowEnd();
        }
        if (settle) {
            // the JVM's first young collection copies everything made since start (8 MB: 17.6 ms
            // with the Serial collector that a one-CPU client gets); it came after the first
            // window, in the paced load. Done now, what survives it is old, and later ones are short
            System.gc();
        }
        // closed-loop requests leave as soon as a driver starts, before `start`: thread times count from here
        long launched = System.nanoTime();
        long start = launched + TimeUnit.MILLISECONDS.toNanos(1);
        List<CompletableFuture<Void>> phases = new ArrayList<>();
        boolean warmup = !config.warmup().isZero();
        if (!config.statsInterval().isZero()) {
            // the first interval starts now, queued on each loop ahead of its start: a closed loop's
            // first replies come before any later snapshot could run, and would count in no block
            drivers.forEach(LoadDriver::intervalSnapshot);
        }
        for (LoadDriver d : drivers) {
            phases.add(d.start(load, start, true, warmup));
        }
        double[] threadSeconds = new double[phases.size()];
        java.util.Arrays.fill(threadSeconds, Double.NaN);
        List<CompletableFuture<Void>> timed = new ArrayList<>();
        for (int t = 0; t < phases.size(); t++) {
            int thread = t;
            timed.add(phases.get(t).thenRun(() -> threadSeconds[thread] = (System.nanoTime() - launched) / 1e9));
        }
        CompletableFuture<Void> exhausted = CompletableFuture.allOf(timed.toArray(CompletableFuture[]::new));
        loadStartNanos = start;
        if (!config.statsInterval().isZero()) {
            lastStatsNanos = start;
            nextStatsNanos = start + config.statsInterval().toNanos();
        }
        String stopReason = null;
        long windowStart = System.nanoTime();
        long windowCpu = ProcessCpu.nanos();
        if (warmup) {
            long warmupEnd = start + config.warmup().toNanos();
            if (yieldToLoops) {
                exerciseWakeupsUntil = Math.min(start + WAKEUP_EXERCISE_NANOS, warmupEnd - WAKEUP_EXERCISE_SPARED_NANOS);
            }
            for (long next = start + WARMUP_FORGET_NANOS; stopReason == null && next < warmupEnd; next += WARMUP_FORGET_NANOS) {
                stopReason = waitUntil(drivers, next, exhausted, 0, start);
                if (stopReason == null) {
                    drivers.forEach(LoadDriver::forgetWarmupFigures);
                }
                if (next >= warmupEnd - YIELD_BEFORE_WINDOW_NANOS) {
                    yieldNow();
                }
            }
            if (stopReason == null) {
                stopReason = waitUntil(drivers, warmupEnd, exhausted, 0, start);
            }
            // the first window starts when the loops start counting it, however late the run's
            // thread (at nice 19 after yieldNow, and yielding as it makes the next window's
            // histograms) hands them the swap: its own clock put 1-2 % of a window's requests in
            // the next one at 50,000/s with --busy-poll
            windowStart = ThreadSnapshot.takenNanos(snapshotAll(drivers, true, true));
            windowCpu = ProcessCpu.nanos();
            yieldNow(); // at the latest: the paced path is compiled by now
            if (stopReason == null) {
                listener.warmupComplete();
            }
        }
        List<WindowResult> windows = new ArrayList<>();
        WindowResult total = null;
        for (int w = 1; w <= config.windows(); w++) {
            if (stopReason == null) {
                stopReason = waitUntil(drivers, windowStart + config.duration().toNanos(), exhausted, w, windowStart);
            }
            boolean last = w == config.windows() || stopReason != null;
            if (last) {
                for (LoadDriver d : drivers) {
                    d.stop();
                }
                await(exhausted, config.timeout().plusSeconds(5));
            }
            List<ThreadSnapshot> snapshots = snapshotAll(drivers, true);
            long now = ThreadSnapshot.takenNanos(snapshots); // when the loops ended the window (see the warm-up's end)
            long cpu = ProcessCpu.nanos();
            WindowResult window = assemble(w, windowStart, now, cpu < 0 ? -1 : cpu - windowCpu, snapshots);
            windowCpu = cpu;
            listener.window(window);
            total = total == null ? window : total.merge(0, window);
            windows.add(window.compact()); // kept for the result: small, so long runs stay flat
            windowStart = now;
            if (last) {
                break;
            }
        }
        if (errors.sourceFailure() != null) {
            throw new IllegalStateException("the request source failed", errors.sourceFailure());
        }
        total = total.merge(0, WindowResult.empty(0, total.startNanos(), config.workloads()));
        if (!config.statsInterval().isZero()) {
            statsBlock(drivers, System.nanoTime()); // the last, partial interval
        }
        List<Double> perThread = new ArrayList<>();
        for (double seconds : threadSeconds) {
            perThread.add(seconds);
        }
        return new RunResult(config, targetDescription, windows, total, stopReason == null ? "completed" : stopReason,
                preloaded, List.copyOf(intervals), perThread);
    }

    /**
     * Waits until {@code deadline}, a stop request, or the sources running out; prints a live
     * sample every second while a window runs. Returns the stop reason, or null at the deadline.
     */
    private String waitUntil(List<LoadDriver> drivers, long deadline, CompletableFuture<Void> exhausted, int window, long windowStart) {
        long nextLive = windowStart + LIVE_INTERVAL_NANOS;
        long lastRequests = 0;
        long lastSample = windowStart;
        while (true) {
            if (stopRequested) {
                return "interrupted";
            }
            if (traceRequired && trace.failed()) {
                return "trace failed";
            }
            if (exhausted.isDone()) {
                return "requests";
            }
            long now = System.nanoTime();
            if (config.warmup().isZero() && now - loadStartNanos >= YIELD_AFTER_NANOS) {
                yieldNow();
            }
            if (now >= deadline) {
                return null;
            }
            if (now >= nextStatsNanos) {
                statsBlock(drivers, now);
                nextStatsNanos += config.statsInterval().toNanos();
            }
            if (window > 0 && liveSamples && now >= nextLive) {
                LiveSample sample = liveSample(window, windowStart, drivers, lastRequests, lastSample);
                lastRequests = sample.requests();
                lastSample = System.nanoTime();
                listener.live(sample);
                nextLive += LIVE_INTERVAL_NANOS;
            }
            long wake = Math.min(window > 0 && liveSamples ? Math.min(deadline, nextLive) : deadline, nextStatsNanos);
            if (now < exerciseWakeupsUntil) {
                for (LoadDriver d : drivers) {
                    d.wakeFromOutside();
                }
                wake = Math.min(wake, now + WAKEUP_EXERCISE_INTERVAL_NANOS);
            }
            awaitStop(Math.min(wake - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(20)));
        }
    }

    /**
     * Does a window's bookkeeping {@link #REHEARSAL_ROUNDS} times on made-up figures before the load starts, so that the
     * JIT compiles it while the CPU is free. Done first at the end of the first window, its packed
     * histogram code (300 methods) was compiled while a paced loop needed the CPU: that window's
     * successor had a send lag p99 of 1.7–2.5 ms at 50,000/s (0.65–0.71 ms with this), its process
     * 2–3 µs/request more. Five rounds of half the values did as well as ten (the first pass over
     * full-size histograms dominates) and did not help. Since kept windows are encoded
     * ({@link io.fluxperf.engine.metrics.KeptHistogram}) rather than packed, it is cheaper: the
     * run's thread used 0.82 s of CPU in its first second instead of 1.17 s.
     */
    private void rehearseWindowEnd() {
        for (int round = 0; round < REHEARSAL_ROUNDS; round++) {
            WorkloadStats[] made = new WorkloadStats[config.workloads().size()];
            Histogram lag = LatencyHistograms.create();
            for (int i = 0; i < made.length; i++) {
                made[i] = new WorkloadStats();
                for (int v = 0; v < 2_000; v++) { // values over the whole range, as a run records them
                    long nanos = 1_000L + (long) v * v * 97 + round;
                    // counts of every size a window holds: HdrHistogram's encoder writes a count in
                    // 1 to 9 bytes, and C2 code that saw only 1s was thrown away at the first real window
                    long count = 1L << ((v * 7 + round) % 40);
                    made[i].latency().recordValueWithCount(nanos, count);
                    made[i].service().recordValueWithCount(nanos / 2, count);
                    lag.recordValueWithCount(v, count);
                }
            }
            // a loop CPU time far beyond the 1-ns window: the rehearsal prints the saturated-client line too
            ThreadSnapshot snapshot = new ThreadSnapshot(made, new ConnectionCounts(), lag, LatencyHistograms.create(), 900_000_000L, 1);
            WindowResult window = assemble(0, 0, 1, -1, List.of(snapshot));
            listener.rehearseWindow(window);
            window.merge(0, window).compact().total().latency().getValueAtPercentile(99);
            for (int k = 0; k < REHEARSAL_SUMMARIES; k++) {
                LatencySummary.of(window.total().latency());
            }
        }
    }

    /** Lowers the housekeeping threads' priority, once, if {@link #yieldToLoops} asked for it. */
    private void yieldNow() {
        if (yieldToLoops && !yielded) {
            yielded = true;
            HousekeepingPriority.lowerCompilersAndCurrentThread();
            if (HousekeepingPriority.enabled()) {
                CpuCourtesy.begin();
            }
        }
    }

    /** Collects and reports one statistics block: the interval's figures from every thread. */
    private void statsBlock(List<LoadDriver> drivers, long now) {
        List<CompletableFuture<ThreadSnapshot>> futures = drivers.stream().map(LoadDriver::intervalSnapshot).toList();
        WorkloadStats all = new WorkloadStats();
        ConnectionCounts conns = new ConnectionCounts();
        for (CompletableFuture<ThreadSnapshot> f : futures) {
            ThreadSnapshot s = await(f, Duration.ofSeconds(10));
            all.add(s.workloads()[0]);
            conns.add(s.connections());
        }
        long protocolErrors = errors.protocolErrors();
        long connectionErrors = errors.connectionErrors() + errors.connectFailures();
        OutcomeCounts o = all.outcomes();
        boolean timed = all.latency().getTotalCount() > 0;
        IntervalSample sample = new IntervalSample((now - loadStartNanos) / 1e9, (now - lastStatsNanos) / 1e9,
                all.sent(), o.requests(), o.ok(), o.miss(), o.error(), o.timeout(), o.closed(), conns.attempts(),
                conns.openedCount(), conns.closedCount(), conns.failures(), conns.open(), all.bytesReceived(),
                all.bytesSent(), protocolErrors - lastProtocolErrors, connectionErrors - lastConnectionErrors,
                timed ? all.latency().getValueAtPercentile(50) : 0, timed ? all.latency().getValueAtPercentile(99) : 0,
                timed ? all.service().getValueAtPercentile(50) : 0, timed ? all.service().getValueAtPercentile(99) : 0);
        lastProtocolErrors = protocolErrors;
        lastConnectionErrors = connectionErrors;
        lastStatsNanos = now;
        intervals.add(sample);
        listener.stats(sample);
    }

    private List<ThreadSnapshot> snapshotAll(List<LoadDriver> drivers, boolean reset) {
        return snapshotAll(drivers, reset, false);
    }

    private List<ThreadSnapshot> snapshotAll(List<LoadDriver> drivers, boolean reset, boolean endWarmup) {
        List<CompletableFuture<ThreadSnapshot>> futures = drivers.stream().map(d -> d.snapshot(reset, endWarmup)).toList();
        List<ThreadSnapshot> snapshots = new ArrayList<>();
        for (CompletableFuture<ThreadSnapshot> f : futures) {
            snapshots.add(await(f, Duration.ofSeconds(10)));
        }
        return snapshots;
    }

    private LiveSample liveSample(int window, long windowStart, List<LoadDriver> drivers, long lastRequests, long lastSample) {
        List<CompletableFuture<LoadDriver.LiveCounts>> futures = drivers.stream().map(LoadDriver::liveSnapshot).toList();
        long requests = 0;
        long failed = 0;
        liveLatency.reset();
        for (CompletableFuture<LoadDriver.LiveCounts> f : futures) {
            LoadDriver.LiveCounts c = await(f, Duration.ofSeconds(10));
            requests += c.requests();
            failed += c.failed();
            liveLatency.add(c.latency());
        }
        long now = System.nanoTime();
        double rate = (requests - lastRequests) / Math.max(1e-9, (now - lastSample) / 1e9);
        long p99 = liveLatency.getTotalCount() == 0 ? 0 : liveLatency.getValueAtPercentile(99.0);
        return new LiveSample(window, now - windowStart, requests, failed, p99, rate);
    }

    private WindowResult assemble(int number, long start, long end, long cpuNanos, List<ThreadSnapshot> snapshots) {
        WindowResult window = WindowResult.empty(number, start, config.workloads());
        List<WorkloadStats> perWorkload = window.workloads();
        ConnectionCounts connections = window.connections();
        Histogram lag = window.sendLag();
        Histogram connect = window.connectLatency();
        long[] loopCpu = new long[snapshots.size()];
        for (int t = 0; t < snapshots.size(); t++) {
            ThreadSnapshot s = snapshots.get(t);
            loopCpu[t] = s.loopCpuNanos();
            CpuCourtesy.breathe();
            connect.add(s.connectLatency());
            for (int i = 0; i < perWorkload.size(); i++) {
                perWorkload.get(i).add(s.workloads()[i]);
            }
            connections.add(s.connections());
            CpuCourtesy.breathe();
            lag.add(s.sendLag());
        }
        WorkloadStats total = window.total();
        for (WorkloadStats w : perWorkload) {
            total.add(w);
        }
        return new WindowResult(number, start, end, config.workloads(), perWorkload, total, connections, lag, connect, cpuNanos,
                loopCpu);
    }

    private void awaitStop(long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            stopSignal.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            requestStop();
        }
    }

    private static <T> T await(CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the event loops", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("an event loop task failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the event loops did not answer within " + timeout.toMillis() + " ms", e);
        }
    }
}
