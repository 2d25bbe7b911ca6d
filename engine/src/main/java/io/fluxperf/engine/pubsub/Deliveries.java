package io.fluxperf.engine.pubsub;

import io.fluxperf.engine.request.MessagePayload;
import io.fluxperf.trace.LatencyHistograms;
import io.netty.buffer.ByteBuf;
import java.util.BitSet;
import org.HdrHistogram.Histogram;

/**
 * What one subscriber received, over all its connections: each message of this run once (a bit
 * per message, by sequence: a second arrival is a duplicate), and for the window going on the
 * messages delivered and duplicated and their latency, from the send time in the message to the
 * arrival: a window counts what arrived in it, as a window's requests are those that ended in it.
 * What arrived before the measured windows began (the warm-up's) is in the bit set but in no
 * window; another run's messages on the same channels are only counted.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Every method runs on the subscribers' event loop (the run's thread asks through tasks),
 *       so nothing locks; nothing is allocated per message but a bit set's growth.</li>
 *   <li>{@link #swap} hands out the window's figures and takes in emptied ones: a window's end
 *       clears nothing on the loop.</li>
 * </ul>
 */
final class Deliveries {
    /** The window's figures, handed to the run's thread at its end. */
    static final class Window {
        final Histogram latency = LatencyHistograms.create();
        long delivered;
        long duplicated;

        void reset() {
            latency.reset();
            delivered = 0;
            duplicated = 0;
        }
    }

    private final MessageLedger ledger;
    private final BitSet received = new BitSet();
    private Window window = new Window();
    private long foreign;

    Deliveries(MessageLedger ledger) {
        this.ledger = ledger;
    }

    /** A message's payload, {@code in[start, start + length)}, arrived at {@code nowNanos}. */
    void delivered(ByteBuf in, int start, int length, long nowNanos) {
        if (length < MessagePayload.HEADER_BYTES) {
            foreign++;
            return;
        }
        long id = MessagePayload.id(in, start);
        long sequence = MessageLedger.sequence(id);
        if (!ledger.ours(id) || sequence > Integer.MAX_VALUE) {
            foreign++;
            return;
        }
        long sent = MessagePayload.sentNanos(in, start);
        boolean again = received.get((int) sequence);
        received.set((int) sequence);
        if (again) {
            window.duplicated++;
        } else {
            window.delivered++;
            LatencyHistograms.record(window.latency, nowNanos - sent);
        }
    }

    /** The measured windows begin: what arrived before is forgotten from the window's figures. */
    void measuring() {
        window.reset();
    }

    /** Ends the window: returns its figures, and records into {@code spare} (emptied) from now on. */
    Window swap(Window spare) {
        Window w = window;
        window = spare;
        return w;
    }

    /** A copy of every message received, by sequence. */
    BitSet received() {
        return (BitSet) received.clone();
    }

    /** Messages of other runs (or no run) on the subscribed channels. */
    long foreign() {
        return foreign;
    }
}
