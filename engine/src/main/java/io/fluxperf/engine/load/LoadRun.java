package io.fluxperf.engine.load;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.connection.ClientLoop;
import io.fluxperf.engine.connection.ClientLoops;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.ProcessCpu;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.pool.ServerPool;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.engine.workload.GeneratedLoad;
import io.fluxperf.engine.workload.Preload;
import io.fluxperf.engine.workload.RateControl;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a load test's phases from the run's own thread: connect, flush and preload when asked, warm
 * up, then the measured windows, each ended by a swap of figures on every event loop. What reports
 * the run makes while it runs (seconds, statistics blocks, the live line, the admin feed, ramp
 * steps) are jobs of its {@link RunClock}. The last window
 * ends by stopping the sources and waiting for every request in flight (at most the timeout), so
 * every issued request is counted in exactly one window (invariant 1).
 */
public final class LoadRun {
    /** Without --stats-interval, how often the admin endpoint's figures are collected. */
    private static final long FEED_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RunConfig config;
    private final Protocol protocol;
    private final RunListener listener;
    private final RunErrors errors = new RunErrors();
    private final RunStop stopSignal = new RunStop();
    private HostTuning tuning = HostTuning.standard();
    private RunTrace trace;
    /** --trace-required: a run whose trace fails stops, rather than going on untraced. */
    private boolean traceRequired;
    private boolean liveSamples = true;
    /** A run directory's seconds ({@link #perSecond}). */
    private boolean perSecond;
    private ClientLoops sharedLoops;
    /** The generated schedule ends by itself ({@code --start-at}): the last window waits for it to be sent. */
    private boolean scheduleEnds;
    /** The servers of a run with several, or null. */
    private ServerPool servers;
    /** Open loop: the rates, which the admin endpoint and ramps may change; null: the configured rates. */
    private RateControl rateControl;
    /** Ramp steps and rate changes, on the run's thread; null without a rate control. */
    private RampSteps rampSteps;
    /** The admin endpoint's figures, fed at each statistics interval; null without one. */
    private LiveFeed feed;
    /** Figures kept apart from the load threads' and added to each window by time (a cluster's topology, subscribers). */
    private final List<RunAddendum> addenda = new ArrayList<>();

    /** A run of {@code config}'s protocol, as the registry has it. */
    public LoadRun(RunConfig config, RunListener listener) {
        this(config, RunPreconditions.registered(config.protocol()), listener);
    }

    /**
     * A run that speaks {@code protocol}, which need not be registered: a test may watch what a
     * protocol's codecs decode by wrapping the registered one.
     */
    public LoadRun(RunConfig config, Protocol protocol, RunListener listener) {
        RunPreconditions.check(config, protocol);
        this.config = config;
        this.protocol = protocol;
        this.listener = listener;
        errors.whenUnreachable(() -> stopSignal.request(null)); // the phase going on ends at once, then requireReachable
    }

    /** Ends the run early as asked by the admin endpoint ({@code POST /quitquitquit}): as {@link #requestStop()}, but a wanted end. */
    public void requestQuit() {
        requestStop(StopReason.QUIT);
    }

    /** Ends the run early (Ctrl-C): sending stops, requests in flight finish, the report covers what ran. */
    public void requestStop() {
        stopSignal.request(null);
    }

    /**
     * Ends the run early for {@code reason} (a failed objective under --slo-abort): as
     * {@link #requestStop()}, and the result says why.
     */
    public void requestStop(StopReason reason) {
        stopSignal.request(reason);
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
     * Off when nothing shows them ({@code --no-live}): each sample ends an interval on every thread.
     */
    public LoadRun liveSamples(boolean live) {
        this.liveSamples = live;
        return this;
    }

    /**
     * Whether the listener gets each second of the measured windows ({@link RunListener#second}),
     * for a run directory: one more consumer of the intervals the threads swap out ({@link WindowSeconds}).
     */
    public LoadRun perSecond(boolean on) {
        this.perSecond = on;
        return this;
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
            connect(drivers, targetDescription);
            ServerPreparation preparation = new ServerPreparation(config, listener, errors, servers, stopSignal::requested,
                    stopSignal::await);
            if (config.needsFlush()) {
                preparation.flush(drivers.get(0), targetDescription);
            }
            long preloaded = 0;
            GeneratedLoad load = new GeneratedLoad(config);
            if (rateControl == null && config.ramps().stream().anyMatch(java.util.Objects::nonNull)) {
                rateControl = new RateControl(config);
            }
            if (rateControl != null) {
                rampSteps = new RampSteps(rateControl, listener, config.workloads(), config.windows());
            }
            if (rateControl != null && source == null && config.isOpenLoop()) {
                load.rateControl(rateControl);
                rateControl.listener(rampSteps::changed);
                unfollow = rateControl.follow(() -> drivers.forEach(LoadDriver::ratesChanged)); // at once, not at a tick
            }
            if (config.needsPreload() && !stopSignal.requested()) {
                preloaded = preparation.preload(drivers, new Preload(config, load.pattern()));
            }
            requireReachable(targetDescription);
            RequestSource requests = source != null ? source : load;
            for (RunAddendum a : addenda) {
                requests = a.source(requests);
            }
            return measure(drivers, requests, targetDescription, preloaded);
        } finally {
            unfollow.run();
            tuning.end();
            for (LoadDriver d : drivers) {
                LoopTasks.await(d.close(), Duration.ofSeconds(5));
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
            failed += LoopTasks.await(a, Duration.ofSeconds(30));
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

    /**
     * Ends the run as a failed connect does when the target refused a datagram before it ever
     * answered (UDP has no handshake: its first request is its connect).
     */
    private void requireReachable(String targetDescription) {
        if (errors.unreachable()) {
            throw new UserError("cannot connect to " + targetDescription + ": " + errors.firstConnectFailure());
        }
    }

    private RunResult measure(List<LoadDriver> drivers, RequestSource load, String targetDescription, long preloaded) {
        WindowBookkeeping bookkeeping = new WindowBookkeeping(tuning::pause, tuning.pausesBookkeeping(), config.workloads());
        if (servers != null) {
            bookkeeping.servers(servers.cluster() != null,
                    servers.cluster() != null ? servers.cluster()::refreshCount : null);
        }
        tuning.beforeLoad(config.windows(), () -> WindowBookkeeping.rehearse(config.workloads(), listener),
                WindowBookkeeping::rehearseSummary);
        StartAtWait startWait = new StartAtWait(stopSignal::requested, stopSignal::await);
        long startAt = startWait.start(config.startAt(), listener);
        scheduleEnds = startAt != Long.MIN_VALUE && GeneratedLoad.scheduleEnd(config) != Long.MAX_VALUE
                && load instanceof GeneratedLoad;
        if (startAt != Long.MIN_VALUE && stopSignal.requested()) {
            startAt = System.nanoTime(); // Ctrl-C while waiting: the (empty) run ends at once
        }
        boolean warmup = !config.warmup().isZero();
        int workloads = config.workloads().size();
        RunClock clock = new RunClock(drivers, tuning::pause, stopSignal::await);
        RunningWindow running = clock.register(new RunningWindow(workloads, drivers.size(), drivers.get(0).serverShapes(),
                tuning::pause));
        running.warmingUp(warmup);
        long statsEvery = !config.statsInterval().isZero() ? config.statsInterval().toNanos() : feed != null ? FEED_INTERVAL_NANOS : 0;
        StatsBlocks stats = null;
        if (statsEvery > 0) {
            // the first block starts now, before the loops start: a closed loop's first replies come
            // before any later block could begin, and would count in no block
            clock.swap(false);
            stats = clock.register(new StatsBlocks(config, statsEvery, listener, feed, errors, rateControl, running,
                    drivers.get(0).serverShapes(), tuning::pause));
        }
        if (perSecond) {
            clock.register(new WindowSeconds(listener, workloads, drivers.size(), tuning::pause));
        }
        if (liveSamples) {
            clock.register(new LiveLine(listener, running));
        }
        if (rampSteps != null) {
            clock.register(rampSteps);
        }
        // the schedule starts after the consumers' histograms are made (milliseconds of allocation
        // that would otherwise make the first requests late); closed-loop requests leave as soon as
        // a driver starts, before `start`: thread times count from here
        long launched = System.nanoTime();
        long start = startAt != Long.MIN_VALUE ? startAt : launched + TimeUnit.MILLISECONDS.toNanos(1);
        List<CompletableFuture<Void>> phases = new ArrayList<>();
        for (LoadDriver d : drivers) {
            phases.add(d.start(load, start, true, warmup));
        }
        ThreadEnds threadEnds = new ThreadEnds(phases, launched);
        CompletableFuture<Void> exhausted = threadEnds.all();
        if (stats != null) {
            stats.begin(start);
        }
        HostTuning.Load host = tuning.loadStarts(start, start + config.warmup().toNanos(), new HostTuning.Loops() {
            @Override
            public void clearWarmupFigures() {
                clock.swap(false); // the warm-up's figures go to no window: the loops record into emptied ones
            }

            @Override
            public void wakeFromOutside() {
                drivers.forEach(LoadDriver::wakeFromOutside);
            }
        });
        clock.register(new HostTicks(host));
        RunClock.Stops stops = now -> stopOf(exhausted);
        StopReason stop = null;
        // with --start-at the windows follow the schedule, so a late agent's first window holds the
        // requests due since the start, sent late (its send lag), and ends when the others' do
        long windowStart = startAt != Long.MIN_VALUE && startAt < System.nanoTime() ? startAt : System.nanoTime();
        long windowCpu = ProcessCpu.nanos();
        HitrateWarmup toHitrate = null;
        if (warmup) {
            if (config.warmupHitrate() > 0) {
                HitrateWarmupPhase.End end = HitrateWarmupPhase.run(drivers, clock, stops, start, config.warmupHitrate(),
                        config.warmup().toNanos());
                stop = end.stop();
                toHitrate = end.outcome();
                host.warmupEnds(); // perhaps before its bound: the exercises stop before the windows begin
            } else {
                stop = clock.runUntil(start + config.warmup().toNanos(), stops);
            }
            // the first window starts when the loops start counting it, however late the run's
            // thread hands them the swap (at nice 19, and yielding, it may be late)
            windowStart = clock.swap(true);
            running.reset();
            running.warmingUp(false);
            windowCpu = ProcessCpu.nanos();
            host.measuredLoadBegins();
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
        for (RunAddendum a : addenda) {
            a.measuring(windowStart);
        }
        if (rateControl != null) {
            bookkeeping.targets(rateControl::meanConfigs);
        }
        List<WindowResult> windows = new ArrayList<>();
        for (int w = 1; w <= config.windows(); w++) {
            // with ramps, windows end on the steps' fixed times (start + w × duration), not each a
            // duration after the last one's late end, so that a window holds one step, not a drifting mix
            long end = rampsFrom != Long.MIN_VALUE ? rampsFrom + w * config.duration().toNanos()
                    : windowStart + config.duration().toNanos();
            clock.windowBegins(w, windowStart, end);
            if (stop == null) {
                stop = clock.runUntil(end, stops);
            }
            boolean last = w == config.windows() || stop != null;
            if (last && stop == null && scheduleEnds) {
                startWait.catchUp(exhausted, config.duration().toNanos());
            }
            if (last) {
                for (LoadDriver d : drivers) {
                    d.stop();
                }
                LoopTasks.await(exhausted, config.timeout().plusSeconds(5));
                requireReachable(targetDescription);
                long settled = System.nanoTime() + config.timeout().toNanos();
                for (RunAddendum a : addenda) {
                    a.loadEnded(settled);
                }
            }
            long now = clock.swap(false); // when the loops ended the window (see the warm-up's end)
            clock.windowEnds(w, now);
            long cpu = ProcessCpu.nanos();
            WindowResult window = bookkeeping.window(w, windowStart, now, cpu < 0 ? -1 : cpu - windowCpu, running.figures());
            running.reset();
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
            windowStart = now;
            if (last) {
                break;
            }
        }
        if (errors.sourceFailure() != null) {
            throw new IllegalStateException("the request source failed", errors.sourceFailure());
        }
        if (stats != null) {
            clock.swap(false);
            stats.last(); // the last, partial interval
        }
        if (rampSteps != null) {
            rampSteps.tellChanges();
        }
        WindowResult total = bookkeeping.run();
        for (RunAddendum a : addenda) {
            total = a.run(total);
        }
        return new RunResult(config, targetDescription, windows, total, stop == null ? StopReason.COMPLETED : stop,
                preloaded, stats != null ? stats.samples() : List.of(), threadEnds.seconds(), LoadDriver.lateness(drivers), toHitrate);
    }

    /** Why the run stops now (a stop asked for, a failed trace, the sources run out), or null: it goes on. */
    private StopReason stopOf(CompletableFuture<Void> exhausted) {
        if (stopSignal.requested()) {
            return stopSignal.reason();
        }
        if (traceRequired && trace.failed()) {
            return StopReason.TRACE_FAILED;
        }
        if (exhausted.isDone() && !(scheduleEnds && config.requests() == 0)) {
            return config.requests() > 0 ? StopReason.REQUEST_LIMIT : StopReason.SOURCE_ENDED;
        }
        return null; // with --start-at, the schedule's last request has gone: its last window still ends on time
    }
}
