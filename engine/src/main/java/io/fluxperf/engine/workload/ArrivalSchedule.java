package io.fluxperf.engine.workload;

import io.fluxperf.engine.config.Arrivals;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * When one thread's requests of one open-loop workload are intended to leave, as offsets from the
 * schedule's start ({@link Arrivals}).
 *
 * <p>Thread t of T takes its first request at t / rate; each next one follows after a gap whose
 * mean is T / rate, so that the T threads together keep the workload's rate. The random gaps are
 * drawn {@link #BLOCK} at a time and scaled together so that each block spans exactly
 * {@code BLOCK} mean gaps: within a block the gaps have the distribution's shape (scaled by a
 * factor within a few per cent of 1), and every {@code BLOCK}-th request is where the smooth
 * schedule would put it, so that a window of a second holds the rate within 1 % however the gaps
 * fall (a free random walk would stray by 1/√n: 1.4 % in a second of 5,000 requests). For
 * exponential gaps this is a Poisson process conditioned on its count in each block: the
 * requests of a block fall where uniform order statistics put them.
 * <ul>
 *   <li>{@link Arrivals#SMOOTH}: request n (counted over all threads, n = t, t + T, …) at exactly
 *       n / rate, computed from n each time, as the schedule always was;</li>
 *   <li>{@link Arrivals#UNIFORM}: gaps uniform on [0, 2 × mean);</li>
 *   <li>{@link Arrivals#NORMAL}: gaps normal with the mean and a standard deviation of mean / 4,
 *       drawn again when below 0 (one draw in 30,000; the mean rises by 3 × 10⁻⁵ of itself);</li>
 *   <li>{@link Arrivals#EXPONENTIAL}: gaps exponential with the mean, so each thread's requests,
 *       and all threads' together, form a Poisson process (mutilate's and wrk2's {@code -D exp}).
 *       Drawn by Commons RNG's ziggurat sampler (Marsaglia and Tsang, 2000; McFarland, 2016).</li>
 * </ul>
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Single-threaded: one schedule per load thread and workload, drawing from that thread's
 *       seeded random source, so the same seed gives the same times.</li>
 *   <li>Nothing is allocated per request.</li>
 *   <li>No drift: the random gaps are summed in double nanoseconds from the start (exact to well
 *       below a nanosecond for days), and each time is rounded down to a whole nanosecond only
 *       when handed out; rounding never accumulates.</li>
 * </ul>
 */
public final class ArrivalSchedule {
    /** Random gaps are drawn and scaled this many at a time (see the class comment). */
    public static final int BLOCK = 128;

    private final Arrivals arrivals;
    private final double rate;
    private final int thread;
    private final int threads;
    private final double meanGapNanos;
    /** Added to every SMOOTH index: a shard's place between its own requests ({@code Shard#phase}). */
    private final double phase;
    /** The random gaps' sampler: exponential of the mean gap, a standard normal, or null. */
    private final ContinuousSampler sampler;
    private final UniformRandomProvider rng;
    /** How many of the latest takes {@link #untake()} can put back, newest first (less than {@link #BLOCK}). */
    public static final int HISTORY = 64;

    /** Requests taken so far (SMOOTH's n is {@code sequence × threads + thread}). */
    private long sequence;
    /** The next request's offset from the start in ns, for the random arrivals. */
    private double nextNanos;
    /** {@link #nextNanos} before each of the latest takes (a ring, newest at {@code taken - 1}), for {@link #untake()}. */
    private final double[] takenNanos;
    private int taken;
    /** How many takes may still be put back (at most {@link #HISTORY}). */
    private int undoable;
    /** The current block of scaled gaps (random arrivals only), and how many of them are used. */
    private double[] block;
    private int used = BLOCK;
    /** The block before the current one (an untake may go back into it), or the next one once it went back. */
    private double[] spare;
    /** {@link #spare} holds the block after the current one, already drawn: the next block is that one. */
    private boolean spareIsNext;

    /**
     * @param rate    the workload's requests per second over all threads (above 0)
     * @param thread  this thread's index, 0 to {@code threads} − 1
     * @param rng     this thread's random source (not drawn from for SMOOTH)
     */
    public ArrivalSchedule(Arrivals arrivals, double rate, int thread, int threads, UniformRandomProvider rng) {
        this(arrivals, rate, thread, threads, 0, rng);
    }

    /**
     * @param phase a fraction of one slot in [0, 1) by which every time is later: agent i of N,
     *              sending 1/N of the rate, takes i/N so that the agents' requests interleave
     *              (the one-machine schedule's request N·n + i is agent i's n-th)
     */
    public ArrivalSchedule(Arrivals arrivals, double rate, int thread, int threads, double phase, UniformRandomProvider rng) {
        this.phase = phase;
        this.arrivals = arrivals;
        this.rate = rate;
        this.thread = thread;
        this.threads = threads;
        this.rng = rng;
        this.meanGapNanos = threads * 1e9 / rate;
        this.nextNanos = (thread + phase) * 1e9 / rate;
        this.sampler = switch (arrivals) {
            case EXPONENTIAL -> ZigguratSampler.Exponential.of(rng, meanGapNanos);
            case NORMAL -> ZigguratSampler.NormalizedGaussian.of(rng);
            case SMOOTH, UNIFORM -> null;
        };
        this.block = arrivals == Arrivals.SMOOTH ? null : new double[BLOCK];
        this.spare = arrivals == Arrivals.SMOOTH ? null : new double[BLOCK];
        this.takenNanos = arrivals == Arrivals.SMOOTH ? null : new double[HISTORY];
    }

    /** The mean gap between two of this thread's requests, in ns: threads × 10⁹ / rate. */
    public double meanGapNanos() {
        return meanGapNanos;
    }

    /**
     * The next request's intended time in seconds after the start, without taking it: the order in
     * which a thread interleaves its workloads (the earliest goes first).
     */
    public double nextSeconds() {
        if (arrivals == Arrivals.SMOOTH) {
            return (sequence * threads + thread + phase) / rate;
        }
        return nextNanos / 1e9;
    }

    /** Takes the next request: its intended time in ns after the start; the one after it is drawn now. */
    public long take() {
        undoable = Math.min(HISTORY, undoable + 1);
        if (arrivals == Arrivals.SMOOTH) {
            long n = sequence * threads + thread;
            sequence++;
            return (long) ((n + phase) * 1e9 / rate);
        }
        long at = (long) nextNanos;
        takenNanos[taken] = nextNanos;
        taken = (taken + 1) % HISTORY;
        sequence++;
        if (used == BLOCK) {
            nextBlock();
        }
        nextNanos += block[used++];
        return at;
    }

    /**
     * Puts back the request {@link #take()} handed out last, as if it had never been taken: the next
     * take gives the same time again. Repeated, it puts back the takes before, newest first, up to
     * {@link #HISTORY} of them (the asked-ahead requests of a rate that just changed).
     *
     * @throws IllegalStateException when no take is left to put back
     */
    public void untake() {
        if (undoable == 0) {
            throw new IllegalStateException("nothing taken to put back");
        }
        undoable--;
        sequence--;
        if (arrivals != Arrivals.SMOOTH) {
            if (used == 0) { // the take put back was the previous block's last gap
                double[] next = block;
                block = spare;
                spare = next;
                spareIsNext = true;
                used = BLOCK;
            }
            used--;
            taken = (taken + HISTORY - 1) % HISTORY;
            nextNanos = takenNanos[taken]; // exactly: a subtraction could leave a rounding error behind
        }
    }

    /** Moves on to the next block of gaps: the one drawn already if an untake went back from it, else a new one. */
    private void nextBlock() {
        double[] previous = block;
        block = spare;
        spare = previous;
        if (spareIsNext) {
            spareIsNext = false;
            used = 0;
        } else {
            drawBlock();
        }
    }

    /** The next {@link #BLOCK} gaps, scaled so that together they span {@code BLOCK} mean gaps. */
    private void drawBlock() {
        double sum = 0;
        for (int i = 0; i < BLOCK; i++) {
            block[i] = gapNanos();
            sum += block[i];
        }
        double scale = sum > 0 ? BLOCK * meanGapNanos / sum : 1;
        for (int i = 0; i < BLOCK; i++) {
            block[i] = sum > 0 ? block[i] * scale : meanGapNanos;
        }
        used = 0;
    }

    /** One random gap in ns as the distribution draws it, before its block is scaled (for the arrivals other than SMOOTH). */
    double gapNanos() {
        return switch (arrivals) {
            case UNIFORM -> rng.nextDouble() * 2 * meanGapNanos;
            case NORMAL -> {
                double g;
                do {
                    g = meanGapNanos * (1 + 0.25 * sampler.sample());
                } while (g < 0);
                yield g;
            }
            case EXPONENTIAL -> sampler.sample();
            case SMOOTH -> meanGapNanos;
        };
    }
}
