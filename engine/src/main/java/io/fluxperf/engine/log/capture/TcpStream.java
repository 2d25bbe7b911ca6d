package io.fluxperf.engine.log.capture;

import java.util.Arrays;

/**
 * One direction of a captured TCP connection, put back in sequence order: segments are delivered in
 * order of their sequence numbers, bytes already delivered (retransmissions, duplicates, overlaps)
 * are dropped, segments that come early wait in a bounded store until the bytes before them come,
 * and sequence numbers wrap around as TCP's do (all comparisons are modulo 2^32).
 *
 * <p>Gaps: bytes the capture lacks are delivered as a gap of their exact size, where they would have
 * been. A segment cut by the snap length is its captured bytes then a gap of the rest at once. A
 * hole before early segments is waited for (a retransmission may fill it), then declared a gap:
 * after {@link #ACKED_HOLE_NANOS} once the other side has acknowledged bytes beyond it (the receiver
 * got them, so the capture missed them), after {@link #HOLE_NANOS} otherwise, at once when the
 * early segments fill the store, and at the connection's or the capture's end.
 *
 * <p>Assumptions and guarantees: segments come in capture order, with capture times that do not go
 * back by more than the waits above. Each byte of the stream is delivered at most once, as data or
 * as part of a gap, in order. The store holds at most {@link #MAX_EARLY_BYTES} bytes and
 * {@link #MAX_EARLY_SEGMENTS} segments; nothing is allocated once it has grown to what the
 * connection needs.
 */
final class TcpStream {
    /** How long a hole that the other side has acknowledged beyond is waited for, ns of capture time. */
    static final long ACKED_HOLE_NANOS = 100_000_000L;
    /** How long any other hole is waited for. */
    static final long HOLE_NANOS = 2_000_000_000L;
    static final int MAX_EARLY_BYTES = 1 << 20;
    static final int MAX_EARLY_SEGMENTS = 512;

    /** What the stream delivers, in order. */
    interface Receiver {
        /** Bytes {@code b[from, to)}, from a segment captured at {@code timeNanos} as packet {@code packet}. */
        void data(TcpStream stream, byte[] b, int from, int to, long timeNanos, long packet);

        /** {@code n} bytes the capture lacks; {@code snap}: cut off by the snap length (else never captured). */
        void gap(TcpStream stream, long n, boolean snap, long timeNanos, long packet);
    }

    private final Receiver receiver;
    /** The sequence number of the next byte to deliver is known. */
    boolean started;
    /** The stream's first byte was seen after its SYN (not picked up mid-stream). */
    boolean fromStart;
    int nextSeq;
    /** The initial sequence number, when {@link #fromStart}. */
    int isn;
    boolean finSeen;
    int finSeq;
    /** Payload bytes dropped because they had been delivered already. */
    long duplicateBytes;
    /** Bytes delivered as gaps. */
    long gapBytes;

    // segments that came early, sorted by sequence number
    private int early;
    private int[] earlySeq = new int[8];
    private int[] earlyFrom = new int[8];
    private int[] earlyLength = new int[8];
    private int[] earlyMissing = new int[8];
    private long[] earlyTime = new long[8];
    private long[] earlyPacket = new long[8];
    private byte[] store = new byte[4096];
    /** Where {@link #compact()} copies the store to. */
    private byte[] spare = new byte[0];
    private int storeUsed;
    /** Capture time since which the hole at {@link #nextSeq} is known, or -1 when there is none. */
    private long holeSince = -1;
    /** The other side acknowledged bytes up to here, beyond {@link #nextSeq}; valid when {@link #acked} is set. */
    private int ackedUpTo;
    private boolean acked;

    TcpStream(Receiver receiver) {
        this.receiver = receiver;
    }

    void reset() {
        started = false;
        fromStart = false;
        nextSeq = 0;
        finSeen = false;
        finSeq = 0;
        duplicateBytes = 0;
        gapBytes = 0;
        early = 0;
        storeUsed = 0;
        holeSince = -1;
        acked = false;
    }

    /** The stream has delivered everything up to its FIN. */
    boolean finished() {
        return finSeen && started && nextSeq == finSeq && early == 0;
    }

    boolean hasHole() {
        return holeSince >= 0;
    }

    /** A SYN of this direction: the stream's bytes start after {@code isn}. */
    void syn(int isn) {
        if (!started || !fromStart) {
            started = true;
            fromStart = true;
            this.isn = isn;
            nextSeq = isn + 1;
            early = 0;
            storeUsed = 0;
            holeSince = -1;
            acked = false;
        }
    }

    /** A FIN after the payload that ends at {@code seq}. */
    void fin(int seq) {
        if (!finSeen) {
            finSeen = true;
            finSeq = seq;
            if (!started) {
                started = true;
                nextSeq = seq;
            }
        }
    }

    /**
     * A segment's payload: {@code b[from, from + length)} captured, then {@code missing} bytes the
     * snap length cut off, starting at sequence number {@code seq}.
     */
    void segment(int seq, byte[] b, int from, int length, int missing, long timeNanos, long packet) {
        int wire = length + missing;
        if (wire == 0) {
            return;
        }
        if (!started) {
            started = true;
            nextSeq = seq; // picked up mid-stream: the first byte seen is where the stream starts
        }
        int d = seq - nextSeq;
        if (d > 0) {
            keepEarly(seq, b, from, length, missing, timeNanos, packet);
            return;
        }
        deliverFrom(-d, b, from, length, missing, timeNanos, packet);
        drain();
    }

    /** Delivers a segment that starts {@code skip} bytes before {@link #nextSeq} (those are dropped). */
    private void deliverFrom(int skip, byte[] b, int from, int length, int missing, long timeNanos, long packet) {
        int wire = length + missing;
        if (skip >= wire) {
            duplicateBytes += wire;
            return;
        }
        duplicateBytes += skip;
        if (skip <= length) {
            from += skip;
            length -= skip;
        } else {
            missing -= skip - length;
            length = 0;
        }
        if (length > 0) {
            nextSeq += length;
            receiver.data(this, b, from, from + length, timeNanos, packet);
        }
        if (missing > 0) {
            nextSeq += missing;
            gapBytes += missing;
            receiver.gap(this, missing, true, timeNanos, packet);
        }
        if (acked && ackedUpTo - nextSeq <= 0) {
            acked = false;
        }
    }

    /** Delivers the early segments the stream has reached. */
    private void drain() {
        while (early > 0 && earlySeq[0] - nextSeq <= 0) {
            int skip = nextSeq - earlySeq[0];
            int from = earlyFrom[0];
            int length = earlyLength[0];
            int missing = earlyMissing[0];
            long time = earlyTime[0];
            long packet = earlyPacket[0];
            removeFirst();
            deliverFrom(skip, store, from, length, missing, time, packet);
        }
        if (early == 0) {
            storeUsed = 0;
            if (!acked) {
                holeSince = -1;
            }
        }
    }

    private void keepEarly(int seq, byte[] b, int from, int length, int missing, long timeNanos, long packet) {
        if (storeUsed + length > store.length) {
            compact();
        }
        if (early == MAX_EARLY_SEGMENTS || storeUsed + length > MAX_EARLY_BYTES) {
            // too much has come after the hole for it to be a reordering: the capture lacks it
            declare(early > 0 && earlySeq[0] - seq < 0 ? earlySeq[0] : seq, timeNanos, packet);
            segment(seq, b, from, length, missing, timeNanos, packet);
            return;
        }
        if (holeSince < 0) {
            holeSince = timeNanos;
        }
        int i = early;
        while (i > 0 && earlySeq[i - 1] - seq > 0) {
            i--;
        }
        if (i > 0 && earlySeq[i - 1] == seq && earlyLength[i - 1] + earlyMissing[i - 1] >= length + missing) {
            duplicateBytes += length + missing;
            return; // the same early segment again
        }
        if (early == earlySeq.length) {
            int n = early * 2;
            earlySeq = Arrays.copyOf(earlySeq, n);
            earlyFrom = Arrays.copyOf(earlyFrom, n);
            earlyLength = Arrays.copyOf(earlyLength, n);
            earlyMissing = Arrays.copyOf(earlyMissing, n);
            earlyTime = Arrays.copyOf(earlyTime, n);
            earlyPacket = Arrays.copyOf(earlyPacket, n);
        }
        if (storeUsed + length > store.length) {
            store = Arrays.copyOf(store, Math.max(storeUsed + length, store.length * 2));
        }
        System.arraycopy(b, from, store, storeUsed, length);
        int n = early - i;
        System.arraycopy(earlySeq, i, earlySeq, i + 1, n);
        System.arraycopy(earlyFrom, i, earlyFrom, i + 1, n);
        System.arraycopy(earlyLength, i, earlyLength, i + 1, n);
        System.arraycopy(earlyMissing, i, earlyMissing, i + 1, n);
        System.arraycopy(earlyTime, i, earlyTime, i + 1, n);
        System.arraycopy(earlyPacket, i, earlyPacket, i + 1, n);
        earlySeq[i] = seq;
        earlyFrom[i] = storeUsed;
        earlyLength[i] = length;
        earlyMissing[i] = missing;
        earlyTime[i] = timeNanos;
        earlyPacket[i] = packet;
        storeUsed += length;
        early++;
    }

    /** Moves the early segments' bytes to the front of the store, over those already delivered. */
    private void compact() {
        if (spare.length < store.length) {
            spare = new byte[store.length];
        }
        int used = 0;
        for (int i = 0; i < early; i++) {
            System.arraycopy(store, earlyFrom[i], spare, used, earlyLength[i]);
            earlyFrom[i] = used;
            used += earlyLength[i];
        }
        byte[] t = store;
        store = spare;
        spare = t;
        storeUsed = used;
    }

    private void removeFirst() {
        early--;
        System.arraycopy(earlySeq, 1, earlySeq, 0, early);
        System.arraycopy(earlyFrom, 1, earlyFrom, 0, early);
        System.arraycopy(earlyLength, 1, earlyLength, 0, early);
        System.arraycopy(earlyMissing, 1, earlyMissing, 0, early);
        System.arraycopy(earlyTime, 1, earlyTime, 0, early);
        System.arraycopy(earlyPacket, 1, earlyPacket, 0, early);
    }

    /** The other side acknowledged this direction's bytes up to {@code ack} (seen at {@code timeNanos}). */
    void acknowledged(int ack, long timeNanos) {
        if (!started) {
            return;
        }
        int limit = finSeen && ack - finSeq > 0 ? finSeq : ack; // a FIN takes a sequence number of its own
        if (limit - nextSeq <= 0) {
            return;
        }
        if (!acked || limit - ackedUpTo > 0) {
            ackedUpTo = limit;
        }
        if (!acked) {
            acked = true;
            if (holeSince < 0) {
                holeSince = timeNanos;
            }
        }
    }

    /** Declares the hole a gap when it has been waited for long enough at capture time {@code now}. */
    void expireHole(long now) {
        if (holeSince < 0) {
            return;
        }
        long wait = acked ? ACKED_HOLE_NANOS : HOLE_NANOS;
        if (now - holeSince < wait) {
            return;
        }
        int upTo;
        if (early > 0 && (!acked || earlySeq[0] - ackedUpTo <= 0)) {
            upTo = earlySeq[0];
        } else if (acked) {
            upTo = ackedUpTo;
        } else {
            holeSince = -1;
            return;
        }
        declare(upTo, now, -1);
        holeSince = early > 0 || acked ? now : -1;
    }

    /** Declares the hole a gap now, however long it was waited for (the other side's bytes pile up behind it). */
    void declareHole(long now) {
        if (holeSince < 0) {
            return;
        }
        holeSince = now - HOLE_NANOS;
        expireHole(now);
    }

    /** The connection or the capture ends: every hole before what came is a gap, and what came is delivered. */
    void flush(long now) {
        while (early > 0) {
            declare(earlySeq[0], now, -1);
        }
        if (acked) {
            declare(ackedUpTo, now, -1);
        }
        if (finSeen && started && finSeq - nextSeq > 0) {
            declare(finSeq, now, -1); // bytes before the FIN that never came
        }
        holeSince = -1;
        acked = false;
    }

    /**
     * Delivers a gap from {@link #nextSeq} up to {@code upTo}, then what early segments it reaches. The
     * gap is placed at the first segment captured after it when there is one (the missing bytes were
     * sent just before it), else at {@code timeNanos}.
     */
    private void declare(int upTo, long timeNanos, long packet) {
        if (early > 0 && earlySeq[0] == upTo) {
            timeNanos = earlyTime[0];
            packet = earlyPacket[0];
        }
        int n = upTo - nextSeq;
        if (n > 0) {
            nextSeq = upTo;
            gapBytes += n;
            receiver.gap(this, n, false, timeNanos, packet);
        }
        if (acked && ackedUpTo - nextSeq <= 0) {
            acked = false;
        }
        drain();
        if (early == 0 && !acked) {
            holeSince = -1;
        }
    }
}
