package io.fluxperf.bench;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.replay.LaneBenchAccess;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Control;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * Replay's hand-off from its reader thread to a load thread: one {@code Lane} (one per load thread
 * in a replay), a ring of {@value LaneBenchAccess#RING_BYTES} bytes into which the reader copies
 * each parsed command and out of which the load thread fills pooled requests. One op is one
 * command handed over.
 *
 * <ul>
 * <li>{@code lane} (two threads): {@code reader} is the end of {@code ReplaySource.release}, after
 *     pacing and counting: {@code Lane.put} of the next command (which parks while the ring is
 *     full, and wakes the load thread's loop with a task when it waits for a command). {@code loop}
 *     is the engine's {@code SendScheduler} pulling its source on its event loop: {@code request(1)},
 *     the request filled from the ring (command, key, value, send time) and emitted at once, or,
 *     when the ring was empty, when the reader's wake-up task runs; then sent and given back to the
 *     pool. The loop thread here runs the lane's wake-up tasks itself, as an event loop runs its
 *     task queue. The entries are parsed once in the set-up (one set in five, 32-byte synthesised
 *     values, 16-byte keys, 50 clients); the reader does not parse ({@link LogReaderBench}
 *     measures that). The reader is faster than the loop, so the ring stays full, as in a replay
 *     whose read-ahead is primed. The counters {@code onLoop} and {@code woken} count the commands
 *     the loop found in the ring when it asked and those it got from a wake-up.</li>
 * <li>{@code oneThread}: the same put and pull on one thread, one command at a time: the lane's
 *     own cost without one core waiting for the other's cache lines.</li>
 * <li>{@code ring} (two threads): the bare ring, a record of a command's size in and out, each
 *     side spinning while it cannot.</li>
 * </ul>
 * The two-thread groups need both cores of a 2-CPU machine; each thread's ns/op is the time per
 * command at the pace of the slower side.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar LaneHandOffBench -prof gc}. Expected:
 * 0 B/op (a ring of bytes, pooled requests, the reader's entries reused at once).
 */
public class LaneHandOffBench extends HotPathBenchmark {
    /** The reader's parsed entries, taken in turn (each is copied into the ring, so it is free again at once). */
    private static final int ENTRIES = 1024;

    /** The loop's task queue: the lane's wake-up, run by the thread that plays the loop. */
    static final class LoopTasks implements Executor {
        private final AtomicReference<Runnable> task = new AtomicReference<>();

        @Override
        public void execute(Runnable command) {
            task.set(command); // the lane has one wake-up task; a second while one is queued changes nothing
        }

        /** Runs the queued task, if any (on the loop's thread); true if there was one. */
        boolean runQueued() {
            Runnable r = task.getAndSet(null);
            if (r == null) {
                return false;
            }
            r.run();
            return true;
        }
    }

    /** One lane, its reader's entries and its load thread's subscriber. */
    @State(Scope.Group)
    public static class Lane {
        LaneBenchAccess lane;
        RequestPool pool;
        final LogEntry[] entries = new LogEntry[ENTRIES];
        int next;
        final LoopTasks tasks = new LoopTasks();
        /** This iteration's control: its end stops a wait (the reader's for room, the loop's for a command). */
        volatile Control control;
        final BooleanSupplier stopped = () -> {
            Control c = control;
            return c != null && c.stopMeasurement;
        };
        LoopSubscriber subscriber;
        /** The loop asked and has not been answered yet. */
        boolean asked;
        long sends;

        @Setup
        public void setup() {
            lane = new LaneBenchAccess(LaneBenchAccess.RING_BYTES);
            pool = new RequestPool(16);
            for (int i = 0; i < ENTRIES; i++) {
                entries[i] = parsed(i);
            }
        }

        @TearDown
        public void tearDown() {
            if (subscriber != null) {
                subscriber.dispose();
            }
        }
    }

    /** Where the load thread's commands came from, per iteration. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class LoopCounters {
        /** In the ring when the load thread asked. */
        public long onLoop;
        /** Emitted by the reader's wake-up task: the ring was empty when the load thread asked. */
        public long woken;

        @Setup(Level.Iteration)
        public void reset() {
            onLoop = 0;
            woken = 0;
        }
    }

    /** The engine's {@code SendScheduler.SourceSubscriber}: nothing until asked, one at a time. */
    static final class LoopSubscriber extends BaseSubscriber<Request> {
        final Thread loop = Thread.currentThread();
        private Request pending;

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            // nothing until there is room
        }

        @Override
        protected void hookOnNext(Request r) {
            if (Thread.currentThread() != loop) {
                throw new IllegalStateException("a request was emitted off the loop");
            }
            pending = r;
        }

        @Override
        protected void hookOnError(Throwable error) {
            throw new IllegalStateException("the lane failed", error);
        }

        Request take() {
            Request r = pending;
            pending = null;
            return r;
        }
    }

    /** The reader's end of {@code ReplaySource.release}: the next command into the lane. */
    @Benchmark
    @Group("lane")
    @GroupThreads(1)
    public boolean reader(Lane s, Control control) {
        if (s.control != control) {
            s.control = control;
        }
        LogEntry e = s.entries[s.next++ & (ENTRIES - 1)];
        return s.lane.put(e, Thread.currentThread(), s.stopped); // false: the iteration ended while the ring was full
    }

    /** The load thread: ask for one request, take it, send it, give it back. */
    @Benchmark
    @Group("lane")
    @GroupThreads(1)
    public int loop(Lane s, LoopCounters counters, Control control) {
        if (s.control != control) {
            s.control = control;
        }
        LoopSubscriber sub = s.subscriber;
        if (sub == null) {
            sub = s.subscriber = new LoopSubscriber(); // subscribes on this thread, as a load thread on its loop
            s.lane.flux(s.pool, System.nanoTime(), s.tasks).subscribe(sub);
        } else if (sub.loop != Thread.currentThread()) {
            throw new IllegalStateException("the load thread's part moved to another thread");
        }
        if (!s.asked) {
            s.asked = true;
            sub.request(1);
        }
        Request r = sub.take();
        if (r != null) {
            counters.onLoop++;
        }
        while (r == null) {
            if (control.stopMeasurement) {
                return 0; // still asked: the next iteration waits for the answer
            }
            if (!s.tasks.runQueued()) {
                Thread.onSpinWait();
            }
            r = sub.take();
            if (r != null) {
                counters.woken++;
            }
        }
        s.asked = false;
        r.sentNanos(++s.sends);
        int length = r.keyLength(0) + r.valueLength();
        s.pool.release(r);
        return length;
    }

    /** Put one command and pull it, on one thread (a group of one, for the lane's group state). */
    @Benchmark
    @Group("oneThread")
    @GroupThreads(1)
    public int oneThread(Lane s, LoopCounters counters, Control control) {
        reader(s, control);
        return loop(s, counters, control);
    }

    /** A bare ring between two threads: records of a parsed get's size. */
    @State(Scope.Group)
    public static class Ring {
        final LaneBenchAccess.Ring ring = LaneBenchAccess.ring(LaneBenchAccess.RING_BYTES);
        long next;
    }

    /** Payload bytes of a get of a 16-byte key in a lane's ring. */
    private static final int GET_RECORD = 100;

    @Benchmark
    @Group("ring")
    @GroupThreads(1)
    public boolean offer(Ring s, Control control) {
        while (!s.ring.offer(s.next, GET_RECORD)) {
            if (control.stopMeasurement) {
                return false;
            }
            Thread.onSpinWait();
        }
        s.next++;
        return true;
    }

    @Benchmark
    @Group("ring")
    @GroupThreads(1)
    public long poll(Ring s, Control control) {
        long v;
        while ((v = s.ring.poll()) < 0) {
            if (control.stopMeasurement) {
                return -1;
            }
            Thread.onSpinWait();
        }
        return v;
    }

    /** An entry as a reader leaves it: command i of a log with one set in five, 50 clients, one thread. */
    static LogEntry parsed(int i) {
        LogEntry e = new LogEntry();
        boolean set = i % ReplayLogs.SET_EVERY == 0;
        e.command = set ? Command.SET : Command.GET;
        e.verb = set ? 1 : 0;
        e.workload = e.verb;
        byte[] key = String.format("key:%012d", i * 7919L % ReplayLogs.KEYS).getBytes(StandardCharsets.US_ASCII);
        e.addKey(null, key, 0, key.length);
        if (set) {
            e.synthSize = ReplayLogs.VALUE_BYTES;
        }
        e.client = i % ReplayLogs.CLIENTS;
        e.affinity = e.client; // client / threads, with one load thread
        e.line = i + 1L;
        e.loop = 1;
        e.timeNanos = i * ReplayLogs.INTERVAL_NANOS;
        e.scheduled = true;
        e.offsetNanos = e.timeNanos;
        return e;
    }
}
