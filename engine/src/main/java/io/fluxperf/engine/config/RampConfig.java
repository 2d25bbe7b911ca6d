package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Rate ramps in a config: a workload's {@code [workload.ratelimit]} table (rpc-perf's keys and
 * rules) and {@code --ramp}; and what a ramp does to the run's windows (one per step when no
 * duration is given).
 */
final class RampConfig {
    static final List<String> KEYS = List.of("start", "end", "step", "interval", "ramp", "on_ramp_completion");

    private RampConfig() {
    }

    /** A workload's {@code ratelimit} table: its rate ({@code start}) and ramp (null when it has only a start). */
    record Ratelimit(double start, RateRamp ramp) {
    }

    /**
     * Reads {@code [workload.ratelimit]} of workload table {@code t}, or null when it has none.
     * Any of end, step and interval needs all three (rpc-perf's rule); start above end is an error.
     */
    static Ratelimit read(TomlTable t) {
        TomlTable r = t.table("ratelimit");
        if (r == null) {
            return null;
        }
        r.allowOnly(KEYS);
        Double start = r.number("start");
        if (start == null) {
            throw r.error("missing start: the rate (requests/s) to begin with");
        }
        if (!(start > 0)) {
            throw r.error("start", "must be a rate above 0, not " + start);
        }
        Double end = r.number("end");
        Double step = r.number("step");
        Duration interval = r.duration("interval");
        boolean any = end != null || step != null || interval != null;
        if (!any) {
            for (String k : List.of("ramp", "on_ramp_completion")) {
                if (r.has(k)) {
                    throw r.error(k, "a ramp needs end, step and interval too");
                }
            }
            return new Ratelimit(start, null);
        }
        for (String k : List.of("end", "step", "interval")) {
            if (!r.has(k)) {
                throw r.error("missing " + k + ": a ramp needs end, step and interval together");
            }
        }
        if (start > end) {
            throw r.error("start", "is above end (" + number(start) + " > " + number(end) + ")");
        }
        RateRamp.Ramp order = choice(r, "ramp", RateRamp.Ramp.values(), RateRamp.Ramp.LINEAR);
        RateRamp.Completion completion = choice(r, "on_ramp_completion", RateRamp.Completion.values(),
                RateRamp.Completion.STABLE);
        try {
            return new Ratelimit(start, new RateRamp(start, end, step, interval, order, completion));
        } catch (IllegalArgumentException e) {
            throw r.error(e.getMessage());
        }
    }

    private static <E extends Enum<E>> E choice(TomlTable r, String key, E[] values, E fallback) {
        String v = r.string(key);
        if (v == null) {
            return fallback;
        }
        for (E e : values) {
            if (e.name().equalsIgnoreCase(v.strip())) {
                return e;
            }
        }
        List<String> names = new ArrayList<>();
        for (E e : values) {
            names.add(e.name().toLowerCase(java.util.Locale.ROOT));
        }
        throw r.error(key, "expected one of " + names + ", not '" + v + "'");
    }

    /**
     * The ramps of the run: {@code --ramp} over the run's total rate (each workload its share),
     * else each file workload's own.
     *
     * @param fromFile per workload its table's ramp or null (empty without file workloads)
     */
    static List<RateRamp> resolve(String flag, List<WorkloadConfig> workloads, List<RateRamp> fromFile) {
        if (flag == null) {
            return fromFile.stream().allMatch(java.util.Objects::isNull) ? List.of() : fromFile;
        }
        RateRamp ramp;
        try {
            ramp = RateRamp.parse(flag);
        } catch (IllegalArgumentException e) {
            throw new UserError("--ramp: " + e.getMessage());
        }
        double total = workloads.stream().mapToDouble(WorkloadConfig::rate).sum();
        List<RateRamp> out = new ArrayList<>();
        for (WorkloadConfig w : workloads) {
            out.add(total > 0 ? ramp.scaled(w.rate() / total) : ramp);
        }
        return out;
    }

    /** A run's windows with ramps and no duration given: one window per step of the longest pass. */
    static int windowsFor(List<RateRamp> ramps, long seed) {
        int n = 1;
        for (RateRamp r : ramps) {
            if (r != null) {
                n = Math.max(n, r.reportedSteps(seed).size());
            }
        }
        return n;
    }

    /** The step length of the first ramp, or null without one. */
    static Duration interval(List<RateRamp> ramps) {
        return ramps.stream().filter(java.util.Objects::nonNull).map(RateRamp::interval).findFirst().orElse(null);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
