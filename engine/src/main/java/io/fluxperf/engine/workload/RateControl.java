package io.fluxperf.engine.workload;

import io.fluxperf.engine.config.RateLimits;
import io.fluxperf.engine.config.RateRamp;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The rates an open-loop run's workloads send at, which may change while it runs: set from the
 * admin endpoint ({@code PUT /ratelimit}) or stepped by a ramp ({@link RateRamp}). The load
 * threads' schedules ({@link GeneratedLoad}) read it; at a change each thread's schedule of that
 * workload starts again from the change at the new rate, so nothing is sent to catch up (no burst)
 * and latency still counts from the schedule. The threads are told at once ({@link #follow}): a
 * request already taken at the old rate and waiting for its time is taken again at the new one,
 * so that a rate set low (one request a minute) and then high is high from the second change on.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Changes come from any thread (the admin loop, the run's thread) and are serialised here;
 *       each publishes a new {@link #generation()} last, so a load thread that reads the
 *       generation first and sees it changed then reads whole rates and change times.</li>
 *   <li>The hot path reads one volatile long per request; nothing is allocated or locked there.</li>
 *   <li>Every change is kept ({@link #changes()}), so that a window's target is the mean of the
 *       rates in force over its time ({@link #meanRate}).</li>
 *   <li>Every rate set is within {@link RateLimits}: at most one request a nanosecond, at least
 *       one per window ({@link #refusal} says why not, for the admin endpoint's answer).</li>
 * </ul>
 */
public final class RateControl {
    /** One change: from {@code atNanos} ({@link System#nanoTime()}) on, workload {@code workload} sends {@code rate}/s. */
    public record Change(long atNanos, long unixMillis, int workload, double rate, String cause) {
    }

    private final List<WorkloadConfig> workloads;
    private final double[] rates;
    private final long[] changedAt;
    private volatile long generation;
    private final List<Change> changes = new ArrayList<>();
    /** Per workload its ramp's one pass of steps, or null without a ramp. */
    private final List<List<Double>> passes = new ArrayList<>();
    private final List<RateRamp> ramps;
    private long rampStart = Long.MIN_VALUE;
    /** The next ramp step due, per workload (counted from the ramp's start). */
    private final long[] nextStep;
    private Consumer<Change> listener = c -> { };
    /** Told after every change, on the thread that made it: the load threads, which take it up at once. */
    private final List<Runnable> followers = new CopyOnWriteArrayList<>();
    /** The run's window: a rate gives at least one request per window. */
    private final Duration window;

    /** The control of {@code config}'s open-loop workloads, each starting at its configured rate (or its ramp's start). */
    public RateControl(RunConfig config) {
        this.workloads = config.workloads();
        int n = workloads.size();
        rates = new double[n];
        changedAt = new long[n];
        nextStep = new long[n];
        window = config.duration();
        ramps = config.ramps();
        for (int w = 0; w < n; w++) {
            rates[w] = workloads.get(w).rate();
            RateRamp r = w < ramps.size() ? ramps.get(w) : null;
            // one order for every workload: a run-wide ramp shuffles alike
            passes.add(r == null ? null : r.steps(config.seed()));
        }
    }

    /** Whether {@code config} can be steered: an open-loop run. */
    public static boolean applies(RunConfig config) {
        return config.isOpenLoop();
    }

    /** Told of every change, on the thread that made it (the report prints it). */
    public synchronized void listener(Consumer<Change> l) {
        this.listener = l;
    }

    /**
     * {@code follower} is run after every change from now on, on the thread that made it (the admin
     * endpoint's loop, the run's thread); it must only hand the news on. Returns what stops it.
     */
    public Runnable follow(Runnable follower) {
        followers.add(follower);
        return () -> followers.remove(follower);
    }

    public List<WorkloadConfig> workloads() {
        return workloads;
    }

    /**
     * Why workload {@code w} (or, with {@code w} = -1, the run's total shared by the workloads'
     * weights) cannot be set to {@code rate}: one sentence, or null when it can.
     *
     * @param typed the rate as the user wrote it, quoted for the message
     */
    public String refusal(int w, double rate, String typed) {
        if (!(rate > 0)) {
            return "The rate must be a number of requests per second above 0, not " + typed + ".";
        }
        if (rate > RateLimits.MAX) {
            return "The rate must be at most 1,000,000,000 requests/s (one a nanosecond), not " + typed + ".";
        }
        double min = RateLimits.minimum(window);
        if (w >= 0 && !workloads.get(w).isRated()) {
            return "Workload " + workloads.get(w).name() + " has no rate: it sends as fast as the server answers, beside"
                    + " the paced ones.";
        }
        if (w >= 0) {
            String low = RateLimits.belowOnePerWindow(rate, typed, window);
            return low == null ? null : "The rate " + low + ".";
        }
        double configured = workloads.stream().mapToDouble(WorkloadConfig::rate).sum();
        for (int k = 0; k < workloads.size(); k++) {
            double share = workloads.get(k).rate() / configured;
            if (share > 0 && RateLimits.belowOnePerWindow(rate * share, typed, window) != null) {
                return workloads.size() == 1 ? "The rate " + RateLimits.belowOnePerWindow(rate, typed, window) + "."
                        : "That total gives workload " + workloads.get(k).name() + " " + RateLimits.format(rate * share)
                        + " requests/s, less than one request per " + io.fluxperf.engine.config.DurationParser.format(window)
                        + " window; give a total of at least " + RateLimits.format(Math.ceil(min / share * 1000) / 1000)
                        + " requests/s.";
            }
        }
        return null;
    }

    // ---- read by the load threads ----

    /** Changes so far; a load thread compares it with the one it last saw. */
    public long generation() {
        return generation;
    }

    /** Workload {@code w}'s rate now (read after {@link #generation()}). */
    public synchronized double rate(int w) {
        return rates[w];
    }

    /** When workload {@code w}'s rate last changed, {@link System#nanoTime()}; 0 never. */
    public synchronized long changedAtNanos(int w) {
        return changedAt[w];
    }

    // ---- changes ----

    /** Sets workload {@code w} to {@code rate}/s from {@code atNanos} on. */
    public void set(int w, double rate, long atNanos, String cause) {
        Change c;
        synchronized (this) {
            c = apply(w, rate, atNanos, cause);
            generation++;
        }
        listener.accept(c);
        followers.forEach(Runnable::run);
    }

    /**
     * Sets the run's total to {@code total}/s from {@code atNanos} on, shared among the workloads
     * as their configured rates share the configured total (their weights).
     */
    public void setTotal(double total, long atNanos, String cause) {
        List<Change> made = new ArrayList<>();
        synchronized (this) {
            double configured = workloads.stream().mapToDouble(WorkloadConfig::rate).sum();
            for (int w = 0; w < workloads.size(); w++) {
                if (workloads.get(w).isRated()) { // a mixed run's unpaced workloads keep no rate
                    made.add(apply(w, total * workloads.get(w).rate() / configured, atNanos, cause));
                }
            }
            generation++;
        }
        made.forEach(listener);
        followers.forEach(Runnable::run);
    }

    private Change apply(int w, double rate, long atNanos, String cause) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("a rate must be above 0, not " + rate);
        }
        rates[w] = rate;
        changedAt[w] = atNanos;
        Change c = new Change(atNanos, System.currentTimeMillis() - (System.nanoTime() - atNanos) / 1_000_000L, w, rate, cause);
        changes.add(c);
        return c;
    }

    /** Every change so far, in order. */
    public synchronized List<Change> changes() {
        return List.copyOf(changes);
    }

    /** Workload {@code w}'s current rates, all workloads. */
    public synchronized double[] rates() {
        return rates.clone();
    }

    // ---- ramps, stepped by the run's thread ----

    public boolean hasRamps() {
        return passes.stream().anyMatch(p -> p != null);
    }

    /** The ramps start (the first measured window begins): every ramped workload goes to its first step. */
    public void startRamps(long nowNanos) {
        synchronized (this) {
            rampStart = nowNanos;
        }
        tick(nowNanos);
    }

    /** Applies the ramp steps due by {@code nowNanos}, each from its own due time. */
    public void tick(long nowNanos) {
        List<Change> made = new ArrayList<>();
        synchronized (this) {
            if (rampStart == Long.MIN_VALUE) {
                return;
            }
            for (int w = 0; w < passes.size(); w++) {
                List<Double> pass = passes.get(w);
                if (pass == null) {
                    continue;
                }
                long interval = ramps.get(w).interval().toNanos();
                long due = (nowNanos - rampStart) / interval; // the step running now
                if (nextStep[w] <= due) {
                    double rate = ramps.get(w).rateOfStep(pass, due);
                    long at = rampStart + due * interval;
                    nextStep[w] = due + 1;
                    if (rate != rates[w] || due == 0) {
                        made.add(apply(w, rate, at, "ramp step " + (due + 1)));
                    }
                }
            }
            if (!made.isEmpty()) {
                generation++;
            }
        }
        made.forEach(listener);
        if (!made.isEmpty()) {
            followers.forEach(Runnable::run);
        }
    }

    /** When the next ramp step is due, {@link System#nanoTime()}; {@link Long#MAX_VALUE} when none. */
    public synchronized long nextStepNanos() {
        if (rampStart == Long.MIN_VALUE) {
            return Long.MAX_VALUE;
        }
        long next = Long.MAX_VALUE;
        for (int w = 0; w < passes.size(); w++) {
            if (passes.get(w) != null) {
                next = Math.min(next, rampStart + nextStep[w] * ramps.get(w).interval().toNanos());
            }
        }
        return next;
    }

    /**
     * The mean rate workload {@code w} was asked for between {@code fromNanos} and {@code toNanos}:
     * a window's target when the rate changed in it.
     */
    public synchronized double meanRate(int w, long fromNanos, long toNanos) {
        if (toNanos <= fromNanos) {
            return rates[w];
        }
        double rate = workloads.get(w).rate();
        long at = fromNanos;
        double sum = 0;
        for (Change c : changes) {
            if (c.workload() != w) {
                continue;
            }
            if (c.atNanos() <= fromNanos) {
                rate = c.rate();
                continue;
            }
            if (c.atNanos() >= toNanos) {
                break;
            }
            sum += rate * (c.atNanos() - at);
            at = c.atNanos();
            rate = c.rate();
        }
        sum += rate * (toNanos - at);
        return sum / (toNanos - fromNanos);
    }

    /** The workloads with the rates they were asked for between two times (see {@link #meanRate}). */
    public List<WorkloadConfig> meanConfigs(long fromNanos, long toNanos) {
        List<WorkloadConfig> out = new ArrayList<>();
        for (int w = 0; w < workloads.size(); w++) {
            double mean = meanRate(w, fromNanos, toNanos);
            out.add(mean == workloads.get(w).rate() ? workloads.get(w) : workloads.get(w).withRate(mean));
        }
        return out;
    }
}
