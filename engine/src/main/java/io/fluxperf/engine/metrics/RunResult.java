package io.fluxperf.engine.metrics;

import io.fluxperf.engine.config.RunConfig;
import java.util.List;

/**
 * The outcome of a whole run: its effective config, the target it ran against, every window and
 * their sum.
 *
 * @param target       what was measured, e.g. "127.0.0.1:11211" or "embedded memcache on 127.0.0.1:40211"
 * @param stopReason   why the run ended
 * @param preloadedKeys keys written before measuring (for --hit), 0 if none
 * @param intervals     the statistics blocks (--stats-interval), in order; empty when off
 * @param threadSeconds per load thread, seconds from the moment the run started its threads (open-loop
 *                      schedules begin 1 ms later) until its requests
 *                      were all sent and answered (mcb's thread info); NaN for a thread still
 *                      busy when the run was stopped
 * @param lateness      how the paced requests kept their schedule in the measured part; {@link SendLateness#NONE}
 *                      when nothing was paced
 * @param warmup        how a warm-up to a hit rate ended (--warmup-hitrate); null without one, or
 *                      when the run stopped during it
 */
public record RunResult(RunConfig config, String target, List<WindowResult> windows, WindowResult total,
                        StopReason stopReason, long preloadedKeys, List<IntervalSample> intervals,
                        List<Double> threadSeconds, SendLateness lateness, HitrateWarmup warmup) {
    public RunResult(RunConfig config, String target, List<WindowResult> windows, WindowResult total,
                     StopReason stopReason, long preloadedKeys, List<IntervalSample> intervals,
                     List<Double> threadSeconds, SendLateness lateness) {
        this(config, target, windows, total, stopReason, preloadedKeys, intervals, threadSeconds, lateness, null);
    }

    public RunResult(RunConfig config, String target, List<WindowResult> windows, WindowResult total,
                     StopReason stopReason, long preloadedKeys) {
        this(config, target, windows, total, stopReason, preloadedKeys, List.of(), List.of(), SendLateness.NONE);
    }

    /** Stopped by a signal, Ctrl-C or SIGTERM. */
    public boolean interrupted() {
        return stopReason == StopReason.INTERRUPTED || stopReason == StopReason.TERMINATED;
    }

    /** The same result, ended for another reason (a replay's log running out is how it completes). */
    public RunResult stoppedBecause(StopReason reason) {
        return new RunResult(config, target, windows, total, reason, preloadedKeys, intervals, threadSeconds, lateness, warmup);
    }
}
