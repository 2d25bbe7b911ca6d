package io.fluxperf.bench;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.replay.LaneBenchAccess;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
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
 * in a replay), a ring of {@value LaneBenchAccess#LANE_CAPACITY} parsed commands the reader fills
 * and the load thread empties into pooled requests, and the ring that hands each command back.
 * One op is one command handed over.
 *
 * <ul>
 * <li>{@code lane} (two threads): {@code reader} is the end of {@code ReplaySource.release}, after
 *     pacing and counting: take back the entries whose requests were filled, then
 *     {@code Lane.put} the next one (which waits, parked, while the ring is full, and emits from
 *     the reader's thread when the load thread asked and found the ring empty). {@code loop} is
 *     the engine's {@code SendScheduler} pulling its source: {@code request(1)} on the
 *     subscribing thread, the request filled from the entry (command, key, value, send time) and
 *     emitted at once, or, when the ring was empty, later from the reader's thread and handed
 *     over; then sent (its send time set, which the lane checks) and given back to the pool. The
 *     entries are parsed once in the set-up (one set in five, 32-byte synthesised values, 16-byte
 *     keys, 50 clients); the reader does not parse ({@link LogReaderBench} measures that). The
 *     reader is faster than the loop, so the ring stays full, as in a replay whose read-ahead is
 *     primed: the reader parks until the loop has emptied half the ring and wakes it. The
 *     counters {@code onLoop} and {@code offLoop} count the commands emitted on the load thread
 *     (the ring had one) and from the reader's thread (it had none).</li>
 * <li>{@code oneThread}: the same put and pull on one thread, one command at a time: the lane's
 *     own cost without one core waiting for the other's cache lines.</li>
 * <li>{@code ring} (two threads): the bare ring, {@code offer} and {@code poll}, each spinning
 *     while it cannot.</li>
 * </ul>
 * The two-thread groups need both cores of a 2-CPU machine; each thread's ns/op is the time per
 * command at the pace of the slower side.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar LaneHandOffBench -prof gc}. Expected:
 * 0 B/op (rings of references, pooled requests, entries that go round).
 */
public class LaneHandOffBench extends HotPathBenchmark {
    /** More than the two rings hold, so that the reader always has a free entry. */
    private static final int ENTRIES = 2 * LaneBenchAccess.LANE_CAPACITY + 64;

    /** One lane, its reader's free entries and its load thread's subscriber. */
    @State(Scope.Group)
    public static class Lane {
        LaneBenchAccess lane;
        RequestPool pool;
        /** The reader's entries that are in neither ring. */
        final ArrayDeque<LogEntry> free = new ArrayDeque<>(ENTRIES);
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
            lane = new LaneBenchAccess(LaneBenchAccess.LANE_CAPACITY);
            pool = new RequestPool(16);
            for (int i = 0; i < ENTRIES; i++) {
                free.push(parsed(i));
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
        /** Emitted on the load thread: the ring held a command when it asked. */
        public long onLoop;
        /** Emitted from the reader's thread: the ring was empty when the load thread asked. */
        public long offLoop;

        @Setup(Level.Iteration)
        public void reset() {
            onLoop = 0;
            offLoop = 0;
        }
    }

    /** The engine's {@code SendScheduler.SourceSubscriber}: nothing until asked, one at a time. */
    static final class LoopSubscriber extends BaseSubscriber<Request> {
        final Thread loop = Thread.currentThread();
        private Request pending;
        /** Emitted on the reader's thread; the driver hands such a request to its loop with a task. */
        private volatile Request handedOver;

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            // nothing until there is room
        }

        @Override
        protected void hookOnNext(Request r) {
            if (Thread.currentThread() == loop) {
                pending = r;
            } else {
                handedOver = r;
            }
        }

        @Override
        protected void hookOnError(Throwable error) {
            throw new IllegalStateException("the lane failed", error);
        }

        Request take(LoopCounters counters) {
            Request r = pending;
            if (r != null) {
                pending = null;
                counters.onLoop++;
                return r;
            }
            r = handedOver;
            if (r != null) {
                handedOver = null;
                counters.offLoop++;
            }
            return r;
        }
    }

    /** The reader's end of {@code ReplaySource.release}: entries back from the lane, then the next one in. */
    @Benchmark
    @Group("lane")
    @GroupThreads(1)
    public boolean reader(Lane s, Control control) {
        if (s.control != control) {
            s.control = control;
        }
        LogEntry back;
        while ((back = s.lane.takeReturned()) != null) {
            s.free.push(back);
        }
        LogEntry e = s.free.poll();
        if (e == null) {
            throw new IllegalStateException("every entry is in the lane's rings");
        }
        if (!s.lane.put(e, Thread.currentThread(), s.stopped)) {
            s.free.push(e); // the iteration ended while the ring was full
            return false;
        }
        return true;
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
            s.lane.flux(s.pool, System.nanoTime()).subscribe(sub);
        } else if (sub.loop != Thread.currentThread()) {
            throw new IllegalStateException("the load thread's part moved to another thread");
        }
        if (!s.asked) {
            s.asked = true;
            sub.request(1);
        }
        Request r = sub.take(counters);
        while (r == null) {
            if (control.stopMeasurement) {
                return 0; // still asked: the next iteration waits for the answer
            }
            Thread.onSpinWait();
            r = sub.take(counters);
        }
        s.asked = false;
        r.sentNanos(++s.sends); // sent: the lane's next drain sees that a request it emitted arrived
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

    /** A bare ring between two threads. */
    @State(Scope.Group)
    public static class Ring {
        final LaneBenchAccess.Ring<LogEntry> ring = LaneBenchAccess.ring(LaneBenchAccess.LANE_CAPACITY);
        final LogEntry[] entries = new LogEntry[LaneBenchAccess.LANE_CAPACITY * 2];
        int next;

        @Setup
        public void setup() {
            for (int i = 0; i < entries.length; i++) {
                entries[i] = parsed(i);
            }
        }
    }

    @Benchmark
    @Group("ring")
    @GroupThreads(1)
    public boolean offer(Ring s, Control control) {
        LogEntry e = s.entries[s.next++ & (s.entries.length - 1)];
        while (!s.ring.offer(e)) {
            if (control.stopMeasurement) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    @Benchmark
    @Group("ring")
    @GroupThreads(1)
    public LogEntry poll(Ring s, Control control) {
        LogEntry e;
        while ((e = s.ring.poll()) == null) {
            if (control.stopMeasurement) {
                return null;
            }
            Thread.onSpinWait();
        }
        return e;
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
