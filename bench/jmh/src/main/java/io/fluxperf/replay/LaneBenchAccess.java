package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import reactor.core.publisher.Flux;

/**
 * The benchmarks' way in to replay's reader-to-loop hand-off ({@link Lane} and its
 * {@link ByteRing}, package-private): a class of the bench module in replay's package, so that
 * replay opens nothing up for it. Each method calls the one of the same name and does nothing else.
 * Not part of replay; nothing but {@code io.fluxperf.bench} uses it.
 */
public final class LaneBenchAccess {
    /** Bytes of a lane's ring in a replay ({@code Lane.RING_BYTES}). */
    public static final int RING_BYTES = Lane.RING_BYTES;

    private final Lane lane;

    /** A lane as {@code ReplaySource} makes one per load thread, with its own synthetic values. */
    public LaneBenchAccess(int ringBytes) {
        this.lane = new Lane(ringBytes, new SynthValues());
    }

    /** {@link Lane#flux}: subscribe on the thread that plays the event loop, whose tasks {@code loop} runs. */
    public Flux<Request> flux(RequestPool pool, long startNanos, Executor loop) {
        return lane.flux(pool, startNanos, loop);
    }

    /** {@link Lane#put}, on the thread that plays the reader. */
    public boolean put(LogEntry e, Thread readerThread, BooleanSupplier closed) {
        return lane.put(e, readerThread, closed);
    }

    /** {@link Lane#finish}. */
    public void finish() {
        lane.finish();
    }

    /** A bare {@link ByteRing} of {@code capacity} bytes. */
    public static Ring ring(int capacity) {
        return new Ring(new ByteRing(capacity));
    }

    /** {@link ByteRing}'s records: one of a given payload size in, and one out. */
    public static final class Ring {
        private final ByteRing ring;

        private Ring(ByteRing ring) {
            this.ring = ring;
        }

        /** Claims, writes {@code value} at the payload's start and publishes a record of {@code payload} bytes; false when full. */
        public boolean offer(long value, int payload) {
            int at = ring.claim(ByteRing.recordSize(payload));
            if (at < 0) {
                return false;
            }
            ByteRing.LONG.set(ring.bytes(), at, value);
            ring.publish();
            return true;
        }

        /** The oldest record's first long, released; -1 when empty. */
        public long poll() {
            int at = ring.peek();
            if (at < 0) {
                return -1;
            }
            long v = (long) ByteRing.LONG.get(ring.bytes(), at);
            ring.release();
            return v;
        }
    }
}
