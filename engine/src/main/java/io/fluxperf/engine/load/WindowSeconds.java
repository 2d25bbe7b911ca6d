package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.SecondFigures;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Each second of the measured windows, every thread's figures added, for a run directory's
 * {@code seconds.hlog} ({@link RunListener#second}): a window's seconds start with it, and its last
 * one is cut short at its end.
 */
final class WindowSeconds implements IntervalConsumer {
    private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RunListener listener;
    private final FigureSum sum;
    private int window;
    private long startNanos;
    private long nextNanos = Long.MAX_VALUE;
    private long lastEndNanos;

    WindowSeconds(RunListener listener, int workloads, int threads, Runnable pause) {
        this.listener = listener;
        this.sum = new FigureSum(workloads, threads, null, pause);
    }

    @Override
    public void add(Interval interval) {
        if (window > 0) {
            sum.add(interval);
        }
        lastEndNanos = interval.endNanos();
    }

    @Override
    public long nextDueNanos() {
        return nextNanos;
    }

    @Override
    public void due(long nowNanos) {
        emit();
        nextNanos += SECOND_NANOS;
    }

    @Override
    public void windowBegins(int number, long start, long plannedEnd) {
        window = number;
        startNanos = start;
        nextNanos = start + SECOND_NANOS;
    }

    @Override
    public void windowEnds(int number, long endNanos) {
        emit(); // the window's last, partial second
        window = 0;
        nextNanos = Long.MAX_VALUE;
    }

    private void emit() {
        ThreadFigures s = sum.sum;
        listener.second(new SecondFigures(window, startNanos, lastEndNanos, Arrays.asList(s.workloads), s.sendLag,
                s.connectLatency));
        sum.reset();
        startNanos = lastEndNanos;
    }

    /** Bytes of the histograms held (the memory formula's check). */
    long histogramBytes() {
        return sum.histogramBytes();
    }
}
