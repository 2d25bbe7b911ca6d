package io.fluxperf.engine.run;

import io.fluxperf.trace.HeatmapAggregator;
import io.fluxperf.trace.HeatmapPngRenderer;
import io.fluxperf.trace.Latency;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The latency heatmap a run draws at its end ({@code --waterfall}, rpc-perf 3's {@code waterfall}):
 * time across, latency up on a log scale, requests per cell as colour, with the p50, p99 and p999
 * lines, made from the run's trace as {@code fluxperf heatmap} makes it. The warm-up's requests
 * are left out, as rpc-perf's waterfall leaves out what comes before its windows.
 */
final class WaterfallImage {
    private WaterfallImage() {
    }

    /**
     * Draws the measured requests of the trace in {@code traceDir} into {@code png}.
     *
     * @return the requests drawn
     */
    static long write(Path traceDir, Path png, String title) throws IOException {
        HeatmapAggregator heatmap = new HeatmapAggregator(HeatmapAggregator.DEFAULT_BUCKET_NANOS, Latency.INTENDED)
                .pauses(io.fluxperf.trace.TracePauses.read(traceDir));
        try (TraceReader reader = TraceReader.open(traceDir)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                if (!r.warmup()) {
                    heatmap.add(r);
                }
            }
        }
        new HeatmapPngRenderer().write(heatmap, title, png);
        return heatmap.totalCount();
    }
}
