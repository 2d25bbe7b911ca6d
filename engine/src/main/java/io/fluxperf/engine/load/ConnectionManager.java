package io.fluxperf.engine.load;

import io.fluxperf.engine.connection.ConnectionSlot;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * When one load thread's connections connect: all of them at the start (at {@code --connect-rate}
 * if given), again after a loss with a backoff that doubles from 50 ms to 1 s and starts over with
 * the first reply (lettuce's {@code ConnectionWatchdog} is the model), at once after a close the
 * protocol or the mode planned (HTTP's {@code Connection: close}, a connection per request), and
 * never after a refused handshake or once the run ends. It counts every attempt, open, failure and
 * close, and times each connect.
 *
 * <p>A connection per request connects exactly once per request when the phase's request count is
 * known ({@link RequestSource#size}): a slot connects only while fewer connections are on their way
 * (connecting, or ready and unused) than requests remain unsent, so none is opened that never
 * carries a request (mcb's {@code -s} and dperf's CPS count connections).
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Everything but {@link #openAll()} runs on the thread's event loop.</li>
 *   <li>A slot is connected only while it is closed, and at most once at a time: a reconnect
 *       that comes due finds the slot open (or the run over) and does nothing.</li>
 *   <li>{@link #openAll()} completes once every slot has become ready or failed its first
 *       connect, with the number that failed.</li>
 * </ul>
 */
final class ConnectionManager {
    private static final long MIN_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final EventLoop loop;
    private final List<ConnectionSlot> slots;
    private final ThreadRecorder recorder;
    private final RunErrors errors;
    /** Connect per request: every close is planned, and the next request connects anew. */
    private final boolean perRequest;
    /** Between two first connects of this thread at --connect-rate; 0: all at once. */
    private final long connectIntervalNanos;
    /** Whether the phase running still needs connections (a slot closed after its last request stays idle). */
    private final BooleanSupplier needsConnections;
    private final long[] backoffNanos;
    /** Slots whose first connect has not ended yet, for {@link #openAll()}. */
    private final boolean[] firstPending;
    private int firstPendingCount;
    private int firstFailures;
    private CompletableFuture<Integer> allOpened;
    /** Connect per request: slots left closed because their phase had no more requests. */
    private final List<ConnectionSlot> idle = new ArrayList<>();
    /** Connect per request: requests of the phase not sent yet, or -1 when the phase does not say. */
    private long unsent = -1;
    /** Connect per request: connections on their way that carry no request yet, and which slots they are. */
    private int spare;
    private final boolean[] spareSlot;
    /** A handshake was refused, or a datagram before any reply: connecting again would only be refused again. */
    private boolean refused;
    private boolean closing;

    ConnectionManager(EventLoop loop, List<ConnectionSlot> slots, ThreadRecorder recorder, RunErrors errors,
                      boolean perRequest, long connectIntervalNanos, BooleanSupplier needsConnections) {
        this.loop = loop;
        this.slots = slots;
        this.recorder = recorder;
        this.errors = errors;
        this.perRequest = perRequest;
        this.connectIntervalNanos = connectIntervalNanos;
        this.needsConnections = needsConnections;
        this.backoffNanos = new long[slots.size()];
        this.spareSlot = new boolean[slots.size()];
        this.firstPending = new boolean[slots.size()];
        java.util.Arrays.fill(backoffNanos, MIN_BACKOFF_NANOS);
    }

    /** Connects every slot; completes with the number whose first connect failed. From any thread. */
    CompletableFuture<Integer> openAll() {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        loop.execute(() -> {
            allOpened = done;
            firstPendingCount = slots.size();
            java.util.Arrays.fill(firstPending, true);
            if (slots.isEmpty()) {
                done.complete(0);
            }
            for (int i = 0; i < slots.size(); i++) {
                ConnectionSlot c = slots.get(i);
                if (connectIntervalNanos == 0 || i == 0) {
                    connect(c);
                } else {
                    // --connect-rate: this thread's share of the rate, evenly spaced
                    loop.schedule(() -> connect(c), i * connectIntervalNanos, TimeUnit.NANOSECONDS);
                }
            }
        });
        return done;
    }

    private void connect(ConnectionSlot c) {
        if (closing || refused) {
            firstEnded(c, false);
            return;
        }
        if (perRequest) {
            if (unsent >= 0 && spare >= unsent) {
                idle.add(c); // every request left has a connection on its way
                return;
            }
            spare++;
            spareSlot[c.index()] = true;
        }
        recorder.connectAttempt();
        c.connect();
    }

    /**
     * A phase starts: the slots a finished phase left closed (connect per request) connect again.
     *
     * @param requests how many requests the phase sends on this thread, or -1 when not known
     */
    void phase(long requests) {
        unsent = requests;
        List<ConnectionSlot> again = new ArrayList<>(idle);
        idle.clear();
        for (ConnectionSlot c : again) {
            connect(c);
        }
    }

    /** Connect per request: a request went out on {@code slot}, which carries no other. */
    void sent(ConnectionSlot slot) {
        unspare(slot);
        if (unsent > 0) {
            unsent--;
        }
    }

    private void unspare(ConnectionSlot slot) {
        int i = slot.index();
        if (spareSlot[i]) {
            spareSlot[i] = false;
            spare--;
        }
    }

    void established(ConnectionSlot slot) {
        recorder.connectionOpened();
    }

    /** The slot's connect time counts; the backoff is reset by its first reply, not here (a target that accepts and closes at once is backed off from). */
    void ready(ConnectionSlot slot) {
        recorder.connectTime(System.nanoTime() - slot.connectStartedNanos());
        firstEnded(slot, true);
    }

    void connectFailed(ConnectionSlot slot, Throwable cause) {
        unspare(slot);
        recorder.connectFailed();
        errors.connectFailed(cause);
        firstEnded(slot, false);
        reconnectLater(slot);
    }

    void answered(ConnectionSlot slot) {
        backoffNanos[slot.index()] = MIN_BACKOFF_NANOS;
        errors.answered();
    }

    /**
     * The target refused a datagram. Before any reply of the run, nothing listens there: no slot
     * connects again and the run ends as a failed connect does ({@link RunErrors#refused}).
     *
     * @return true when the run ends for it
     */
    boolean unreachable(Throwable cause) {
        if (!errors.refused(cause)) {
            return false;
        }
        refused = true;
        return true;
    }

    void refused(String message) {
        errors.fatal(message);
        refused = true;
    }

    /** The slot's connection is gone and its requests have ended: connect again unless the run is ending. */
    void closed(ConnectionSlot slot, boolean expected) {
        firstEnded(slot, false); // closed before it became ready (a handshake that failed)
        unspare(slot); // closed before it carried its request
        if (closing || refused) {
            return;
        }
        recorder.connectionClosed();
        if (perRequest || expected) {
            // by design: a new connection for the next request, at once, if one may come
            if (needsConnections.getAsBoolean()) {
                connect(slot);
            } else {
                idle.add(slot);
            }
        } else {
            reconnectLater(slot);
        }
    }

    /** Connections open now. */
    long openCount() {
        long open = 0;
        for (ConnectionSlot c : slots) {
            if (c.isOpen()) {
                open++;
            }
        }
        return open;
    }

    /** The run ends: no more connects, and every slot closes (not counted as a close). */
    void shutdown() {
        closing = true;
        for (ConnectionSlot c : slots) {
            c.shutdown();
        }
    }

    private void reconnectLater(ConnectionSlot slot) {
        if (closing || refused) {
            return;
        }
        int i = slot.index();
        long delay = backoffNanos[i];
        backoffNanos[i] = Math.min(MAX_BACKOFF_NANOS, delay * 2);
        loop.schedule(() -> {
            if (!closing && !slot.isOpen()) {
                connect(slot);
            }
        }, delay, TimeUnit.NANOSECONDS);
    }

    private void firstEnded(ConnectionSlot slot, boolean ok) {
        int i = slot.index();
        if (allOpened == null || !firstPending[i]) {
            return;
        }
        firstPending[i] = false;
        if (!ok) {
            firstFailures++;
        }
        if (--firstPendingCount == 0) {
            allOpened.complete(firstFailures);
        }
    }
}
