package io.fluxperf.cli.trace;

import io.fluxperf.cli.OutputFiles;
import io.fluxperf.cli.Streams;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.DurationParser;
import io.fluxperf.trace.HeatmapAggregator;
import io.fluxperf.trace.HeatmapHtmlRenderer;
import io.fluxperf.trace.HeatmapPngRenderer;
import io.fluxperf.trace.Latency;
import io.fluxperf.trace.TraceFormatException;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import io.fluxperf.trace.TraceStats;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxperf heatmap DIR --out FILE.png|FILE.html}: a latency heatmap of a trace. */
@Command(name = "heatmap",
        header = "Draws a latency heatmap of a trace, as PNG or HTML.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Draws a latency heatmap of a trace: time on x, latency on y in log-scaled rows, colour = requests",
                "per cell on a log scale, with the p50, p99 and p999 of each time bucket as lines (after rpc-perf's",
                "waterfall). .png writes an image; .html writes one self-contained page (no network) that adds",
                "requests/s and percentiles over time, the trace stats, and a readout under the pointer."},
        footer = {"",
                "Examples:",
                "  fluxperf heatmap /tmp/trace --out heatmap.png",
                "  fluxperf heatmap /tmp/trace --out heatmap.html --bucket 100ms",
                "  fluxperf heatmap /tmp/trace --out service.png --latency service --width 1600 --height 900"})
public final class HeatmapCommand implements Callable<Integer>, Streams.Aware {

    private Streams streams = Streams.system();

    @Parameters(index = "0", paramLabel = "DIR", description = "The trace directory.")
    private Path dir;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "FILE.png or FILE.html.")
    private Path out;

    @Option(names = "--bucket", paramLabel = "TIME", defaultValue = "1s",
            description = "Width of a time bucket: 1s (default), 100ms, 10s. Long traces merge buckets to keep at most"
                    + " 4096.")
    private String bucket;

    @Option(names = "--latency", paramLabel = "KIND", defaultValue = "intended",
            description = "intended (completion - intended send; default) or service (completion - actual send).")
    private String latency;

    @Option(names = "--width", paramLabel = "PX", defaultValue = "1200", description = "PNG width (default 1200; 400 to 8192, and at most 8192x4096 pixels in all).")
    private int width;

    @Option(names = "--height", paramLabel = "PX", defaultValue = "700", description = "PNG height (default 700; 300 to 8192).")
    private int height;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        String name = out.getFileName() == null ? "" : out.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean html = name.endsWith(".html") || name.endsWith(".htm");
        if (!html && !name.endsWith(".png")) {
            throw new UserError("--out: " + out + " must end in .png or .html.");
        }
        long bucketNanos = bucketNanos();
        Latency kind = TraceCommand.latency(latency);
        if (!html) {
            checkImageSize();
        }
        OutputFiles.check("--out", out);
        PrintStream console = streams.out();
        try (TraceReader reader = TraceCommand.open(dir)) {
            HeatmapAggregator heatmap = new HeatmapAggregator(bucketNanos, kind).pauses(io.fluxperf.trace.TracePauses.read(dir));
            TraceStats stats = new TraceStats(reader.header(), kind, false);
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                heatmap.add(r);
                stats.add(r);
            }
            String title = "fluxperf latency heatmap - " + dir;
            try {
                if (html) {
                    new HeatmapHtmlRenderer().write(heatmap, title, summary(reader, stats), out);
                } else {
                    new HeatmapPngRenderer(width, height, true).write(heatmap, title, out);
                }
            } catch (IOException e) {
                throw OutputFiles.failed("--out", out, e);
            }
            reader.warning().ifPresent(w -> streams.err().println("fluxperf: warning: " + w));
            console.println("Wrote " + out + ": " + heatmap.totalCount() + " requests, " + heatmap.timeBuckets()
                    + " time buckets of " + DurationParser.format(Duration.ofNanos(heatmap.bucketNanos()))
                    + (heatmap.bucketNanos() != bucketNanos ? " (merged from " + bucket + " to keep at most "
                    + HeatmapAggregator.DEFAULT_MAX_TIME_BUCKETS + ")" : "") + ", " + kind.label() + " latency");
        } catch (TraceFormatException e) {
            throw new UserError(e.getMessage());
        }
        console.flush();
        return 0;
    }

    /** Most pixels on a side, and in all: 8192 x 4096 takes 128 MiB as an image, twice that while encoded. */
    static final int MAX_SIDE = 8192;
    static final long MAX_PIXELS = 8192L * 4096;

    /**
     * The image's size, checked before the trace is read: at least 400x300, at most
     * {@value #MAX_SIDE} on a side and {@value #MAX_PIXELS} pixels, and no more than the JVM's heap
     * can hold twice (the image and the PNG encoder's rows).
     */
    private void checkImageSize() {
        if (width < 400 || height < 300) {
            throw new UserError("--width/--height: a heatmap image needs at least 400x300 pixels, not " + width + "x"
                    + height + ".");
        }
        if (width > MAX_SIDE || height > MAX_SIDE || (long) width * height > MAX_PIXELS) {
            throw new UserError("--width/--height: a heatmap image may have at most " + MAX_SIDE + " pixels on a side and "
                    + MAX_PIXELS / 1_000_000 + " million in all (such as 8192x4096), not " + width + "x" + height + ".");
        }
        long bytes = 2L * 4 * width * height;
        long heap = Runtime.getRuntime().maxMemory();
        if (bytes > heap / 2) {
            throw new UserError("--width/--height: a " + width + "x" + height + " image needs about " + bytes / (1 << 20)
                    + " MiB, more than half of the " + heap / (1 << 20) + " MiB this JVM may use; draw a smaller one"
                    + " (or give java -Xmx more).");
        }
    }

    private static List<String> summary(TraceReader reader, TraceStats stats) {
        List<String> lines = new ArrayList<>();
        reader.warning().ifPresent(w -> lines.add("WARNING: " + w));
        lines.addAll(stats.reportLines());
        return lines;
    }

    private long bucketNanos() {
        Duration d;
        try {
            d = DurationParser.parse(bucket);
        } catch (IllegalArgumentException e) {
            throw new UserError("--bucket: " + e.getMessage() + ".");
        }
        if (d.isNegative() || d.isZero()) {
            throw new UserError("--bucket: the time bucket must be longer than 0, not " + bucket + ".");
        }
        return d.toNanos();
    }
}
