package io.fluxperf.trace;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A quick measurement, not a test: append rate on 1 and 2 threads, bytes on disk per record, and
 * the time of stats and heatmap over 10 M records. Runs only when asked:
 * {@code mvn -pl trace-format test -Dtest=TraceThroughputBench -Dfluxperf.bench=true}. Figures go to
 * the test's output file (target/surefire-reports/io.fluxperf.trace.TraceThroughputBench-output.txt).
 */
@Tag("timing")
class TraceThroughputBench {

    @TempDir
    Path tmp;

    private static TraceRecord realistic(TraceRecord r, long i) {
        long t = i * 1000;
        return r.clear().intendedSendNanos(t).actualSendNanos(t + 1500).completionNanos(t + 48_000 + (i & 0x3FFF))
                .workload((int) (i & 1)).protocol(0).command((int) (i % 3)).outcome((int) (i % 10 == 0 ? 1 : 0))
                .keyLatin1(KEYS[(int) (i & 1023)]).valueSize(64).requestBytes(24).responseBytes(90)
                .connectionId((int) (i % 50));
    }

    private static final String[] KEYS = new String[1024];

    static {
        for (int i = 0; i < KEYS.length; i++) {
            KEYS[i] = String.format(Locale.ROOT, "key:%08d", i * 7919);
        }
    }

    @Test
    void measure() throws Exception {
        assumeTrue(Boolean.getBoolean("fluxperf.bench"), "run with -Dfluxperf.bench=true");
        // warm-up
        write(tmp.resolve("warm"), 1, 2_000_000);
        for (int threads : new int[]{1, 2}) {
            Path dir = tmp.resolve("t" + threads);
            long n = 5_000_000;
            double secs = write(dir, threads, n / threads);
            long bytes = allocatedBytes(dir);
            System.out.printf(Locale.ROOT, "append %d thread(s): %d records in %.3f s = %.2f M records/s; "
                    + "%.1f bytes on disk per record (%d KiB allocated)%n", threads, n, secs, n / secs / 1e6,
                    bytes / (double) n, bytes / 1024);
        }
        try (TraceWriter w = TraceWriter.open(tmp.resolve("alloc"), TestTraces.header())) {
            com.sun.management.ThreadMXBean mx =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            TraceRecord r = new TraceRecord();
            for (long i = 0; i < 1_000_000; i++) {
                w.append(realistic(r, i));
            }
            long a0 = mx.getCurrentThreadAllocatedBytes();
            for (long i = 0; i < 1_000_000; i++) {
                w.append(realistic(r, i));
            }
            long a1 = mx.getCurrentThreadAllocatedBytes();
            System.out.printf(Locale.ROOT, "allocation: %.3f bytes per append (1 M appends after 1 M warm-up)%n",
                    (a1 - a0) / 1e6);
        }
        Path big = tmp.resolve("big");
        long n = 10_000_000;
        double secs = write(big, 1, n);
        System.out.printf(Locale.ROOT, "append 10 M: %.3f s = %.2f M/s, %.1f bytes/record on disk%n", secs, n / secs / 1e6,
                allocatedBytes(big) / (double) n);
        long t0 = System.nanoTime();
        long count = 0;
        try (TraceReader reader = TraceReader.open(big)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                count++;
            }
        }
        double read = (System.nanoTime() - t0) / 1e9;
        assertEquals(n, count);
        System.out.printf(Locale.ROOT, "read 10 M: %.3f s = %.2f M/s%n", read, n / read / 1e6);
        t0 = System.nanoTime();
        try (TraceReader reader = TraceReader.open(big)) {
            TraceStats.compute(reader, Latency.INTENDED, false);
        }
        System.out.printf(Locale.ROOT, "trace stats 10 M: %.3f s%n", (System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        HeatmapAggregator h;
        try (TraceReader reader = TraceReader.open(big)) {
            h = HeatmapAggregator.compute(reader, 100_000_000L, Latency.INTENDED);
        }
        double agg = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        new HeatmapPngRenderer().write(h, "bench", tmp.resolve("h.png"));
        double png = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        new HeatmapHtmlRenderer().write(h, "bench", List.of(), tmp.resolve("h.html"));
        double html = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "heatmap 10 M: aggregate %.3f s, png %.3f s, html %.3f s (%d KiB)%n", agg, png,
                html, Files.size(tmp.resolve("h.html")) / 1024);
    }

    private static double write(Path dir, int threads, long perThread) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(threads + 1);
        List<Thread> workers = new ArrayList<>();
        try (TraceWriter w = TraceWriter.open(dir, TestTraces.header())) {
            for (int t = 0; t < threads; t++) {
                Thread th = new Thread(() -> {
                    TraceRecord r = new TraceRecord();
                    try {
                        barrier.await();
                        for (long i = 0; i < perThread; i++) {
                            w.append(realistic(r, i));
                        }
                        barrier.await();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                });
                th.start();
                workers.add(th);
            }
            barrier.await();
            long t0 = System.nanoTime();
            barrier.await();
            double secs = (System.nanoTime() - t0) / 1e9;
            for (Thread th : workers) {
                th.join();
            }
            assertEquals(threads * perThread, w.recordsWritten());
            return secs;
        }
    }

    /** Blocks actually allocated (the queue files are sparse), as du reports them. */
    private static long allocatedBytes(Path dir) throws Exception {
        Process p = new ProcessBuilder("du", "-s", "-B1", dir.toString()).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        return Long.parseLong(out.split("\\s+")[0]);
    }
}
