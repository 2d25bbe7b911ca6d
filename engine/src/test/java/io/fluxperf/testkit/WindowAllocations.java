package io.fluxperf.testkit;

import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.WindowResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's listener that notes, for each measured window, its requests and the bytes the load
 * thread allocated during it (from the warm-up's end on): what the zero-allocation tests divide.
 */
public final class WindowAllocations implements RunListener {
    /** {requests, bytes the load thread allocated}, one per window. */
    private final List<long[]> perWindow = new ArrayList<>();
    private long last = -1;

    @Override
    public void warmupComplete() {
        last = LoadThread.allocatedBytes();
    }

    @Override
    public void window(WindowResult window) {
        long now = LoadThread.allocatedBytes();
        perWindow.add(new long[] {window.total().outcomes().requests(), now - last});
        last = now;
    }

    public List<long[]> perWindow() {
        return perWindow;
    }
}
