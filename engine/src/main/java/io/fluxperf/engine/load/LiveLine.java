package io.fluxperf.engine.load;

import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.trace.LatencyHistograms;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The live line ({@link RunListener#live}): once a second while a window runs, its requests and
 * failures so far, the rate since the last sample and the window's p99 so far. It reads the
 * running window's sums, so it adds up nothing of its own: the example of a cadence that is one
 * class and one {@link RunClock#register} call.
 */
final class LiveLine implements IntervalConsumer {
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RunListener listener;
    private final RunningWindow running;
    /** The window's latency so far, every workload together (reused every second). */
    private final Histogram latency = LatencyHistograms.create();
    private int window;
    private long windowStart;
    private long next = Long.MAX_VALUE;
    private long lastRequests;
    private long lastSample;

    LiveLine(RunListener listener, RunningWindow running) {
        this.listener = listener;
        this.running = running;
    }

    @Override
    public long nextDueNanos() {
        return next;
    }

    @Override
    public void due(long nowNanos) {
        long requests = running.requests();
        latency.reset();
        running.latencyInto(latency);
        long now = System.nanoTime();
        double rate = (requests - lastRequests) / Math.max(1e-9, (now - lastSample) / 1e9);
        long p99 = latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(99.0);
        listener.live(new LiveSample(window, now - windowStart, requests, running.failed(), p99, rate));
        lastRequests = requests;
        lastSample = now;
        next += INTERVAL_NANOS;
    }

    @Override
    public void windowBegins(int number, long startNanos, long plannedEnd) {
        window = number;
        windowStart = startNanos;
        next = startNanos + INTERVAL_NANOS;
        lastRequests = 0;
        lastSample = startNanos;
    }

    @Override
    public void windowEnds(int number, long endNanos) {
        next = Long.MAX_VALUE;
    }
}
