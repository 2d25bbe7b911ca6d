package io.fluxperf.engine.load;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.connection.ClientLoop;
import io.fluxperf.engine.connection.ConnectionSlot;
import io.fluxperf.engine.connection.SlotEvents;
import io.fluxperf.engine.connection.TargetConnection;
import io.fluxperf.engine.connection.TcpProbe;
import io.fluxperf.engine.connection.Transports;
import io.fluxperf.engine.connection.UdpSlot;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.ServerStats;
import io.fluxperf.engine.pool.PoolMember;
import io.fluxperf.engine.pool.PoolRouter;
import io.fluxperf.engine.pool.ServerPool;
import io.fluxperf.engine.pool.ServerQueues;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.Redirect;
import io.fluxperf.engine.protocol.UnexpectedReply;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.trace.ThreadTracer;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One load thread: an event loop, its connections and the three rooms that work them: the
 * {@link SendScheduler} (when each request leaves, and where), the {@link ConnectionManager}
 * (when each connection connects) and the {@link ThreadRecorder} (what happened). It runs a phase
 * at a time (flush, preload, the load) and hears its connections through {@link SlotEvents},
 * passing each event to the room it concerns.
 *
 * <p>Everything here runs on the event loop (single-threaded, no locks); the run's thread talks
 * to it only through tasks that return futures.
 */
final class LoadDriver implements SlotEvents, RunClock.LoadThread {
    private final int index;
    private final int threads;
    private final EventLoop loop;
    private final CodecFactory codecs;
    private final RequestPool pool;
    private final RunErrors errors;
    /** Whose replies those it cannot read may be ({@link UnexpectedReply#hint}). */
    private final Protocol protocol;
    private final long timeoutNanos;
    private final List<ConnectionSlot> slots = new ArrayList<>();
    private final int firstSlotId;
    private final ThreadRecorder recorder;
    private final SendScheduler scheduler;
    private final ConnectionManager connections;
    /** With several servers: the thread's connections by server, and where requests go; null with one. */
    private final ServerQueues serverQueues;
    private final PoolRouter router;
    private final CodecFactory[] memberCodecs;
    /** Several servers: one empty figure each, and one for requests sent to none; null with one. */
    private final List<ServerStats> serverShapes;
    /**
     * The periodic check of timeouts and the loop's alarm, both let go at {@link #close()}: on loops
     * that outlive the run (a warm-up's, shared with the run after it) either would keep this driver
     * and its figures reachable for as long as the loop lives.
     */
    private final java.util.concurrent.ScheduledFuture<?> timeoutChecks;
    private final io.fluxperf.engine.netty.AlarmIoHandler alarm;
    private CompletableFuture<Void> phaseDone = CompletableFuture.completedFuture(null);
    /** Reads the connections' TCP_INFO, once a second (not per request: a getsockopt each). */
    private final TcpProbe tcpProbe = new TcpProbe();
    private long nextTcpSampleNanos = System.nanoTime();
    static final long TCP_SAMPLE_PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * @param codecs the run's codec factory ({@link Protocol#codecs})
     * @param tracer where this thread's trace records go; null without a trace
     */
    LoadDriver(int index, RunConfig config, Protocol protocol, CodecFactory codecs, ClientLoop clientLoop,
               SocketAddress target, RunErrors errors, ThreadTracer tracer, HostTuning tuning) {
        this(index, config, protocol, codecs, clientLoop, target, null, errors, tracer, tuning);
    }

    /** @param serverPool the run's servers when it has several (then {@code target} is not used); null: one server */
    LoadDriver(int index, RunConfig config, Protocol protocol, CodecFactory codecs, ClientLoop clientLoop,
               SocketAddress target, ServerPool serverPool, RunErrors errors, ThreadTracer tracer, HostTuning tuning) {
        this.index = index;
        this.threads = config.threads();
        this.loop = clientLoop.loop();
        this.codecs = codecs;
        this.errors = errors;
        this.protocol = protocol;
        this.timeoutNanos = config.timeout().toNanos();
        boolean perRequest = config.connection().connectPerRequest();
        int servers = serverPool == null ? 1 : serverPool.members().size();
        int perServer = slotsOfThread(config, index);
        int count = perServer * servers;
        int pipeline = perRequest ? 1 : config.pipeline();
        int firstId = 0;
        for (int t = 0; t < index; t++) {
            firstId += slotsOfThread(config, t) * servers;
        }
        this.firstSlotId = firstId;
        List<ServerStats> serverShapes = null;
        if (serverPool == null) {
            this.pool = new RequestPool(count * pipeline + 1);
            Transports transports = config.connection().udp() ? null : new Transports(config, clientLoop, target);
            for (int c = 0; c < count; c++) {
                slots.add(config.connection().udp()
                        ? new UdpSlot(this, firstId + c, c, pipeline, target, clientLoop, protocol.datagramFraming())
                        : new TargetConnection(this, transports, firstId + c, c, pipeline, perRequest));
            }
            this.serverQueues = null;
            this.router = null;
            this.memberCodecs = null;
        } else {
            // --connections to each server; a server's connections are consecutive slots
            List<List<ConnectionSlot>> byMember = new ArrayList<>();
            memberCodecs = new CodecFactory[count];
            serverShapes = new ArrayList<>();
            for (PoolMember m : serverPool.members()) {
                Transports transports = new Transports(config, clientLoop, m.address());
                List<ConnectionSlot> own = new ArrayList<>();
                for (int c = 0; c < perServer; c++) {
                    int i = slots.size();
                    TargetConnection slot = new TargetConnection(this, transports, firstId + i, i, pipeline, false);
                    memberCodecs[i] = m.codecs();
                    slots.add(slot);
                    own.add(slot);
                }
                byMember.add(own);
                serverShapes.add(new ServerStats(m.name(), m.role()));
            }
            serverShapes.add(new ServerStats(ServerStats.NOT_SENT, null));
            this.serverQueues = serverPool.newQueues(byMember, pipeline);
            this.router = serverPool.newRouter();
            this.pool = new RequestPool(count * pipeline + ServerQueues.capacity(byMember, pipeline) + 1);
        }
        this.serverShapes = serverShapes;
        this.recorder = new ThreadRecorder(config.workloads().size(), tracer, clientLoop.alarm(), serverShapes);
        // the alarm is handed to the scheduler before the loop's first task below hands it to the loop
        this.scheduler = new SendScheduler(loop, clientLoop.alarm(), config.connection().busyPoll(), config.earlySend(),
                slots, recorder, pool, errors, this::checkPhaseDone, perRequest ? this::sentOn : null);
        double rate = config.connection().connectRate();
        long connectInterval = rate > 0 ? (long) (1e9 * config.threads() / rate) : 0;
        this.connections = new ConnectionManager(loop, slots, recorder, errors, perRequest, connectInterval,
                scheduler::needsConnections);
        if (serverQueues != null) {
            scheduler.pool(serverQueues, router);
        }
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(50), timeoutNanos / 10));
        this.alarm = clientLoop.alarm();
        this.timeoutChecks = loop.scheduleAtFixedRate(this::checkTimeouts, period, period, TimeUnit.NANOSECONDS);
        loop.execute(tuning::onLoadLoop);
    }

    /**
     * Connections of thread {@code t}: --connections per thread, or its share of --hold-connections;
     * with a connection per request, no more than the thread has requests to send (mcb's -s and
     * dperf's CPS count one connection per request, not spare ones).
     */
    static int slotsOfThread(RunConfig config, int t) {
        int hold = config.connection().holdConnections();
        int slots = hold == 0 ? config.connections() : hold / config.threads() + (t < hold % config.threads() ? 1 : 0);
        long requests = config.requests();
        if (config.connection().connectPerRequest() && requests > 0) {
            long share = requests / config.threads() + (t < requests % config.threads() ? 1 : 0);
            slots = (int) Math.min(slots, share);
        }
        return slots;
    }

    /** How many connections this thread has. */
    int slotCount() {
        return slots.size();
    }

    int workloadCount() {
        return recorder.workloadCount();
    }

    /** Several servers: one empty figure each (and one for requests sent to none); null with one. */
    List<ServerStats> serverShapes() {
        return serverShapes;
    }

    /** Emptied figures of this thread's shape (its workloads, and its servers when it has several). */
    @Override
    public ThreadFigures newFigures() {
        return recorder.newFigures();
    }

    // ---- phases ----

    /** Opens every connection; completes with the number that failed. */
    CompletableFuture<Integer> connectAll() {
        return connections.openAll();
    }

    /**
     * Starts taking requests from {@code source}; the future completes when it is exhausted (or
     * stopped) and every request in flight has ended.
     *
     * @param traced write a trace record for each request of this phase
     * @param warmup the phase starts with a warm-up, ended by {@link #swap(ThreadFigures, boolean)}
     */
    CompletableFuture<Void> start(RequestSource source, long startNanos, boolean traced, boolean warmup) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        onLoop(() -> {
            phaseDone = done;
            recorder.phase(traced, warmup, startNanos);
            connections.phase(source.size(index, threads));
            scheduler.start(source, index, threads, startNanos);
        });
        return done;
    }

    /** Stops asking the source; the phase completes once what is in flight has ended (at most the timeout). */
    CompletableFuture<Void> stop() {
        onLoop(() -> {
            scheduler.stop();
            checkPhaseDone();
        });
        CompletableFuture<CompletableFuture<Void>> current = new CompletableFuture<>();
        onLoop(() -> current.complete(phaseDone));
        return current.thenCompose(f -> f);
    }

    /** Closes every connection and stops the alarm; the event loop itself is disposed by the run. */
    CompletableFuture<Void> close() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        onLoop(() -> {
            timeoutChecks.cancel(false);
            scheduler.shutdown();
            alarm.onAlarm(NO_ALARM); // the next run's scheduler hears it from its start
            connections.shutdown();
            done.complete(null);
        });
        return done;
    }

    private void checkTimeouts() {
        long now = System.nanoTime();
        for (ConnectionSlot c : slots) {
            c.expire(now, timeoutNanos);
        }
        scheduler.checkQueues(now, timeoutNanos);
        recorder.tick(now);
        if (now - nextTcpSampleNanos >= 0) {
            sampleTcp();
            nextTcpSampleNanos = now + TCP_SAMPLE_PERIOD_NANOS;
        }
        checkPhaseDone();
    }

    /** One round of TCP_INFO over the thread's open connections, on the loop. */
    private void sampleTcp() {
        for (ConnectionSlot c : slots) {
            if (c.sampleTcp(tcpProbe)) {
                recorder.tcpSample(tcpProbe);
            }
        }
        recorder.tcpRoundDone();
    }

    private void checkPhaseDone() {
        if (phaseDone.isDone() || !scheduler.drained()) {
            return;
        }
        for (ConnectionSlot c : slots) {
            if (c.inFlightCount() > 0) {
                return;
            }
        }
        // nothing in flight: sleep again, so that the run's thread (maybe on this CPU) gets the CPU
        // at once to end the window, not a share of a spinning one
        scheduler.idle();
        phaseDone.complete(null);
    }

    // ---- figures, for the run's thread ----

    /**
     * Ends this thread's interval and returns its figures; from now on it records into
     * {@code spare}.
     *
     * @param spare     emptied figures of this thread's shape
     * @param endWarmup the warm-up ends with this swap: later requests are traced as measured,
     *                  in the same event-loop step as the figures restart, so both agree
     */
    @Override
    public CompletableFuture<ThreadFigures> swap(ThreadFigures spare, boolean endWarmup) {
        CompletableFuture<ThreadFigures> result = new CompletableFuture<>();
        onLoop(() -> {
            if (endWarmup) {
                recorder.endWarmup();
            }
            long taken = System.nanoTime();
            scheduler.countRoomWait(taken); // a wait going on: its part so far belongs to the interval ending
            result.complete(recorder.swap(spare, connections.openCount(), taken));
        });
        return result;
    }

    /** The reads answered in the warm-up so far, for a warm-up to a hit rate. */
    CompletableFuture<ThreadRecorder.WarmupReads> warmupReads() {
        CompletableFuture<ThreadRecorder.WarmupReads> result = new CompletableFuture<>();
        onLoop(() -> result.complete(recorder.warmupReads()));
        return result;
    }

    /** How the threads kept their schedule, asked once every request has ended (after the last window). */
    static SendLateness lateness(List<LoadDriver> drivers) {
        List<CompletableFuture<SendLateness>> futures = drivers.stream().map(LoadDriver::lateness).toList();
        List<SendLateness> threads = new ArrayList<>();
        for (CompletableFuture<SendLateness> f : futures) {
            threads.add(LoopTasks.await(f, java.time.Duration.ofSeconds(10)));
        }
        return SendLateness.merge(threads);
    }

    /** How this thread kept its schedule in the measured part of its phase; ask once its requests have ended. */
    CompletableFuture<SendLateness> lateness() {
        CompletableFuture<SendLateness> result = new CompletableFuture<>();
        onLoop(() -> result.complete(recorder.lateness()));
        return result;
    }

    /** A connection per request: the slot's one request went out on it. */
    private void sentOn(ConnectionSlot slot) {
        connections.sent(slot);
    }

    /** Tells the scheduler on the loop that a rate changed (from another thread), without waiting for it. */
    void ratesChanged() {
        try {
            loop.execute(scheduler::ratesChanged); // rare: a rate change, not a request
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // the loop is shutting down: nothing waits to be sent any more
        }
    }

    /** Hears a closed driver's alarm: nothing. */
    private static final java.util.function.LongConsumer NO_ALARM = setFor -> { };

    /** An empty task: queued from another thread, it only wakes the loop. */
    private static final Runnable NOTHING = () -> { };

    /** Queues an empty task on the loop from the calling thread, which wakes the loop if it waits. Allocates nothing. */
    void wakeFromOutside() {
        loop.execute(NOTHING);
    }

    private void onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    // ---- what the connections tell (SlotEvents), on the loop ----

    @Override
    public EventLoop loop() {
        return loop;
    }

    @Override
    public ProtocolCodec newCodec() {
        return codecs.newCodec();
    }

    @Override
    public ProtocolCodec newCodec(ConnectionSlot slot) {
        return memberCodecs != null ? memberCodecs[slot.index()].newCodec() : codecs.newCodec();
    }

    @Override
    public void established(ConnectionSlot slot) {
        connections.established(slot);
    }

    @Override
    public void ready(ConnectionSlot slot) {
        connections.ready(slot);
        if (serverQueues != null) {
            serverQueues.slotUp(slot);
        }
        scheduler.slotReady(slot);
        scheduler.pump();
    }

    @Override
    public void connectFailed(ConnectionSlot slot, Throwable cause) {
        connections.connectFailed(slot, cause);
        if (serverQueues != null) {
            scheduler.serverUnreachable(slot, System.nanoTime());
        }
    }

    @Override
    public void closed(ConnectionSlot slot, boolean expected) {
        if (serverQueues != null) {
            serverQueues.slotDown(slot);
        }
        connections.closed(slot, expected);
        scheduler.pump();
    }

    @Override
    public void answered(ConnectionSlot slot) {
        connections.answered(slot);
    }

    @Override
    public void refused(ConnectionSlot slot, String message) {
        connections.refused(message);
    }

    @Override
    public void completed(Request request, Outcome outcome, long nowNanos, int responseBytes, int replyClass) {
        recorder.completed(request, outcome, nowNanos, responseBytes, replyClass);
        scheduler.ended(request);
        int slot = request.connectionId() - firstSlotId;
        if (slot >= 0 && slot < slots.size()) {
            scheduler.slotReady(slots.get(slot)); // its reply freed room on that slot
        }
        pool.release(request);
    }

    /**
     * A cluster node sent {@code request} elsewhere: it goes again to the node named (its latency
     * runs on from its first write), or ends as an error when that cannot be.
     */
    @Override
    public void redirected(ConnectionSlot slot, Request request, Redirect redirect, long nowNanos, int responseBytes) {
        int from = serverQueues != null ? serverQueues.memberOf(slot) : -1;
        recorder.redirected(from, redirect.kind() == Redirect.Kind.MOVED);
        int to = router != null ? router.redirected(request, redirect) : -1;
        if (to < 0) {
            errors.requestError(router == null ? UNEXPECTED_REDIRECT : REDIRECT_NOWHERE);
            completed(request, Outcome.ERROR, nowNanos, responseBytes, -1);
            return;
        }
        scheduler.slotReady(slot); // its reply freed room there
        request.redirected(redirect.kind() == Redirect.Kind.ASK).server(to);
        scheduler.sendAgain(request, to, nowNanos);
    }

    private static final String UNEXPECTED_REDIRECT = "a redirect to another node, in a run that is no cluster run";
    private static final String REDIRECT_NOWHERE = "a redirect to a node this run has no connections to, or more than "
            + PoolRouter.MAX_REDIRECTS + " redirects";

    @Override
    public void readDone() {
        scheduler.pumpAfterReads();
    }

    @Override
    public void pump() {
        scheduler.pump();
    }

    @Override
    public void protocolError(String reason) {
        errors.protocolError(reason);
    }

    @Override
    public void unexpectedReply(String reason, ByteBuf in, int from) {
        String hint = errors.replyHintPending() ? UnexpectedReply.hint(protocol, UnexpectedReply.start(in, from)) : null;
        errors.unexpectedReply(reason, hint);
    }

    @Override
    public void connectionError(Throwable cause) {
        errors.connectionError(cause);
    }

    @Override
    public boolean unreachable(ConnectionSlot slot, Throwable cause) {
        return connections.unreachable(cause);
    }
}
