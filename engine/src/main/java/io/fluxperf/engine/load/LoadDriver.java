package io.fluxperf.engine.load;

import io.fluxperf.engine.TimerSlack;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.ThreadCpu;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.netty.AlarmIoHandler;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.trace.ThreadTracer;
import io.fluxperf.trace.LatencyHistograms;
import io.netty.channel.EventLoop;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * One load thread: an event loop, its connections, a request source and its metrics. Everything
 * here runs on the event loop (single-threaded, no locks); the run's thread talks to it only
 * through tasks that return futures.
 *
 * <p>Pacing: the driver holds at most one request that it could not send yet ({@code pending}).
 * A request whose intended time is in the future waits for a timer; one that is due waits for
 * room on a connection (pipeline depth × connections bounds what is in flight, invariant 4).
 * While it waits, the source is not asked for more, so a slow server builds up lateness (which
 * the open-loop latency shows) and never memory. Sends of one batch are flushed together.
 *
 * <p>Open loop: a request may leave up to {@link #EARLY_NANOS} before its intended time when the
 * loop is awake anyway (a timer fired for an earlier one, or a reply came in); its latency is then
 * measured from the actual write ({@link Request#latencyOriginNanos()}), never from the later
 * intended time. Requests closer together than that share one wake-up, one flush and one wake-up
 * of the server, where a timer each would cost a context switch each on both sides.
 */
final class LoadDriver {
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long before its intended time a request may leave with others (see the class comment). */
    static final long EARLY_NANOS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("fluxperf.pacing.earlyMicros", 50));
    private static final long MAX_TIMER_LEAD_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** A timer set for less than this ahead fires at about the same time as one set for zero. */
    private static final long MIN_TIMER_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

    private final int index;
    private final int threads;
    private final EventLoop loop;
    private final Protocol protocol;
    private final Transports transports;
    private final long timeoutNanos;
    private final CodecFactory codecs;
    /** A handshake was refused: reconnecting would only be refused again. */
    private boolean refused;
    private final List<ConnectionSlot> connections = new ArrayList<>();
    private final long[] backoffNanos;
    private final RequestPool pool;
    private final RunErrors errors;
    private final ThreadTracer tracer;
    /** Requests of this phase are traced (not those of flush and preload). */
    private boolean tracing;
    /** Requests ending now belong to the warm-up. */
    private boolean warmingUp;

    private WorkloadStats[] stats;
    /** {@code stats.length}, readable from any thread. */
    private final int workloadCount;
    private ConnectionCounts connectionCounts = new ConnectionCounts();
    private Histogram sendLag = LatencyHistograms.create();
    /** Filled by {@link #liveSnapshot()} (reused: a copy per second was most of a paced run's garbage). */
    private final Histogram liveLatency = LatencyHistograms.create();
    /** All workloads together since the last statistics block (dperf's per-second lines). */
    private final WorkloadStats interval = new WorkloadStats();
    private final ConnectionCounts intervalConnections = new ConnectionCounts();
    /** Connect start to ready for load (TCP, TLS and protocol handshakes), per connection made. */
    private Histogram connectLatency = LatencyHistograms.create();
    private final boolean perRequest;
    /** Connect per request: slots not reconnected because their phase had no more requests. */
    private final List<ConnectionSlot> idleSlots = new ArrayList<>();
    private final int firstSlotId;
    private final long connectIntervalNanos;

    private SourceSubscriber subscriber;
    private Request pending;
    /** Since when a due paced request has found no connection with room, or {@link #NO_ROOM_WAIT}. */
    private long roomWaitSince = NO_ROOM_WAIT;
    private static final long NO_ROOM_WAIT = Long.MIN_VALUE;
    /** The request that began the wait for room was already {@link #BEHIND_NANOS} late then. */
    private boolean roomWaitBehind;
    /**
     * Later than this, a request is part of a backlog. Not 100 µs: on a busy machine a timer fires
     * that late now and then, and a 300-ms server stall that began with such a wake-up counted as
     * a backlog (StallTest, 1 run in about 4).
     */
    static final long BEHIND_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private boolean sourceDone = true;
    private boolean stopping;
    private boolean closing;
    private boolean pumping;
    private long timerLeadNanos = TimeUnit.MICROSECONDS.toNanos(20);
    /** The pacing timer: the loop's alarm, set again for each wake-up without allocating (see AlarmIoHandler); it holds the wake-up time. */
    private final AlarmIoHandler alarm;
    /** --busy-poll: while a phase runs, the loop polls and never sleeps (AlarmIoHandler#pollOnly). */
    private final boolean busyPoll;
    /** Slots that may have room to send, in the order they got it (each at most once: {@code queued}). */
    private final java.util.ArrayDeque<ConnectionSlot> ready = new java.util.ArrayDeque<>();
    private final boolean[] queued;
    /** Slots with encoded requests not yet flushed (each at most once: {@code dirty}). */
    private final java.util.ArrayList<ConnectionSlot> dirtySlots = new java.util.ArrayList<>();
    private final boolean[] dirty;
    /** --stats-interval is on: keep the interval figures too. */
    private final boolean intervalStats;
    private CompletableFuture<Void> phaseDone = CompletableFuture.completedFuture(null);
    /** The loop thread's CPU time at the start of the current interval (phase start or last reset snapshot); -1 unknown. */
    private long loopCpuMark = -1;

    LoadDriver(int index, RunConfig config, Protocol protocol, ClientLoop clientLoop, SocketAddress target,
               RunErrors errors, ThreadTracer tracer) {
        this.tracer = tracer;
        this.index = index;
        this.threads = config.threads();
        this.loop = clientLoop.loop();
        this.protocol = protocol;
        this.errors = errors;
        this.timeoutNanos = config.timeout().toNanos();
        this.codecs = protocol.codecs(config.protocolOptions(), config.server());
        this.stats = newStats(config.workloads().size());
        this.workloadCount = config.workloads().size();
        this.perRequest = config.connection().connectPerRequest();
        int slots = slotsOfThread(config, index);
        int pipeline = perRequest ? 1 : config.pipeline();
        this.pool = new RequestPool(slots * pipeline + 1);
        this.backoffNanos = new long[slots];
        int firstId = 0;
        for (int t = 0; t < index; t++) {
            firstId += slotsOfThread(config, t);
        }
        for (int c = 0; c < slots; c++) {
            connections.add(config.connection().udp() ? new UdpSlot(this, firstId + c, pipeline, target, clientLoop, protocol.datagramFraming()) : new TargetConnection(this, firstId + c, pipeline, perRequest));
            backoffNanos[c] = MIN_BACKOFF_NANOS;
        }
        this.firstSlotId = firstId;
        this.queued = new boolean[slots];
        this.dirty = new boolean[slots];
        this.intervalStats = !config.statsInterval().isZero();
        double rate = config.connection().connectRate();
        this.connectIntervalNanos = rate > 0 ? (long) (1e9 * config.threads() / rate) : 0;
        this.transports = new Transports(config, clientLoop, target);
        this.alarm = clientLoop.alarm();
        this.busyPoll = config.connection().busyPoll();
        alarm.onAlarm(this::wakeUp); // before the loop's first task below: that hands it to the loop
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(50), timeoutNanos / 10));
        loop.scheduleAtFixedRate(this::checkTimeouts, period, period, TimeUnit.NANOSECONDS);
        loop.execute(TimerSlack::minimizeForCurrentThread); // timers for sends come on time
    }

    /**
     * Connections of thread {@code t}: --connections per thread, or its share of --hold-connections.
     */
    static int slotsOfThread(RunConfig config, int t) {
        int hold = config.connection().holdConnections();
        if (hold == 0) {
            return config.connections();
        }
        return hold / config.threads() + (t < hold % config.threads() ? 1 : 0);
    }

    private static WorkloadStats[] newStats(int n) {
        WorkloadStats[] s = new WorkloadStats[n];
        for (int i = 0; i < n; i++) {
            s[i] = new WorkloadStats();
        }
        return s;
    }

    // ---- connections ----

    /** Opens every connection; completes with the number that failed. */
    CompletableFuture<Integer> connectAll() {
        List<CompletableFuture<Boolean>> attempts = new ArrayList<>();
        for (int i = 0; i < connections.size(); i++) {
            ConnectionSlot c = connections.get(i);
            if (connectIntervalNanos == 0 || i == 0) {
                attempts.add(openSlot(c));
            } else {
                // --connect-rate: this thread's share of the rate, evenly spaced
                CompletableFuture<Boolean> later = new CompletableFuture<>();
                loop.schedule(() -> openSlot(c).whenComplete((ok, e) -> later.complete(ok != null && ok)),
                        i * connectIntervalNanos, TimeUnit.NANOSECONDS);
                attempts.add(later);
            }
        }
        return CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new))
                .thenApply(v -> (int) attempts.stream().filter(f -> !f.join()).count());
    }

    /** Opens a slot; once it is ready it is queued for sending (TCP slots also queue themselves on reconnect). */
    private CompletableFuture<Boolean> openSlot(ConnectionSlot c) {
        CompletableFuture<Boolean> opened = c.open();
        opened.thenAccept(ok -> {
            if (ok) {
                onLoop(() -> {
                    slotReady(c);
                    pump();
                });
            }
        });
        return opened;
    }

    /**
     * Connects one slot; {@code opened}, if not null, completes with true once the slot is ready
     * for load (after any handshake), or with false when the connect failed. Reconnects pass null:
     * with a connection per request they come thousands of times a second, and allocate nothing
     * of their own.
     */
    void connect(TargetConnection slot, CompletableFuture<Boolean> opened) {
        if (loop.inEventLoop()) {
            startConnect(slot, opened);
        } else {
            loop.execute(() -> startConnect(slot, opened));
        }
    }

    private void startConnect(TargetConnection slot, CompletableFuture<Boolean> opened) {
        connectionCounts.attempt();
        intervalConnections.attempt();
        slot.connecting(System.nanoTime(), opened);
        transports.connect(slot, slot.connectDone());
    }

    /** The transport's answer to {@link #startConnect}: the new wire, or why there is none. */
    void connectDone(TargetConnection slot, Wire wire, Throwable error) {
        if (wire != null) {
            attached(slot, wire);
            return;
        }
        connectionCounts.failed();
        intervalConnections.failed();
        errors.connectFailed(error);
        scheduleReconnect(slot);
        slot.connectFailed();
    }

    private void attached(TargetConnection slot, Wire wire) {
        if (closing) {
            wire.close();
            slot.connectFailed();
            return;
        }
        connectionCounts.opened();
        intervalConnections.opened();
        // the backoff is reset by the first reply (replied), not here: a target that accepts and closes
        // at once (a proxy whose back end is down) is backed off from like one that refuses
        ProtocolCodec codec = slot.reusableCodec();
        slot.attach(wire, codec != null ? codec : codecs.newCodec());
        slot.startHandshake();
        pump();
    }

    /** The slot's wire is ready for load (after any handshake): its connect time counts, and it may send. */
    void connected(TargetConnection slot) {
        LatencyHistograms.record(connectLatency, System.nanoTime() - slot.connectStartedNanos());
        slotReady(slot);
        pump();
    }

    /** The slot's channel decoded its first reply: the target works, so a later loss reconnects quickly again. */
    void replied(TargetConnection slot) {
        backoffNanos[slot.id() - firstSlotId] = MIN_BACKOFF_NANOS;
    }

    /** The server refused a handshake (wrong password): a settings mistake, so no reconnect. */
    void handshakeRefused(TargetConnection slot, String message) {
        errors.fatal(message);
        refused = true;
    }

    /** A channel closed: its requests are accounted for; reconnect unless the run is ending. */
    void connectionLost(TargetConnection slot, boolean announced) {
        if (slot.isShuttingDown() || closing || refused) {
            return;
        }
        connectionCounts.closed();
        intervalConnections.closed();
        if (perRequest || announced) {
            // by design: a new connection for the next request, at once — if one may come
            if (!sourceDone && !stopping) {
                connect(slot, null);
            } else {
                idleSlots.add(slot);
            }
        } else {
            scheduleReconnect(slot);
        }
        pump();
    }

    private void scheduleReconnect(TargetConnection slot) {
        if (closing) {
            return;
        }
        int i = slot.id() - firstSlotId;
        long delay = backoffNanos[i];
        backoffNanos[i] = Math.min(MAX_BACKOFF_NANOS, delay * 2);
        loop.schedule(() -> {
            if (!closing && !slot.isOpen()) {
                connect(slot, null);
            }
        }, delay, TimeUnit.NANOSECONDS);
    }

    /** A new codec for one of this thread's connections. */
    ProtocolCodec newCodec() {
        return codecs.newCodec();
    }

    EventLoop loop() {
        return loop;
    }

    /** Connection events of slots that manage their own sockets (UDP): counted like TCP's. */
    void connectionOpened() {
        connectionCounts.opened();
        intervalConnections.opened();
    }

    void connectionFailed(Throwable error) {
        connectionCounts.failed();
        intervalConnections.failed();
        errors.connectFailed(error);
    }

    void noteProtocolError(String reason) {
        errors.protocolError(reason);
    }

    void noteConnectionError(Throwable cause) {
        errors.connectionError(cause);
    }

    // ---- phases ----

    /** Starts taking requests from {@code source}; the future completes when it is exhausted and all replies are in. */
    CompletableFuture<Void> start(RequestSource source, long startNanos) {
        return start(source, startNanos, false, false);
    }

    /**
     * @param traced  write a trace record for each request of this phase
     * @param warmup  the phase starts with a warm-up, ended by {@link #snapshot(boolean, boolean)}
     */
    CompletableFuture<Void> start(RequestSource source, long startNanos, boolean traced, boolean warmup) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        onLoop(() -> {
            tracing = traced && tracer != null;
            warmingUp = warmup;
            phaseDone = done;
            stopping = false;
            roomWaitSince = NO_ROOM_WAIT; // a wait of the phase before (a preload) is not this one's
            alarm.pollOnly(busyPoll);
            sourceDone = false;
            subscriber = new SourceSubscriber();
            loopCpuMark = loopWorkNanos();
            for (ConnectionSlot c : idleSlots) {
                openSlot(c); // the slots a finished phase left closed (connect per request)
            }
            idleSlots.clear();
            source.requests(index, threads, pool, startNanos).subscribe(subscriber);
            pump();
        });
        return done;
    }

    /** Stops asking the source; the phase completes once what is in flight has ended (at most the timeout). */
    CompletableFuture<Void> stop() {
        onLoop(() -> {
            stopping = true;
            if (subscriber != null) {
                subscriber.dispose();
            }
            if (pending != null) {
                pool.release(pending); // never sent: not a request
                pending = null;
            }
            checkPhaseDone();
        });
        return phaseDone();
    }

    private CompletableFuture<Void> phaseDone() {
        CompletableFuture<CompletableFuture<Void>> current = new CompletableFuture<>();
        onLoop(() -> current.complete(phaseDone));
        return current.thenCompose(f -> f);
    }

    /** Closes every connection and stops timers; the event loop group is disposed by the run. */
    CompletableFuture<Void> close() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        onLoop(() -> {
            closing = true;
            alarm.cancel();
            alarm.pollOnly(false); // the loop may sleep while it shuts down
            for (ConnectionSlot c : connections) {
                c.shutdown();
            }
            done.complete(null);
        });
        return done;
    }

    // ---- sending ----

    /** Pumps once the loop has handled its whole batch of events (see {@link #pumpAfterReads}). */
    private final Runnable pumpAfterBatch = () -> {
        pumpQueued = false;
        pump();
    };
    private boolean pumpQueued;

    /**
     * Replies freed room: pump once the loop has read every connection of its batch of events, not
     * after each connection's read. The batch's requests then leave together, and the server, woken
     * once, takes them in one go: mc get p1 at 50 connections went from 13.69, 11.76, 15.18 to
     * 12.54, 10.88, 13.94 µs per request (3 alternating pairs), HTTP keep-alive from 19.2, 17.8,
     * 20.4 to 16.2, 18.1, 18.0. The delay is the rest of the batch's reads, a few µs; closed-loop
     * latency is timed from the write, and a paced request's lateness is in its send lag.
     */
    void pumpAfterReads() {
        if (!pumpQueued) {
            pumpQueued = true;
            try {
                loop.execute(pumpAfterBatch);
            } catch (RejectedExecutionException e) {
                pumpAfterBatch.run(); // the loop is shutting down: pump now, as before
            }
        }
    }

    /** Sends whatever is due and fits, then flushes the batch. Re-entrant calls return at once. */
    void pump() {
        if (pumping) {
            return;
        }
        pumping = true;
        try {
            long now = System.nanoTime();
            while (true) {
                if (pending == null) {
                    if (sourceDone || stopping || subscriber == null) {
                        break;
                    }
                    subscriber.requestOne();
                    if (pending == null) {
                        break; // exhausted, or a source that emits later from elsewhere
                    }
                }
                Request r = pending;
                if (r.isScheduled() && r.intendedNanos() - EARLY_NANOS > now) {
                    now = System.nanoTime();
                    if (r.intendedNanos() - EARLY_NANOS > now) {
                        waitForSendTime(r.intendedNanos(), now);
                        break; // a timer will pump again
                    }
                }
                ConnectionSlot c = r.affinity() >= 0 ? connectionFor(r.affinity()) : pickConnection();
                if (c == null) {
                    if (r.isScheduled() && roomWaitSince == NO_ROOM_WAIT) {
                        // one that left early with others is not due before its time
                        roomWaitSince = Math.max(now, r.intendedNanos());
                        roomWaitBehind = now - r.intendedNanos() > BEHIND_NANOS;
                    }
                    break; // all full: a reply will pump again
                }
                if (roomWaitSince != NO_ROOM_WAIT) {
                    countRoomWait(now);
                    roomWaitSince = NO_ROOM_WAIT;
                }
                pending = null;
                int bytes = c.send(r, now);
                int i = c.id() - firstSlotId;
                if (!dirty[i]) {
                    dirty[i] = true;
                    dirtySlots.add(c);
                }
                if (c.canSend()) {
                    slotReady(c); // pipelining: room for more
                }
                stats[r.workload()].recordSent(bytes);
                if (intervalStats) {
                    interval.recordSent(bytes);
                }
                if (r.isScheduled()) {
                    LatencyHistograms.record(sendLag, Math.max(0, now - r.intendedNanos()));
                }
            }
        } finally {
            pumping = false;
            flushAll();
            checkPhaseDone();
        }
    }

    /**
     * Counts the wait for room so far, up to {@code until}, in this interval's figures; a wait that
     * goes on counts from there on (a snapshot in the middle of one splits it between intervals).
     */
    private void countRoomWait(long until) {
        if (roomWaitSince != NO_ROOM_WAIT && until - roomWaitSince > 0) {
            connectionCounts.addRoomWait(until - roomWaitSince, roomWaitBehind);
            intervalConnections.addRoomWait(until - roomWaitSince, roomWaitBehind);
            roomWaitSince = until;
        }
    }

    /** The pacing alarm rang (never early); it was set for {@code wakeAt}. */
    private void wakeUp(long wakeAt) {
        long now = System.nanoTime();
        // learn how late timers fire: a slow moving average, bounded
        timerLeadNanos = Math.max(0, Math.min(MAX_TIMER_LEAD_NANOS, timerLeadNanos + (now - wakeAt - timerLeadNanos) / 8));
        pump();
    }

    private void flushAll() {
        for (int k = 0; k < dirtySlots.size(); k++) {
            ConnectionSlot c = dirtySlots.get(k);
            dirty[c.id() - firstSlotId] = false;
            c.flush();
        }
        dirtySlots.clear();
    }

    /** The slot may have room to send: queue it for {@link #pickConnection()} (once). */
    void slotReady(ConnectionSlot c) {
        int i = c.id() - firstSlotId;
        if (!queued[i]) {
            queued[i] = true;
            ready.addLast(c);
        }
    }

    /**
     * Open-loop pacing: sets a timer that wakes the loop {@code timerLeadNanos} (at most
     * {@link #EARLY_NANOS}) before {@code sendAt}. The lead is learnt: how late this machine's timers fire (a few µs once
     * {@link TimerSlack} has minimized the thread's slack, 50 µs and more otherwise). Whatever is
     * due by then, and within {@link #EARLY_NANOS} after it, leaves on that wake-up.
     */
    private void waitForSendTime(long sendAt, long now) {
        long wakeAt = Math.max(now + MIN_TIMER_NANOS, sendAt - Math.min(timerLeadNanos, EARLY_NANOS));
        if (wakeAt < alarm.alarmNanos()) { // NONE when unset: an alarm set earlier stays
            alarm.set(wakeAt);
        }
    }

    /** The connection a request with affinity must use, or null while it has no room (order is kept). */
    private ConnectionSlot connectionFor(int affinity) {
        ConnectionSlot c = connections.get(affinity % connections.size());
        return c.canSend() ? c : null;
    }

    /**
     * A slot with room, in the order slots got room (fair, and O(1): a thread may have thousands of
     * connections). Queued slots that lost their room meanwhile (closed) are dropped here.
     */
    private ConnectionSlot pickConnection() {
        ConnectionSlot c;
        while ((c = ready.pollFirst()) != null) {
            queued[c.id() - firstSlotId] = false;
            if (c.canSend()) {
                return c;
            }
        }
        return null;
    }

    /** A reply of this class (HTTP status class) ended {@code r}; call before {@link #complete}. */
    void replyClass(Request r, int c) {
        stats[r.workload()].recordReplyClass(c);
    }

    /** Records how a request ended and returns it to the pool. Called on the loop by connections. */
    void complete(Request r, Outcome outcome, long nowNanos, int responseBytes) {
        WorkloadStats s = stats[r.workload()];
        s.record(outcome, nowNanos - r.latencyOriginNanos(), nowNanos - r.sentNanos(), responseBytes);
        if (intervalStats) {
            interval.record(outcome, nowNanos - r.latencyOriginNanos(), nowNanos - r.sentNanos(), responseBytes);
        }
        int slot = r.connectionId() - firstSlotId;
        if (slot >= 0 && slot < queued.length) {
            slotReady(connections.get(slot)); // its reply freed room on that slot
        }
        if (tracing) {
            tracer.record(r, outcome, nowNanos, responseBytes, warmingUp);
        }
        pool.release(r);
    }

    private void checkTimeouts() {
        long now = System.nanoTime();
        for (ConnectionSlot c : connections) {
            c.expire(now, timeoutNanos);
        }
        checkPhaseDone();
    }

    private void checkPhaseDone() {
        if (phaseDone.isDone() || !(sourceDone || stopping) || pending != null) {
            return;
        }
        for (ConnectionSlot c : connections) {
            if (c.inFlightCount() > 0) {
                return;
            }
        }
        // nothing in flight: sleep again, so that the run's thread (nice 19 in a paced run, and
        // maybe on this CPU) gets the CPU at once to end the window, not a share of a spinning one
        alarm.pollOnly(false);
        phaseDone.complete(null);
    }

    // ---- metrics ----

    /** An empty task: queued from another thread, it only wakes the loop. */
    private static final Runnable NOTHING = () -> { };

    /**
     * Queues an empty task on the loop from the calling thread (not the loop's), which wakes the
     * loop if it waits: LoadRun does it often in the warm-up, so that the JIT's profile of the
     * loop's wait sees a task come in from another thread at every point of it (see LoadRun's
     * WAKEUP_EXERCISE_NANOS). Allocates nothing.
     */
    void wakeFromOutside() {
        loop.execute(NOTHING);
    }

    /**
     * Empties this thread's figures in place during the warm-up (whose figures are not kept), so
     * that the JIT sees recording start afresh as it does in each window (see LoadRun's
     * WARMUP_FORGET_NANOS). Clears about 1 MB of histograms on the loop: done in the warm-up only.
     */
    void forgetWarmupFigures() {
        onLoop(() -> {
            if (!warmingUp) {
                return;
            }
            for (WorkloadStats s : stats) {
                s.reset();
            }
            sendLag.reset();
            connectLatency.reset();
        });
    }

    /** This thread's metrics since the last reset; with {@code reset} they start again from zero. */
    CompletableFuture<ThreadSnapshot> snapshot(boolean reset) {
        return snapshot(reset, false);
    }

    /**
     * @param endWarmup the warm-up ends with this snapshot: later requests are traced as measured,
     *                  in the same event-loop step as the metrics restart, so both agree
     */
    CompletableFuture<ThreadSnapshot> snapshot(boolean reset, boolean endWarmup) {
        CompletableFuture<ThreadSnapshot> result = new CompletableFuture<>();
        if (reset) {
            // the next interval's empty metrics are made here, on the caller's thread: the loop only
            // swaps them in, where copying and clearing 270 KB histograms held up sends for ms
            WorkloadStats[] fresh = newStats(workloadCount);
            Histogram freshLag = WorkloadStats.newHistogram();
            Histogram freshConnect = WorkloadStats.newHistogram();
            ConnectionCounts freshCounts = new ConnectionCounts();
            onLoop(() -> {
                if (endWarmup) {
                    warmingUp = false;
                }
                long taken = System.nanoTime();
                countRoomWait(taken); // a wait going on: its part so far belongs to the interval ending
                WorkloadStats[] out = stats;
                Histogram lag = sendLag;
                Histogram connect = connectLatency;
                ConnectionCounts conns = connectionCounts;
                stats = fresh;
                sendLag = freshLag;
                connectLatency = freshConnect;
                connectionCounts = freshCounts;
                conns.setOpen(openConnections());
                long cpu = loopWorkNanos();
                long used = loopCpuSince(cpu);
                loopCpuMark = cpu;
                result.complete(new ThreadSnapshot(out, conns, lag, connect, used, taken));
            });
            return result;
        }
        onLoop(() -> {
            if (endWarmup) {
                warmingUp = false;
            }
            WorkloadStats[] copy = new WorkloadStats[stats.length];
            for (int i = 0; i < stats.length; i++) {
                copy[i] = stats[i].copy();
            }
            long taken = System.nanoTime();
            countRoomWait(taken); // the wait so far
            ConnectionCounts conns = connectionCounts.copy();
            conns.setOpen(openConnections());
            result.complete(new ThreadSnapshot(copy, conns, sendLag.copy(), connectLatency.copy(),
                    loopCpuSince(loopWorkNanos()), taken));
        });
        return result;
    }

    /**
     * The loop thread's CPU time less its idle polls under --busy-poll (the time it worked, which
     * says whether it had room to spare); -1 when the CPU time is unknown. On the loop.
     */
    private long loopWorkNanos() {
        long cpu = ThreadCpu.currentThreadNanos();
        return cpu < 0 ? -1 : cpu - alarm.idlePollNanos();
    }

    /** The loop's working time from the interval's start to {@code now}, or -1 when either is unknown. */
    private long loopCpuSince(long now) {
        return now < 0 || loopCpuMark < 0 ? -1 : now - loopCpuMark;
    }

    private long openConnections() {
        long open = 0;
        for (ConnectionSlot c : connections) {
            if (c.isOpen()) {
                open++;
            }
        }
        return open;
    }

    /**
     * This thread's figures of the window so far, for the live line, without copying histograms:
     * the latency comes in a histogram this driver reuses, so the caller must have read the
     * previous one before asking again (the run asks once a second and reads at once).
     */
    CompletableFuture<LiveCounts> liveSnapshot() {
        CompletableFuture<LiveCounts> result = new CompletableFuture<>();
        onLoop(() -> {
            long requests = 0;
            long failed = 0;
            liveLatency.reset();
            for (WorkloadStats w : stats) {
                requests += w.outcomes().requests();
                failed += w.outcomes().error() + w.outcomes().timeout() + w.outcomes().closed();
                liveLatency.add(w.latency());
            }
            result.complete(new LiveCounts(requests, failed, liveLatency));
        });
        return result;
    }

    /** One thread's part of a live sample: requests and failures so far, and their latency. */
    record LiveCounts(long requests, long failed, Histogram latency) {
    }

    /** The statistics block's figures since the last call, which starts them again from zero. */
    CompletableFuture<ThreadSnapshot> intervalSnapshot() {
        CompletableFuture<ThreadSnapshot> result = new CompletableFuture<>();
        onLoop(() -> {
            WorkloadStats copy = interval.copy();
            interval.reset();
            ConnectionCounts conns = intervalConnections.copy();
            conns.setOpen(openConnections());
            intervalConnections.reset();
            result.complete(new ThreadSnapshot(new WorkloadStats[] {copy}, conns, null, null, -1, System.nanoTime()));
        });
        return result;
    }

    private void onLoop(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
        } else {
            loop.execute(task);
        }
    }

    /** Pulls from the source one request at a time, only when there is room to send it. */
    private final class SourceSubscriber extends BaseSubscriber<Request> {
        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            // nothing until the driver has room
        }

        void requestOne() {
            request(1);
        }

        @Override
        protected void hookOnNext(Request r) {
            if (loop.inEventLoop()) {
                accept(r);
            } else {
                loop.execute(() -> {
                    accept(r);
                    pump();
                });
            }
        }

        private void accept(Request r) {
            if (stopping || subscriber != this) {
                pool.release(r);
                return;
            }
            pending = r;
        }

        @Override
        protected void hookOnComplete() {
            onLoop(() -> {
                if (subscriber == this) {
                    sourceDone = true;
                    checkPhaseDone();
                }
            });
        }

        @Override
        protected void hookOnError(Throwable error) {
            onLoop(() -> {
                errors.sourceFailed(error);
                if (subscriber == this) {
                    sourceDone = true;
                    checkPhaseDone();
                }
            });
        }
    }
}
