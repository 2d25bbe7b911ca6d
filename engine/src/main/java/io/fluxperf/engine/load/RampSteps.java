package io.fluxperf.engine.load;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.workload.RateControl;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The run's rate changes on the run's thread: a ramp's steps when they fall due, and every change
 * (a step, the admin endpoint's) told to the listener. Reads no figures: the windows end on the
 * steps' times already.
 */
final class RampSteps implements IntervalConsumer {
    /** A ramp step due this close to the last window's end is not begun: nothing would be sent at it. */
    private static final long STEP_AT_END_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final RateControl control;
    private final RunListener listener;
    private final List<WorkloadConfig> workloads;
    private final int lastWindow;
    /** Rate changes made on other threads, told to the listener on the run's thread. */
    private final ConcurrentLinkedQueue<RateControl.Change> changes = new ConcurrentLinkedQueue<>();
    private int window;
    private long windowEnd = Long.MAX_VALUE;

    RampSteps(RateControl control, RunListener listener, List<WorkloadConfig> workloads, int windows) {
        this.control = control;
        this.listener = listener;
        this.workloads = workloads;
        this.lastWindow = windows;
    }

    /** A rate changed (on any thread): the listener hears of it at the next tick. */
    void changed(RateControl.Change change) {
        changes.add(change);
    }

    @Override
    public boolean readsFigures() {
        return false;
    }

    @Override
    public long nextDueNanos() {
        return stepAtEnd() ? Long.MAX_VALUE : control.nextStepNanos();
    }

    @Override
    public void due(long nowNanos) {
        // a step that falls on the last window's end is not begun; one on another window's end
        // begins now, not after that window's bookkeeping
        if (!stepAtEnd()) {
            control.tick(nowNanos);
        }
        tellChanges();
    }

    @Override
    public void windowBegins(int number, long startNanos, long plannedEnd) {
        window = number;
        windowEnd = plannedEnd;
    }

    /** Tells the listener of the rate changes made since the last call, on the run's thread. */
    void tellChanges() {
        for (RateControl.Change c = changes.poll(); c != null; c = changes.poll()) {
            listener.rateChanged(c, workloads.get(c.workload()).name());
        }
    }

    private boolean stepAtEnd() {
        return window == lastWindow && control.nextStepNanos() >= windowEnd - STEP_AT_END_NANOS;
    }
}
