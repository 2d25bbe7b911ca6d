package io.fluxperf.engine.sweep;

import io.fluxperf.engine.UserError;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The rates a sweep tries: from {@code from} up to {@code to}, each the last plus {@code step} or
 * times {@code factor}; then up to {@code refine} bisections between the last good and the first bad.
 *
 * @param from   first rate, requests/s
 * @param to     highest rate, requests/s (tried itself when the steps do not land on it)
 * @param step   added per step, or 0 when {@code factor} is used
 * @param factor multiplied per step, or 0 when {@code step} is used
 * @param refine bisection steps after the first bad rate
 * @param window length of each step's measured window
 */
public record SweepPlan(double from, double to, double step, double factor, int refine, Duration window) {
    /** More steps than this is a mistake in --step or --factor, not a sweep anyone waits for. */
    static final int MAX_STEPS = 1000;

    /**
     * Checks the plan as the user gave it.
     *
     * @throws UserError one sentence naming the flag
     */
    public SweepPlan {
        if (!(from > 0) || Double.isInfinite(from)) {
            throw new UserError("--from: the first rate must be a positive number of requests per second");
        }
        if (!(to > 0) || Double.isInfinite(to)) {
            throw new UserError("--to: the last rate must be a positive number of requests per second");
        }
        if (from > to) {
            throw new UserError("--from " + Rates.format(from) + " is above --to " + Rates.format(to)
                    + ": a sweep goes up from --from to --to");
        }
        if (step > 0 && factor > 0) {
            throw new UserError("--step and --factor: give one of them, not both");
        }
        if (step == 0 && factor == 0) {
            throw new UserError("--step or --factor: give one, to say how the rate rises from step to step");
        }
        if (step < 0 || Double.isNaN(step)) {
            throw new UserError("--step: must be a positive number of requests per second");
        }
        if (factor != 0 && !(factor > 1) || Double.isInfinite(factor)) {
            throw new UserError("--factor: must be above 1, e.g. 1.5");
        }
        if (refine < 0) {
            throw new UserError("--refine: must be 0 or more bisection steps");
        }
        if (window == null || window.isNegative() || window.isZero()) {
            throw new UserError("--window: each step needs a window longer than 0, e.g. 2s");
        }
        if (rates(from, to, step, factor).size() > MAX_STEPS) {
            throw new UserError("--from " + Rates.format(from) + " to --to " + Rates.format(to) + " makes more than "
                    + MAX_STEPS + " steps: raise --step or --factor");
        }
    }

    /** The rising rates, from {@link #from()} to {@link #to()}. */
    public List<Double> rates() {
        return rates(from, to, step, factor);
    }

    private static List<Double> rates(double from, double to, double step, double factor) {
        List<Double> rates = new ArrayList<>();
        double r = from;
        while (r < to * (1 - 1e-9) && rates.size() <= MAX_STEPS) {
            rates.add((double) Math.round(r));
            r = step > 0 ? r + step : r * factor;
        }
        if (rates.size() <= MAX_STEPS) {
            rates.add((double) Math.round(to)); // the bound itself, so that a sweep that holds everywhere tries it
        }
        return rates;
    }
}
