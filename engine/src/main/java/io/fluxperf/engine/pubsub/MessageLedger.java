package io.fluxperf.engine.pubsub;

import io.fluxperf.engine.request.PublishLedger;
import io.fluxperf.engine.request.Request;
import java.util.BitSet;

/**
 * The run's account of the messages it published: each publish's message id, and which publishes
 * ended ok (the server took the message, which every subscriber is then to receive once).
 *
 * <p>An id is the run's tag (16 random bits, so that a subscriber tells this run's messages from
 * another's on the same channels) over a 48-bit sequence number: the n-th publish of thread t of T
 * has sequence n·T + t, so the threads' ids interleave densely and a bit set indexed by sequence
 * (one bit per message) holds a subscriber's deliveries.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Each thread's part ({@link #thread}) is written by that load thread's event loop only: its
 *       ids as its requests are made, its acceptances as they end; nothing locks, nothing is
 *       allocated but a bit set's growth.</li>
 *   <li>{@link #accepted()} is read on the run's thread once every request has ended (the end of
 *       the load phase orders the loops' writes before it).</li>
 * </ul>
 */
public final class MessageLedger {
    static final int SEQUENCE_BITS = 48;
    static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;

    private final long tag;
    private final int threads;
    private final Thread[] parts;

    /** @param tag the run's tag, 16 bits (a random draw: another run's messages on the same channels are not ours) */
    MessageLedger(int threads, int tag) {
        this.tag = (long) (tag & 0xFFFF) << SEQUENCE_BITS;
        this.threads = threads;
        this.parts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            parts[t] = new Thread(t);
        }
    }

    /** The part of thread {@code t}: the ids of its publishes and their acceptance. */
    Thread thread(int t) {
        return parts[t];
    }

    /** Whether {@code id} is one of this run's messages. */
    boolean ours(long id) {
        return (id & ~SEQUENCE_MASK) == tag;
    }

    /** The sequence number of one of this run's ids: where its bit is. */
    static long sequence(long id) {
        return id & SEQUENCE_MASK;
    }

    /** Every message whose publish ended ok in a measured window, by sequence; after the load. */
    BitSet accepted() {
        return union(true);
    }

    /** Every message whose publish ended ok in the warm-up, by sequence; after the load. */
    BitSet acceptedInWarmup() {
        return union(false);
    }

    private BitSet union(boolean measured) {
        BitSet all = new BitSet();
        for (Thread p : parts) {
            BitSet own = measured ? p.accepted : p.warm;
            for (int n = own.nextSetBit(0); n >= 0; n = own.nextSetBit(n + 1)) {
                all.set((int) ((long) n * threads + p.index));
            }
        }
        return all;
    }

    /** One load thread's part. */
    final class Thread implements PublishLedger {
        private final int index;
        private final BitSet accepted = new BitSet();
        private final BitSet warm = new BitSet();
        private long made;

        private Thread(int index) {
            this.index = index;
        }

        /** The id of this thread's next publish. */
        long nextId() {
            return tag | (made++ * threads + index);
        }

        @Override
        public void accepted(Request r, boolean measured) {
            (measured ? accepted : warm).set((int) (sequence(r.numeric()) / threads));
        }
    }
}
