package io.fluxperf.engine.run;

import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.SecondFigures;
import io.fluxperf.engine.metrics.WindowResult;

/**
 * A listener that hands every event on to another; a subclass adds to one (the objectives' check
 * at each window's end). It overrides every method of {@link RunListener}, so that no event
 * falls to an interface default on the way; {@code ForwardingListenerTest} keeps it so.
 */
class ForwardingListener implements RunListener {
    private final RunListener inner;

    ForwardingListener(RunListener inner) {
        this.inner = inner;
    }

    @Override
    public void startedLate(long lateNanos) {
        inner.startedLate(lateNanos);
    }

    @Override
    public void connected(long open, long failures) {
        inner.connected(open, failures);
    }

    @Override
    public void flushed() {
        inner.flushed();
    }

    @Override
    public void preloaded(long keys, long failed, double seconds) {
        inner.preloaded(keys, failed, seconds);
    }

    @Override
    public void warmupComplete() {
        inner.warmupComplete();
    }

    @Override
    public void warmupEnded(HitrateWarmup warmup) {
        inner.warmupEnded(warmup);
    }

    @Override
    public void live(LiveSample sample) {
        inner.live(sample);
    }

    @Override
    public void window(WindowResult window) {
        inner.window(window);
    }

    @Override
    public void rehearseWindow(WindowResult window) {
        inner.rehearseWindow(window);
    }

    @Override
    public void second(SecondFigures second) {
        inner.second(second);
    }

    @Override
    public void stats(IntervalSample sample) {
        inner.stats(sample);
    }

    @Override
    public void rateChanged(io.fluxperf.engine.workload.RateControl.Change change, String workloadName) {
        inner.rateChanged(change, workloadName);
    }
}
