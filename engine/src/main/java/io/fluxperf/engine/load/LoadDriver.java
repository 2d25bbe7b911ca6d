package io.fluxperf.engine.load;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.connection.ClientLoop;
import io.fluxperf.engine.connection.ConnectionSlot;
import io.fluxperf.engine.connection.SlotEvents;
import io.fluxperf.engine.connection.TargetConnection;
import io.fluxperf.engine.connection.Transports;
import io.fluxperf.engine.connection.UdpSlot;
import io.fluxperf.engine.host.HostTuning;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.trace.ThreadTracer;
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
final class LoadDriver implements SlotEvents {
    private final int index;
    private final int threads;
    private final EventLoop loop;
    private final CodecFactory codecs;
    private final RequestPool pool;
    private final RunErrors errors;
    private final long timeoutNanos;
    private final List<ConnectionSlot> slots = new ArrayList<>();
    private final int firstSlotId;
    private final ThreadRecorder recorder;
    private final SendScheduler scheduler;
    private final ConnectionManager connections;
    private CompletableFuture<Void> phaseDone = CompletableFuture.completedFuture(null);

    /**
     * @param codecs the run's codec factory ({@link Protocol#codecs})
     * @param tracer where this thread's trace records go; null without a trace
     */
    LoadDriver(int index, RunConfig config, Protocol protocol, CodecFactory codecs, ClientLoop clientLoop,
               SocketAddress target, RunErrors errors, ThreadTracer tracer, HostTuning tuning) {
        this.index = index;
        this.threads = config.threads();
        this.loop = clientLoop.loop();
        this.codecs = codecs;
        this.errors = errors;
        this.timeoutNanos = config.timeout().toNanos();
        boolean perRequest = config.connection().connectPerRequest();
        int count = slotsOfThread(config, index);
        int pipeline = perRequest ? 1 : config.pipeline();
        this.pool = new RequestPool(count * pipeline + 1);
        int firstId = 0;
        for (int t = 0; t < index; t++) {
            firstId += slotsOfThread(config, t);
        }
        this.firstSlotId = firstId;
        Transports transports = config.connection().udp() ? null : new Transports(config, clientLoop, target);
        for (int c = 0; c < count; c++) {
            slots.add(config.connection().udp()
                    ? new UdpSlot(this, firstId + c, c, pipeline, target, clientLoop, protocol.datagramFraming())
                    : new TargetConnection(this, transports, firstId + c, c, pipeline, perRequest));
        }
        this.recorder = new ThreadRecorder(config.workloads().size(), !config.statsInterval().isZero(), tracer,
                clientLoop.alarm());
        // the alarm is handed to the scheduler before the loop's first task below hands it to the loop
        this.scheduler = new SendScheduler(loop, clientLoop.alarm(), config.connection().busyPoll(), config.earlySend(),
                slots, recorder, pool, errors, this::checkPhaseDone, perRequest ? this::sentOn : null);
        double rate = config.connection().connectRate();
        long connectInterval = rate > 0 ? (long) (1e9 * config.threads() / rate) : 0;
        this.connections = new ConnectionManager(loop, slots, recorder, errors, perRequest, connectInterval,
                scheduler::needsConnections);
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(TimeUnit.MILLISECONDS.toNanos(50), timeoutNanos / 10));
        loop.scheduleAtFixedRate(this::checkTimeouts, period, period, TimeUnit.NANOSECONDS);
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
            scheduler.shutdown();
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
        recorder.tick(now);
        checkPhaseDone();
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
    CompletableFuture<ThreadFigures> swap(ThreadFigures spare, boolean endWarmup) {
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

    /** The window's figures so far, for the live line (see {@link ThreadRecorder#live()}). */
    CompletableFuture<ThreadRecorder.LiveCounts> live() {
        CompletableFuture<ThreadRecorder.LiveCounts> result = new CompletableFuture<>();
        onLoop(() -> result.complete(recorder.live()));
        return result;
    }

    /** The reads answered in the warm-up so far, for a warm-up to a hit rate. */
    CompletableFuture<ThreadRecorder.WarmupReads> warmupReads() {
        CompletableFuture<ThreadRecorder.WarmupReads> result = new CompletableFuture<>();
        onLoop(() -> result.complete(recorder.warmupReads()));
        return result;
    }

    /** The statistics block's figures since the last call, which starts them again from zero. */
    CompletableFuture<ThreadRecorder.IntervalFigures> interval() {
        CompletableFuture<ThreadRecorder.IntervalFigures> result = new CompletableFuture<>();
        onLoop(() -> result.complete(recorder.interval(connections.openCount())));
        return result;
    }

    /** How this thread kept its schedule in the measured part of its phase; ask once its requests have ended. */
    CompletableFuture<SendLateness> lateness() {
        CompletableFuture<SendLateness> result = new CompletableFuture<>();
        onLoop(() -> result.complete(recorder.lateness()));
        return result;
    }

    /** Empties this thread's figures in place, during the warm-up only (whose figures are not kept). */
    void clearWarmupFigures() {
        onLoop(recorder::clear);
    }

    /** A connection per request: the slot's one request went out on it. */
    private void sentOn(ConnectionSlot slot) {
        connections.sent(slot);
    }

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
    public void established(ConnectionSlot slot) {
        connections.established(slot);
    }

    @Override
    public void ready(ConnectionSlot slot) {
        connections.ready(slot);
        scheduler.slotReady(slot);
        scheduler.pump();
    }

    @Override
    public void connectFailed(ConnectionSlot slot, Throwable cause) {
        connections.connectFailed(slot, cause);
    }

    @Override
    public void closed(ConnectionSlot slot, boolean expected) {
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
        int slot = request.connectionId() - firstSlotId;
        if (slot >= 0 && slot < slots.size()) {
            scheduler.slotReady(slots.get(slot)); // its reply freed room on that slot
        }
        pool.release(request);
    }

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
    public void connectionError(Throwable cause) {
        errors.connectionError(cause);
    }
}
