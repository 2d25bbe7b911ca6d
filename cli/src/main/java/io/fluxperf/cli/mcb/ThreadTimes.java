package io.fluxperf.cli.mcb;

import io.fluxperf.engine.metrics.RunResult;
import java.util.List;

/**
 * Where mcb's {@code thread info} comes from: per load thread, the seconds from the start of the
 * load until that thread had sent all its commands and had all their replies. The engine records
 * them ({@link RunResult#threadSeconds()}: LoadDriver's phase future completes exactly then); this
 * interface keeps the mcb report apart from how the engine exposes them, and lets tests supply
 * their own.
 */
@FunctionalInterface
public interface ThreadTimes {
    /** Seconds per thread, in thread order; NaN for a thread that did not finish; empty when unknown. */
    List<Double> seconds(RunResult result);

    /** Nothing known: the report says so instead of printing figures. */
    ThreadTimes NONE = result -> List.of();

    /** The engine's own record. */
    static ThreadTimes recorded() {
        return RunResult::threadSeconds;
    }
}
