package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.util.function.BooleanSupplier;
import reactor.core.publisher.Flux;

/**
 * The benchmarks' way in to replay's reader-to-loop hand-off ({@link Lane} and its
 * {@link SpscRing}s, package-private): a class of the bench module in replay's package, so that
 * replay opens nothing up for it. Each method calls the one of the same name and does nothing else.
 * Not part of replay; nothing but {@code io.fluxperf.bench} uses it.
 */
public final class LaneBenchAccess {
    /** Commands per lane ring in a replay ({@code ReplaySource.LANE_CAPACITY}). */
    public static final int LANE_CAPACITY = ReplaySource.LANE_CAPACITY;

    private final Lane lane;

    /** A lane as {@code ReplaySource} makes one per load thread, with its own synthetic values. */
    public LaneBenchAccess(int capacity) {
        this.lane = new Lane(capacity, new SynthValues());
    }

    /** {@link Lane#flux}: subscribe on the thread that plays the event loop. */
    public Flux<Request> flux(RequestPool pool, long startNanos) {
        return lane.flux(pool, startNanos);
    }

    /** {@link Lane#put}, on the thread that plays the reader. */
    public boolean put(LogEntry e, Thread readerThread, BooleanSupplier closed) {
        return lane.put(e, readerThread, closed);
    }

    /** {@link Lane#takeReturned}, on the reader's thread. */
    public LogEntry takeReturned() {
        return lane.takeReturned();
    }

    /** {@link Lane#finish}. */
    public void finish() {
        lane.finish();
    }

    /** A bare {@link SpscRing} of {@code capacity}. */
    public static <T> Ring<T> ring(int capacity) {
        return new Ring<>(new SpscRing<>(capacity));
    }

    /** {@link SpscRing}'s offer and poll. */
    public static final class Ring<T> {
        private final SpscRing<T> ring;

        private Ring(SpscRing<T> ring) {
            this.ring = ring;
        }

        public boolean offer(T value) {
            return ring.offer(value);
        }

        public T poll() {
            return ring.poll();
        }
    }
}
