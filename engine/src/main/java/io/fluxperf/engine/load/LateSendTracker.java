package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.SendLateness;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One load thread's account of how it kept its schedule ({@link SendLateness}), kept as each
 * paced request leaves: the late ones counted, the stretch behind going on and the longest one,
 * and the largest lag with the thread's CPU share while it built up, which tells a client that
 * could not keep up (on CPU all along) from one that waited for the server or for a CPU.
 *
 * <p>The CPU share needs the thread's CPU time from about when the late request was due, which
 * is before anything knew it would be late: so the thread's CPU clock is sampled every
 * {@link #SAMPLE_EVERY_NANOS} into a small ring ({@link #tick}), and at a new largest lag the share
 * is measured from the newest sample taken before that request was due (or the oldest kept).
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Every call comes on the thread's event loop; nothing here locks.</li>
 *   <li>Nothing is allocated after construction but the snapshot at the run's end.</li>
 *   <li>The CPU clock (a system call) is read at most once per {@link #SAMPLE_EVERY_NANOS} by the
 *       ticks and once per {@link #CPU_READ_EVERY_NANOS} at new largest lags, never per request.</li>
 * </ul>
 */
final class LateSendTracker {
    /** How often the ring takes a sample of the thread's CPU time. */
    static final long SAMPLE_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
    /** Samples kept: 3.2 s of them, longer than any lag a report would call short. */
    static final int SAMPLES = 128;
    /** A lag that grows request by request (a backlog) measures the CPU share at most this often. */
    static final long CPU_READ_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long NONE = Long.MIN_VALUE;

    /** The thread's working CPU time, ns, or -1 when unknown. */
    private final LongSupplier loopCpu;
    private final long[] sampleAt = new long[SAMPLES];
    private final long[] sampleCpu = new long[SAMPLES];
    /** Where the newest sample is, -1 before the first; and how many the ring holds. */
    private int newest = -1;
    private int kept;

    private long startNanos;
    private long paced;
    private long late;
    /** The stretch behind going on: its first late request's intended time, or {@link #NONE}. */
    private long stretchStart = NONE;
    private long stretchSource;
    private long stretchLastLate;
    private long longestLength;
    private long longestStart;
    private long longestSource = -1;
    private long maxLag;
    private long maxLagIntended;
    private long maxLagSource = -1;
    private double maxLagCpuShare = -1;
    private long lastCpuRead = NONE;

    /** @param loopCpu the thread's working CPU time, ns, or -1 when unknown; read on the loop */
    LateSendTracker(LongSupplier loopCpu) {
        this.loopCpu = loopCpu;
    }

    /** Starts again from nothing (a phase, or the end of the warm-up); the schedule's zero is {@code startNanos}. */
    void begin(long startNanos, long nowNanos) {
        this.startNanos = startNanos;
        paced = 0;
        late = 0;
        stretchStart = NONE;
        longestLength = 0;
        longestStart = 0;
        longestSource = -1;
        maxLag = 0;
        maxLagIntended = 0;
        maxLagSource = -1;
        maxLagCpuShare = -1;
        lastCpuRead = NONE;
        sample(nowNanos);
    }

    /** Empties the counts but keeps the schedule's zero (the warm-up's figures are not kept). */
    void clear(long nowNanos) {
        begin(startNanos, nowNanos);
    }

    // ---- the hot path ----

    /**
     * A paced request left at {@code nowNanos}.
     *
     * @param intendedNanos its intended send time
     * @param sourceNanos   its time in the source ({@code Request.sourceNanos()}), -1 when none
     */
    void sent(long intendedNanos, long sourceNanos, long nowNanos) {
        paced++;
        long lag = nowNanos - intendedNanos;
        if (lag <= SendLateness.LATE_NANOS) {
            if (stretchStart != NONE) {
                endStretch();
            }
            return;
        }
        late++;
        if (stretchStart == NONE) {
            stretchStart = intendedNanos;
            stretchSource = sourceNanos;
        }
        stretchLastLate = nowNanos;
        if (lag > maxLag) {
            maxLag = lag;
            maxLagIntended = intendedNanos;
            maxLagSource = sourceNanos;
            if (lastCpuRead == NONE || nowNanos - lastCpuRead >= CPU_READ_EVERY_NANOS) {
                lastCpuRead = nowNanos;
                maxLagCpuShare = cpuShare(intendedNanos, nowNanos);
            }
        }
    }

    /** Called on the loop now and then (its timeout check): samples the CPU clock when one is due. */
    void tick(long nowNanos) {
        if (newest < 0 || nowNanos - sampleAt[newest] >= SAMPLE_EVERY_NANOS) {
            sample(nowNanos);
        }
    }

    // ---- the run's end ----

    /** The figures so far, a stretch still going on counted up to its last late request. */
    SendLateness snapshot() {
        long length = longestLength;
        long start = longestStart;
        long source = longestSource;
        if (stretchStart != NONE && stretchLastLate - stretchStart > length) {
            length = stretchLastLate - stretchStart;
            start = stretchStart;
            source = stretchSource;
        }
        return new SendLateness(paced, late, length, length > 0 ? start - startNanos : 0, length > 0 ? source : -1,
                maxLag, late > 0 ? maxLagIntended - startNanos : 0, late > 0 ? maxLagSource : -1,
                late > 0 ? maxLagCpuShare : -1);
    }

    private void endStretch() {
        long length = stretchLastLate - stretchStart;
        if (length > longestLength) {
            longestLength = length;
            longestStart = stretchStart;
            longestSource = stretchSource;
        }
        stretchStart = NONE;
    }

    private void sample(long nowNanos) {
        newest = (newest + 1) % SAMPLES;
        sampleAt[newest] = nowNanos;
        sampleCpu[newest] = loopCpu.getAsLong();
        kept = Math.min(SAMPLES, kept + 1);
    }

    /**
     * The thread's CPU time as a share of the time since the newest sample taken at or before
     * {@code sinceNanos} (the oldest kept when all are later), up to now; -1 when unknown.
     */
    private double cpuShare(long sinceNanos, long nowNanos) {
        if (kept == 0) {
            return -1;
        }
        int at = newest;
        for (int k = 1; k < kept && sampleAt[at] - sinceNanos > 0; k++) {
            at = (newest - k + SAMPLES) % SAMPLES;
        }
        long cpu = loopCpu.getAsLong();
        long wall = nowNanos - sampleAt[at];
        if (cpu < 0 || sampleCpu[at] < 0 || wall <= 0) {
            return -1;
        }
        return Math.max(0, Math.min(1, (double) (cpu - sampleCpu[at]) / wall));
    }
}
