package io.fluxperf.engine.load;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.connection.ClientLoop;
import io.fluxperf.engine.connection.ClientLoops;
import io.fluxperf.engine.connection.IoUringClientLoop;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.ProcessCpu;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.ServerSample;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.metrics.TcpHealth;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.pool.ServerPool;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.workload.Preload;
import io.fluxperf.engine.workload.RateControl;
import io.fluxperf.trace.LatencyHistograms;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
 * then the measured windows, each ended by a swap of figures on every event loop. The last window
 * ends by stopping the sources and waiting for every request in flight (at most the timeout), so
 * every issued request is counted in exactly one window (invariant 1).
 */
public final class LoadRun {
    private static final long LIVE_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A ramp step due this close to the last window's end is not begun. */
    private static final long STEP_AT_END_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How often a warm-up to a hit rate checks it (rpc-perf's: each one-second interval). */
    private static final long HITRATE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RunConfig config;
    private final Protocol protocol;
    private final RunListener listener;
    private final RunErrors errors = new RunErrors();
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    /** The live line's latency, all threads together (reused every second). */
    private final Histogram liveLatency = LatencyHistograms.create();
    private volatile boolean stopRequested;
    /** Why a stop was asked for when not by Ctrl-C ({@link #requestStop(StopReason)}); null otherwise. */
    private volatile StopReason stopReason;
    private HostTuning tuning = HostTuning.standard();
    private RunTrace trace;
    /** --trace-required: a run whose trace fails stops, rather than going on untraced. */
    private boolean traceRequired;
    private boolean liveSamples = true;
    /** A run directory's seconds ({@link #perSecond}): when the next is due, when the one going on began, the figures reused. */
    private boolean perSecond;
    private long nextSecondNanos = Long.MAX_VALUE;
    private long secondStartNanos;
    private List<ThreadFigures> secondSpares;
    private List<WorkloadStats> secondSum;
    private final Histogram secondLag = LatencyHistograms.create();
    private final Histogram secondConnect = LatencyHistograms.create();
    private ClientLoops sharedLoops;
    /** --stats-interval: when the next block is due (System.nanoTime), and what was printed. */
    private long nextStatsNanos = Long.MAX_VALUE;
    private long lastStatsNanos;
    private long loadStartNanos;
    /** The generated schedule ends by itself ({@code --start-at}): the last window waits for it to be sent. */
    private boolean scheduleEnds;
    private long lastProtocolErrors;
    private long lastConnectionErrors;
    private final List<IntervalSample> intervals = new ArrayList<>();
    /** A statistics block's send lag, all threads together (reused every block). */
    private final Histogram intervalLag = LatencyHistograms.create();
    /** The servers of a run with several, or null. */
    private ServerPool servers;
    /** Open loop: the rates, which the admin endpoint and ramps may change; null: the configured rates. */
    private RateControl rateControl;
    /** The admin endpoint's figures, fed at each statistics interval; null without one. */
    private LiveFeed feed;
    /** How often statistics are collected (--stats-interval, else every second for the feed), ns; 0: never. */
    private long statsEveryNanos;
    /** The admin endpoint's per-workload histograms of an interval, all threads together (reused). */
    private Histogram[] feedLatency;
    private Histogram[] feedService;
    /** The measured windows have begun: the running window's figures are the run's. */
    private boolean measuring;
    /** Figures kept apart from the load threads' and added to each window by time (a cluster's topology, subscribers). */
    private final List<RunAddendum> addenda = new ArrayList<>();
    /** Rate changes made on other threads, told to the listener on the run's thread. */
    private final java.util.concurrent.ConcurrentLinkedQueue<RateControl.Change> rateChanges =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** A run of {@code config}'s protocol, as the registry has it. */
    public LoadRun(RunConfig config, RunListener listener) {
        this(config, registered(config.protocol()), listener);
    }

    /**
     * A run that speaks {@code protocol}, which need not be registered: a test may watch what a
     * protocol's codecs decode by wrapping the registered one.
     */
    public LoadRun(RunConfig config, Protocol protocol, RunListener listener) {
        check(config, protocol);
        this.config = config;
        this.protocol = protocol;
        this.listener = listener;
    }

    /**
     * Whether {@code protocol} and this machine can run {@code config}, as the constructor checks.
     *
     * @throws UserError naming the flag when not
     */
    public static void check(RunConfig config, Protocol protocol) {
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
    }

    private static Protocol registered(String name) {
        Protocol found = Protocols.find(name);
        if (found == null) {
            throw new UserError("--protocol: unknown protocol '" + name + "'; expected one of " + Protocols.names());
        }
        return found;
    }

    /** Ends the run early as asked by the admin endpoint ({@code POST /quitquitquit}): as {@link #requestStop()}, but a wanted end. */
    public void requestQuit() {
        requestStop(StopReason.QUIT);
    }

    /** Ends the run early (Ctrl-C): sending stops, requests in flight finish, the report covers what ran. */
    public void requestStop() {
        stopRequested = true;
        stopSignal.countDown();
    }

    /**
     * Ends the run early for {@code reason} (a failed objective under --slo-abort): as
     * {@link #requestStop()}, and the result says why.
     */
    public void requestStop(StopReason reason) {
        stopReason = reason;
        requestStop();
    }

    /**
     * What this run may do to the JVM and the machine ({@link HostTuning#standard()} unless told):
     * a run in a process of its own gets {@link HostTuning#ownProcess}.
     */
    public LoadRun tuning(HostTuning policy) {
        this.tuning = policy;
        return this;
    }

    /**
     * Runs on {@code shared} loops, which outlive the run (its caller closes them), instead of
     * loops of its own: a warm-up and the run after it then load on the same threads.
     */
    public LoadRun loops(ClientLoops shared) {
        if (shared.ioUring() != config.connection().ioUring()) {
            throw new IllegalArgumentException("the shared loops' transport differs from the run's");
        }
        this.sharedLoops = shared;
        return this;
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
     * Whether the listener gets a {@link RunListener#live} sample every second (the default).
     * Off when nothing shows them ({@code --no-live}): each sample adds every thread's histograms
     * on its loop.
     */
    public LoadRun liveSamples(boolean live) {
        this.liveSamples = live;
        return this;
    }

    /**
     * Whether the listener gets each second of the measured windows ({@link RunListener#second}),
     * for a run directory: each thread then records every request twice, into its window's and its
     * second's figures, and hands the second's over once a second (a task on its loop); the run's
     * thread adds them up.
     */
    public LoadRun perSecond(boolean on) {
        this.perSecond = on;
        return this;
    }

    /** Hands the second going on to the listener, every thread's figures added, and starts the next. */
    private void emitSecond(List<LoadDriver> drivers, int window) {
        List<CompletableFuture<ThreadFigures>> futures = new ArrayList<>();
        for (int t = 0; t < drivers.size(); t++) {
            futures.add(drivers.get(t).swapSecond(secondSpares != null ? secondSpares.get(t) : drivers.get(t).newFigures()));
        }
        List<ThreadFigures> figures = new ArrayList<>();
        for (CompletableFuture<ThreadFigures> f : futures) {
            figures.add(await(f, Duration.ofSeconds(10)));
        }
        if (secondSum == null) {
            secondSum = new ArrayList<>();
            for (int i = 0; i < config.workloads().size(); i++) {
                secondSum.add(new WorkloadStats());
            }
        }
        for (WorkloadStats s : secondSum) {
            s.reset();
        }
        secondLag.reset();
        secondConnect.reset();
        for (ThreadFigures f : figures) {
            for (int i = 0; i < secondSum.size(); i++) {
                secondSum.get(i).add(f.workloads[i]);
            }
            secondLag.add(f.sendLag);
            secondConnect.add(f.connectLatency);
        }
        long end = ThreadFigures.takenNanos(figures);
        listener.second(new io.fluxperf.engine.metrics.SecondFigures(window, secondStartNanos, end, secondSum, secondLag,
                secondConnect));
        for (ThreadFigures f : figures) {
            f.reset();
        }
        secondSpares = figures;
        secondStartNanos = end;
    }

    public RunErrors errors() {
        return errors;
    }

    /**
     * The rates of an open-loop run come from {@code control} (which the admin endpoint may change);
     * without one, a run with ramps makes its own.
     */
    public LoadRun rateControl(RateControl control) {
        this.rateControl = control;
        return this;
    }

    /**
     * Adds {@code a}'s figures to each window and to the whole run ({@link RunAddendum}); a
     * cluster's topology is added by {@link #execute(ServerPool, String, RequestSource)} itself.
     */
    public LoadRun addendum(RunAddendum a) {
        addenda.add(a);
        return this;
    }

    /** Feeds the admin endpoint's figures every statistics interval (every second without --stats-interval). */
    public LoadRun feed(LiveFeed f) {
        this.feed = f;
        return this;
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
        return execute(target, null, targetDescription, source);
    }

    /**
     * Runs against several servers ({@code servers}, opened by the caller and closed by it), each
     * request to its key's server.
     *
     * @param source null: the config's generated workloads
     */
    public RunResult execute(ServerPool servers, String targetDescription, RequestSource source) {
        return execute(null, servers, targetDescription, source);
    }

    private RunResult execute(SocketAddress target, ServerPool servers, String targetDescription, RequestSource source) {
        this.servers = servers;
        if (servers != null && servers.topology() != null) {
            addenda.add(servers.topology());
        }
        ClientLoops owned = sharedLoops == null ? new ClientLoops(config.connection().ioUring()) : null;
        ClientLoops loops = owned != null ? owned : sharedLoops;
        List<LoadDriver> drivers = new ArrayList<>();
        Runnable unfollow = () -> { };
        try {
            CodecFactory codecs = protocol.codecs(config.protocolOptions(), config.server());
            for (int t = 0; t < config.threads(); t++) {
                ClientLoop loop = loops.get(t);
                drivers.add(new LoadDriver(t, config, protocol, codecs, loop, target, servers, errors,
                        trace != null ? trace.forThread() : null, tuning));
            }
            if (perSecond) {
                drivers.forEach(LoadDriver::keepSeconds);
            }
            connect(drivers, targetDescription);
            if (config.needsFlush()) {
                flush(drivers.get(0), targetDescription);
            }
            long preloaded = 0;
            GeneratedLoad load = new GeneratedLoad(config);
            if (rateControl == null && config.ramps().stream().anyMatch(java.util.Objects::nonNull)) {
                rateControl = new RateControl(config);
            }
            if (rateControl != null && source == null && config.isOpenLoop()) {
                load.rateControl(rateControl);
                rateControl.listener(rateChanges::add);
                unfollow = rateControl.follow(() -> drivers.forEach(LoadDriver::ratesChanged)); // at once, not at a tick
            }
            if (config.needsPreload() && !stopRequested) {
                preloaded = preload(drivers, new Preload(config, load.pattern()));
            }
            RequestSource requests = source != null ? source : load;
            for (RunAddendum a : addenda) {
                requests = a.source(requests);
            }
            return measure(drivers, requests, targetDescription, preloaded);
        } finally {
            unfollow.run();
            tuning.end();
            for (LoadDriver d : drivers) {
                await(d.close(), Duration.ofSeconds(5));
            }
            if (owned != null) {
                owned.close();
            }
        }
    }

    private void connect(List<LoadDriver> drivers, String targetDescription) {
        long sockets = drivers.stream().mapToLong(LoadDriver::slotCount).sum();
        io.fluxperf.engine.connection.OpenFiles.requireRoomFor(sockets, "--connections " + config.connections()
                + (config.threads() > 1 ? " on each of " + config.threads() + " threads" : "")
                + (servers != null ? " to each server" : ""));
        List<CompletableFuture<Integer>> attempts = drivers.stream().map(LoadDriver::connectAll).toList();
        long failed = 0;
        for (CompletableFuture<Integer> a : attempts) {
            failed += await(a, Duration.ofSeconds(30));
        }
        long open = drivers.stream().mapToLong(LoadDriver::slotCount).sum() - failed;
        if (errors.fatal() != null) {
            throw new UserError(errors.fatal());
        }
        if (open == 0) {
            throw new UserError("cannot connect to " + targetDescription + ": " + errors.firstConnectFailure());
        }
        listener.connected(open, failed);
        if (feed != null) {
            feed.connected(open, failed);
        }
    }

    /** One flush to the server, or to each writable server of a pool (every server; a cluster's masters). */
    private void flush(LoadDriver driver, String targetDescription) {
        int[] to = servers == null ? new int[] {-1} : servers.writableMembers();
        RequestSource flushAll = (thread, threads, pool, start) ->
                Flux.range(0, to.length).map(i -> pool.acquire().command(Command.FLUSH, 0).addKey(0, 1).server(to[i]));
        await(driver.start(flushAll, System.nanoTime(), false, false), config.timeout().plusSeconds(5));
        ThreadFigures f = await(driver.swap(driver.newFigures(), false), Duration.ofSeconds(5));
        if (f.workloads[0].outcomes().ok() != to.length) {
            throw new UserError("--flush: " + targetDescription + " did not accept flush_all");
        }
        listener.flushed();
    }

    private long preload(List<LoadDriver> drivers, Preload preload) {
        long started = System.nanoTime();
        List<CompletableFuture<Void>> phases = new ArrayList<>();
        for (LoadDriver d : drivers) {
            phases.add(d.start(preload, started, false, false));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(phases.toArray(CompletableFuture[]::new));
        while (!all.isDone() && !stopRequested) {
            awaitStop(TimeUnit.MILLISECONDS.toNanos(100));
        }
        if (stopRequested) {
            drivers.forEach(LoadDriver::stop);
        }
        await(all, config.timeout().plusSeconds(10));
        long failed = 0;
        for (ThreadFigures f : swapAll(drivers, null, false, true)) {
            for (WorkloadStats w : f.workloads) {
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
        WindowBookkeeping bookkeeping = new WindowBookkeeping(tuning::pause, tuning.pausesBookkeeping(), config.workloads());
        if (servers != null) {
            bookkeeping.servers(servers.cluster() != null,
                    servers.cluster() != null ? servers.cluster()::refreshCount : null);
        }
        tuning.beforeLoad(config.windows(), () -> rehearseWindowEnd(), this::rehearseSummary);
        long startAt = scheduleStart();
        scheduleEnds = startAt != Long.MIN_VALUE && GeneratedLoad.scheduleEnd(config) != Long.MAX_VALUE
                && load instanceof GeneratedLoad;
        if (startAt != Long.MIN_VALUE && stopRequested) {
            startAt = System.nanoTime(); // Ctrl-C while waiting: the (empty) run ends at once
        }
        // closed-loop requests leave as soon as a driver starts, before `start`: thread times count from here
        long launched = System.nanoTime();
        long start = startAt != Long.MIN_VALUE ? startAt : launched + TimeUnit.MILLISECONDS.toNanos(1);
        boolean warmup = !config.warmup().isZero();
        statsEveryNanos = !config.statsInterval().isZero() ? config.statsInterval().toNanos()
                : feed != null ? LIVE_INTERVAL_NANOS : 0;
        if (statsEveryNanos > 0) {
            // the first interval starts now, queued on each loop ahead of its start: a closed loop's
            // first replies come before any later block could run, and would count in no block
            drivers.forEach(LoadDriver::interval);
        }
        List<CompletableFuture<Void>> phases = new ArrayList<>();
        for (LoadDriver d : drivers) {
            phases.add(d.start(load, start, true, warmup));
        }
        double[] threadSeconds = new double[phases.size()];
        Arrays.fill(threadSeconds, Double.NaN);
        List<CompletableFuture<Void>> timed = new ArrayList<>();
        for (int t = 0; t < phases.size(); t++) {
            int thread = t;
            timed.add(phases.get(t).thenRun(() -> threadSeconds[thread] = (System.nanoTime() - launched) / 1e9));
        }
        CompletableFuture<Void> exhausted = CompletableFuture.allOf(timed.toArray(CompletableFuture[]::new));
        loadStartNanos = start;
        if (statsEveryNanos > 0) {
            lastStatsNanos = start;
            nextStatsNanos = start + statsEveryNanos;
        }
        HostTuning.Load host = tuning.loadStarts(start, start + config.warmup().toNanos(), new HostTuning.Loops() {
            @Override
            public void clearWarmupFigures() {
                drivers.forEach(LoadDriver::clearWarmupFigures);
            }

            @Override
            public void wakeFromOutside() {
                drivers.forEach(LoadDriver::wakeFromOutside);
            }
        });
        StopReason stop = null;
        List<ThreadFigures> spares = null;
        // with --start-at the windows follow the schedule, so a late agent's first window holds the
        // requests due since the start, sent late (its send lag), and ends when the others' do
        long windowStart = startAt != Long.MIN_VALUE && startAt < System.nanoTime() ? startAt : System.nanoTime();
        long windowCpu = ProcessCpu.nanos();
        HitrateWarmup toHitrate = null;
        if (warmup) {
            if (config.warmupHitrate() > 0) {
                WarmupEnd end = warmUpToHitrate(drivers, host, start, exhausted);
                stop = end.stop();
                toHitrate = end.outcome();
                host.warmupEnds(); // perhaps before its bound: the exercises stop before the windows begin
            } else {
                stop = waitUntil(drivers, host, start + config.warmup().toNanos(), exhausted, 0, start);
            }
            // the first window starts when the loops start counting it, however late the run's
            // thread hands them the swap (at nice 19, and yielding, it may be late)
            List<ThreadFigures> warm = swapAll(drivers, null, true, true);
            windowStart = ThreadFigures.takenNanos(warm);
            windowCpu = ProcessCpu.nanos();
            host.measuredLoadBegins();
            spares = emptied(warm);
            if (stop == null && toHitrate != null) {
                listener.warmupEnded(toHitrate);
            } else if (stop == null) {
                listener.warmupComplete();
            }
        }
        long rampsFrom = Long.MIN_VALUE;
        if (rateControl != null && stop == null) {
            rateControl.startRamps(windowStart); // a ramp's steps are the measured windows'
            rampsFrom = rateControl.hasRamps() ? windowStart : Long.MIN_VALUE;
        }
        if (feed != null) {
            feed.measuring(windowStart);
        }
        measuring = true;
        for (RunAddendum a : addenda) {
            a.measuring(windowStart);
        }
        if (rateControl != null) {
            bookkeeping.targets(rateControl::meanConfigs);
        }
        secondStartNanos = windowStart;
        nextSecondNanos = windowStart + LIVE_INTERVAL_NANOS;
        List<WindowResult> windows = new ArrayList<>();
        for (int w = 1; w <= config.windows(); w++) {
            if (stop == null) {
                // with ramps, windows end on the steps' fixed times (start + w × duration), not each a
                // duration after the last one's late end, so that a window holds one step, not a drifting mix
                long end = rampsFrom != Long.MIN_VALUE ? rampsFrom + w * config.duration().toNanos()
                        : windowStart + config.duration().toNanos();
                stop = waitUntil(drivers, host, end, exhausted, w, windowStart);
            }
            boolean last = w == config.windows() || stop != null;
            if (last && stop == null && scheduleEnds) {
                catchUp(exhausted);
            }
            if (last) {
                for (LoadDriver d : drivers) {
                    d.stop();
                }
                await(exhausted, config.timeout().plusSeconds(5));
                long settled = System.nanoTime() + config.timeout().toNanos();
                for (RunAddendum a : addenda) {
                    a.loadEnded(settled);
                }
            }
            List<ThreadFigures> figures = swapAll(drivers, spares, false, false);
            long now = ThreadFigures.takenNanos(figures); // when the loops ended the window (see the warm-up's end)
            if (perSecond) {
                emitSecond(drivers, w); // the window's last, partial second
            }
            long cpu = ProcessCpu.nanos();
            WindowResult window = bookkeeping.window(w, windowStart, now, cpu < 0 ? -1 : cpu - windowCpu, figures);
            for (RunAddendum a : addenda) {
                window = a.window(window);
            }
            windowCpu = cpu;
            listener.window(window);
            if (feed != null) {
                feed.window(window);
            }
            bookkeeping.addToRun(window);
            windows.add(bookkeeping.keep(window)); // kept for the result: small, so long runs stay flat
            spares = emptied(figures);
            windowStart = now;
            secondStartNanos = now;
            nextSecondNanos = now + LIVE_INTERVAL_NANOS;
            if (last) {
                break;
            }
        }
        if (errors.sourceFailure() != null) {
            throw new IllegalStateException("the request source failed", errors.sourceFailure());
        }
        if (statsEveryNanos > 0) {
            statsBlock(drivers, System.nanoTime()); // the last, partial interval
        }
        tellRateChanges();
        List<Double> perThread = new ArrayList<>();
        for (double seconds : threadSeconds) {
            perThread.add(seconds);
        }
        WindowResult total = bookkeeping.run();
        for (RunAddendum a : addenda) {
            total = a.run(total);
        }
        return new RunResult(config, targetDescription, windows, total, stop == null ? StopReason.COMPLETED : stop,
                preloaded, List.copyOf(intervals), perThread, lateness(drivers), toHitrate);
    }

    /**
     * With {@code --start-at}: waits (on the run's thread, Ctrl-C ends the wait) until the start is
     * a millisecond away and returns its {@link System#nanoTime()}; a start already past is returned
     * as it is, and the listener told how late this agent is. {@link Long#MIN_VALUE}: no start time.
     */
    private long scheduleStart() {
        if (config.startAt() == null) {
            return Long.MIN_VALUE;
        }
        long at = io.fluxperf.engine.shard.StartAt.nanoTimeOf(config.startAt());
        long late = System.nanoTime() - at;
        if (late > 0) {
            listener.startedLate(late);
            return at;
        }
        long margin = TimeUnit.MILLISECONDS.toNanos(1);
        while (!stopRequested && System.nanoTime() < at - margin) {
            awaitStop(Math.min(TimeUnit.MILLISECONDS.toNanos(100), at - margin - System.nanoTime()));
        }
        return at;
    }

    /**
     * A schedule with an end ({@code --start-at}) that is not sent in full at its last window's
     * end (an agent that started late or fell behind): waits until it is, for at most the window's
     * length again, so that the agents together send the whole schedule; what was late counts as
     * send lag.
     */
    private void catchUp(CompletableFuture<Void> exhausted) {
        long bound = System.nanoTime() + config.duration().toNanos();
        while (!exhausted.isDone() && !stopRequested && System.nanoTime() < bound) {
            awaitStop(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** How a warm-up to a hit rate ended: why the run stops (null: it goes on), and the hit rate (null when it stopped). */
    private record WarmupEnd(StopReason stop, HitrateWarmup outcome) {
    }

    /**
     * A warm-up to a hit rate (--warmup-hitrate, rpc-perf's {@code warmup_hitrate}): once a second
     * the hit rate of the reads answered in that second (rpc-perf checks each interval's own
     * figures), until one reaches the target or the bound (--warmup) has passed; the last check
     * falls on the bound.
     */
    private WarmupEnd warmUpToHitrate(List<LoadDriver> drivers, HostTuning.Load host, long start,
                                      CompletableFuture<Void> exhausted) {
        long bound = start + config.warmup().toNanos();
        double target = config.warmupHitrate();
        long hits = 0;
        long misses = 0;
        long check = start;
        while (true) {
            check = Math.min(check + HITRATE_CHECK_NANOS, bound);
            StopReason stop = waitUntil(drivers, host, check, exhausted, 0, start);
            if (stop != null) {
                return new WarmupEnd(stop, null);
            }
            long allHits = 0;
            long allMisses = 0;
            for (CompletableFuture<ThreadRecorder.WarmupReads> f : drivers.stream().map(LoadDriver::warmupReads).toList()) {
                ThreadRecorder.WarmupReads r = await(f, Duration.ofSeconds(10));
                allHits += r.hits();
                allMisses += r.misses();
            }
            long answered = allHits - hits + allMisses - misses;
            Double hitrate = answered == 0 ? null : 100.0 * (allHits - hits) / answered;
            hits = allHits;
            misses = allMisses;
            boolean reached = hitrate != null && hitrate >= target;
            if (reached || check == bound) {
                return new WarmupEnd(null, new HitrateWarmup(target, hitrate, (System.nanoTime() - start) / 1e9,
                        config.warmup().toNanos() / 1e9, reached));
            }
        }
    }

    /** The figures handed back emptied, for the next swap: a window's end allocates none. */
    private List<ThreadFigures> emptied(List<ThreadFigures> figures) {
        for (ThreadFigures f : figures) {
            f.reset();
            tuning.pause();
        }
        return figures;
    }

    /**
     * Waits until {@code deadline}, a stop request, or the sources running out; passes a live
     * sample every second while a window runs, a statistics block every interval, and lets the host
     * policy do what it has due. Returns why the run stops, or null at the deadline.
     */
    private StopReason waitUntil(List<LoadDriver> drivers, HostTuning.Load host, long deadline,
                                 CompletableFuture<Void> exhausted, int window, long windowStart) {
        long nextLive = windowStart + LIVE_INTERVAL_NANOS;
        long lastRequests = 0;
        long lastSample = windowStart;
        while (true) {
            if (stopRequested) {
                StopReason why = stopReason;
                return why != null ? why : StopReason.INTERRUPTED;
            }
            if (traceRequired && trace.failed()) {
                return StopReason.TRACE_FAILED;
            }
            long now = System.nanoTime();
            if (exhausted.isDone() && scheduleEnds && config.requests() == 0) {
                // the schedule's last request has gone: its last window still ends on time
                if (now >= deadline) {
                    return null;
                }
            } else if (exhausted.isDone()) {
                return config.requests() > 0 ? StopReason.REQUEST_LIMIT : StopReason.SOURCE_ENDED;
            }
            long hostNext = host.tick(now);
            // a ramp's step that falls on the last window's end is not begun: nothing would be sent at
            // it; one on another window's end begins now, not after that window's bookkeeping
            boolean stepAtEnd = rateControl != null && window == config.windows()
                    && rateControl.nextStepNanos() >= deadline - STEP_AT_END_NANOS;
            if (rateControl != null && !stepAtEnd) {
                rateControl.tick(now);
                tellRateChanges();
            }
            if (now >= deadline) {
                return null;
            }
            if (now >= nextStatsNanos) {
                statsBlock(drivers, now);
                nextStatsNanos += statsEveryNanos;
            }
            if (window > 0 && perSecond && now >= nextSecondNanos) {
                emitSecond(drivers, window);
                nextSecondNanos += LIVE_INTERVAL_NANOS;
            }
            if (window > 0 && liveSamples && now >= nextLive) {
                LiveSample sample = liveSample(window, windowStart, drivers, lastRequests, lastSample);
                lastRequests = sample.requests();
                lastSample = System.nanoTime();
                listener.live(sample);
                nextLive += LIVE_INTERVAL_NANOS;
            }
            long wake = Math.min(window > 0 && liveSamples ? Math.min(deadline, nextLive) : deadline, nextStatsNanos);
            wake = Math.min(wake, hostNext);
            if (rateControl != null && !stepAtEnd) {
                wake = Math.min(wake, rateControl.nextStepNanos());
            }
            if (window > 0 && perSecond) {
                wake = Math.min(wake, nextSecondNanos);
            }
            awaitStop(Math.min(wake - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(20)));
        }
    }

    /**
     * One window's end on made-up figures, through the code a real one runs (the listener's too),
     * for the host policy's rehearsal: values over the whole range, and counts of every size a
     * window holds (HdrHistogram's encoder writes a count in 1 to 9 bytes).
     */
    private void rehearseWindowEnd() {
        List<ThreadFigures> made = List.of(new ThreadFigures(config.workloads().size()));
        ThreadFigures f = made.get(0);
        for (WorkloadStats w : f.workloads) {
            for (int v = 0; v < 2_000; v++) {
                long nanos = 1_000L + (long) v * v * 97;
                long count = 1L << ((v * 7) % 40);
                w.latency().recordValueWithCount(nanos, count);
                w.service().recordValueWithCount(nanos / 2, count);
                f.sendLag.recordValueWithCount(v, count);
            }
        }
        f.loopCpuNanos = 900_000_000L; // far beyond the made-up window: the saturated-client line is rehearsed too
        f.takenNanos = 1;
        WindowBookkeeping rehearsal = new WindowBookkeeping(() -> { }, true, config.workloads());
        WindowResult window = rehearsal.window(0, 0, 1, -1, made);
        listener.rehearseWindow(window);
        rehearsal.addToRun(window);
        rehearsal.keep(window).total().latency().getValueAtPercentile(99);
        rehearsal.run();
    }

    private void rehearseSummary() {
        Histogram h = LatencyHistograms.create();
        for (int v = 1; v < 2_000; v++) {
            h.recordValueWithCount(1_000L + (long) v * v * 97, v);
        }
        LatencySummary.of(h);
    }

    /** Collects and reports one statistics block: the interval's figures from every thread. */
    private void statsBlock(List<LoadDriver> drivers, long now) {
        List<CompletableFuture<ThreadRecorder.IntervalFigures>> futures = drivers.stream().map(LoadDriver::interval).toList();
        WorkloadStats all = new WorkloadStats();
        ConnectionCounts conns = new ConnectionCounts();
        intervalLag.reset();
        List<ServerStats> perServer = null;
        List<CompletableFuture<ThreadRecorder.WindowSoFar>> soFar = feed != null && measuring
                ? drivers.stream().map(LoadDriver::windowSoFar).toList() : List.of();
        if (feed != null && feedLatency == null) {
            feedLatency = ThreadRecorder.adminHistograms(config.workloads().size());
            feedService = ThreadRecorder.adminHistograms(config.workloads().size());
        }
        if (feed != null) {
            for (int i = 0; i < feedLatency.length; i++) {
                feedLatency[i].reset();
                feedService[i].reset();
            }
        }
        TcpHealth tcp = new TcpHealth();
        for (CompletableFuture<ThreadRecorder.IntervalFigures> f : futures) {
            ThreadRecorder.IntervalFigures s = await(f, Duration.ofSeconds(10));
            all.add(s.all());
            tcp.add(s.tcp());
            if (feed != null && s.latencyByWorkload() != null) {
                for (int i = 0; i < feedLatency.length; i++) {
                    feedLatency[i].add(s.latencyByWorkload()[i]);
                    feedService[i].add(s.serviceByWorkload()[i]);
                }
            }
            conns.add(s.connections());
            if (s.sendLag() != null) {
                intervalLag.add(s.sendLag());
            }
            if (s.servers() != null) {
                if (perServer == null) {
                    perServer = s.servers();
                } else {
                    for (int i = 0; i < perServer.size(); i++) {
                        perServer.get(i).add(s.servers().get(i));
                    }
                }
            }
        }
        boolean paced = intervalLag.getTotalCount() > 0;
        long protocolErrors = errors.protocolErrors();
        long connectionErrors = errors.connectionErrors() + errors.connectFailures();
        OutcomeCounts o = all.outcomes();
        boolean timed = all.latency().getTotalCount() > 0;
        IntervalSample sample = new IntervalSample((now - loadStartNanos) / 1e9, (now - lastStatsNanos) / 1e9,
                all.sent(), o.requests(), o.ok(), o.miss(), o.error(), o.timeout(), o.closed(), conns.attempts(),
                conns.openedCount(), conns.closedCount(), conns.failures(), conns.open(), all.bytesReceived(),
                all.bytesSent(), protocolErrors - lastProtocolErrors, connectionErrors - lastConnectionErrors,
                timed ? all.latency().getValueAtPercentile(50) : 0, timed ? all.latency().getValueAtPercentile(99) : 0,
                timed ? all.service().getValueAtPercentile(50) : 0, timed ? all.service().getValueAtPercentile(99) : 0,
                paced ? intervalLag.getValueAtPercentile(50) : 0, paced ? intervalLag.getValueAtPercentile(99) : 0,
                paced ? intervalLag.getMaxValue() : 0,
                perServer == null ? List.of() : ServerSample.of(perServer, (now - lastStatsNanos) / 1e9), tcp.figures());
        lastProtocolErrors = protocolErrors;
        lastConnectionErrors = connectionErrors;
        lastStatsNanos = now;
        if (feed != null) {
            long[][] window = null;
            ConnectionCounts windowConnections = null;
            if (!soFar.isEmpty()) {
                window = new long[config.workloads().size()][];
                windowConnections = new ConnectionCounts();
                for (CompletableFuture<ThreadRecorder.WindowSoFar> f : soFar) {
                    ThreadRecorder.WindowSoFar part = await(f, Duration.ofSeconds(10));
                    for (int i = 0; i < window.length; i++) {
                        if (window[i] == null) {
                            window[i] = part.counts()[i].clone();
                        } else {
                            for (int k = 0; k < window[i].length; k++) {
                                window[i][k] += part.counts()[i][k];
                            }
                        }
                    }
                    windowConnections.add(part.connections());
                }
            }
            feed.interval(sample, all.latency(), intervalLag, feedLatency, feedService, window, windowConnections,
                    rateControl != null ? rateControl.rates()
                            : config.workloads().stream().mapToDouble(WorkloadConfig::rate).toArray());
        }
        if (!config.statsInterval().isZero()) {
            intervals.add(sample);
            listener.stats(sample);
        }
    }

    /** Tells the listener of the rate changes made since the last call, on the run's thread. */
    private void tellRateChanges() {
        for (RateControl.Change c = rateChanges.poll(); c != null; c = rateChanges.poll()) {
            listener.rateChanged(c, config.workloads().get(c.workload()).name());
        }
    }

    /** How the threads kept their schedule, asked once every request has ended (after the last window). */
    private SendLateness lateness(List<LoadDriver> drivers) {
        List<CompletableFuture<SendLateness>> futures = drivers.stream().map(LoadDriver::lateness).toList();
        List<SendLateness> threads = new ArrayList<>();
        for (CompletableFuture<SendLateness> f : futures) {
            threads.add(await(f, Duration.ofSeconds(10)));
        }
        return SendLateness.merge(threads);
    }

    /**
     * Ends every thread's interval at about the same moment and returns their figures.
     *
     * @param spares emptied figures to record into next, one per thread in thread order; null: new ones
     */
    private List<ThreadFigures> swapAll(List<LoadDriver> drivers, List<ThreadFigures> spares, boolean endWarmup,
                                        boolean discarded) {
        List<CompletableFuture<ThreadFigures>> futures = new ArrayList<>();
        for (int t = 0; t < drivers.size(); t++) {
            LoadDriver d = drivers.get(t);
            ThreadFigures spare = spares != null ? spares.get(t) : d.newFigures();
            futures.add(d.swap(spare, endWarmup, discarded));
        }
        List<ThreadFigures> figures = new ArrayList<>();
        for (CompletableFuture<ThreadFigures> f : futures) {
            figures.add(await(f, Duration.ofSeconds(10)));
        }
        return figures;
    }

    private LiveSample liveSample(int window, long windowStart, List<LoadDriver> drivers, long lastRequests, long lastSample) {
        List<CompletableFuture<ThreadRecorder.LiveCounts>> futures = drivers.stream().map(LoadDriver::live).toList();
        long requests = 0;
        long failed = 0;
        liveLatency.reset();
        for (CompletableFuture<ThreadRecorder.LiveCounts> f : futures) {
            ThreadRecorder.LiveCounts c = await(f, Duration.ofSeconds(10));
            requests += c.requests();
            failed += c.failed();
            liveLatency.add(c.latency());
        }
        long now = System.nanoTime();
        double rate = (requests - lastRequests) / Math.max(1e-9, (now - lastSample) / 1e9);
        long p99 = liveLatency.getTotalCount() == 0 ? 0 : liveLatency.getValueAtPercentile(99.0);
        return new LiveSample(window, now - windowStart, requests, failed, p99, rate);
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
