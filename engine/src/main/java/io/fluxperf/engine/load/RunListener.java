package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.WindowResult;

/** What a run tells while it runs; the command line turns it into report lines. Called from the run's thread. */
public interface RunListener {
    /**
     * The schedule's start ({@code --start-at}) had passed when the load was ready: every request
     * due since then goes at once, {@code lateNanos} and less behind its intended time.
     */
    default void startedLate(long lateNanos) {
    }

    default void connected(long open, long failures) {
    }

    default void flushed() {
    }

    /** @param failed preload writes that did not succeed (their keys will miss) */
    default void preloaded(long keys, long failed, double seconds) {
    }

    default void warmupComplete() {
    }

    /**
     * A warm-up to a hit rate (--warmup-hitrate) is over, instead of {@link #warmupComplete()}: it
     * reached its target, or its bound ended it.
     */
    default void warmupEnded(HitrateWarmup warmup) {
        warmupComplete();
    }

    default void live(LiveSample sample) {
    }

    default void window(WindowResult window) {
    }

    /**
     * Does what {@link #window} does with a made-up window, without output, before the load
     * starts (the host policy's rehearsal, {@link io.fluxperf.engine.host.HostTuning#beforeLoad}):
     * so that the JIT compiles a window's report while the CPU is free, not at the end of the first
     * window while the loops need it.
     */
    default void rehearseWindow(WindowResult window) {
    }

    /**
     * One second of a measured window, when the run keeps them ({@link LoadRun#perSecond}); the
     * figures are reused after the call.
     */
    default void second(io.fluxperf.engine.metrics.SecondFigures second) {
    }

    /** A statistics block (--stats-interval). */
    default void stats(IntervalSample sample) {
    }

    /** A workload's rate changed while the run goes (the admin endpoint, a ramp's step). */
    default void rateChanged(io.fluxperf.engine.workload.RateControl.Change change, String workloadName) {
    }
}
