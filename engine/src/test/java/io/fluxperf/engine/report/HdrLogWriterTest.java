package io.fluxperf.engine.report;

import static io.fluxperf.engine.report.Fixtures.SECOND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HdrLogWriterTest {
    private static final long START_MILLIS = 1_700_000_000_000L;

    private final List<WorkloadConfig> configs = List.of(
            WorkloadConfig.of(Command.SET), WorkloadConfig.of(Command.GET).withName("hot gets, zipf"));

    /** Window n: seeded random latencies from 10 µs to 20 ms, so that p99 lands in a wide bucket. */
    private WindowResult window(int number, Random random) {
        Fixtures.Stats set = new Fixtures.Stats();
        Fixtures.Stats get = new Fixtures.Stats();
        for (int i = 0; i < 3000; i++) {
            set.reply(Outcome.OK, 10_000 + random.nextInt(2_000_000));
        }
        for (int i = 0; i < 7000; i++) {
            get.reply(i % 10 == 0 ? Outcome.MISS : Outcome.OK, 10_000 + random.nextInt(20_000_000));
        }
        long start = (number - 1) * 2 * SECOND;
        return Fixtures.window(number, start, start + 2 * SECOND, configs, set, get);
    }

    @Test
    void roundTripThroughHdrHistogramsOwnReaderAndLogProcessor(@TempDir Path dir) throws Exception {
        Random random = new Random(7);
        List<WindowResult> windows = List.of(window(1, random), window(2, random));
        Path log = dir.resolve("run.hlog");
        try (HdrLogWriter writer = HdrLogWriter.start(log, START_MILLIS)) {
            writer.window(windows.get(0), 0.0);
            writer.window(windows.get(1), 2.0);
        }

        // HistogramLogReader: 3 histograms per window, in order, tagged, stamped, equal to the originals
        List<EncodableHistogram> read = new ArrayList<>();
        try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                read.add(h);
            }
            assertEquals(START_MILLIS / 1000.0, reader.getStartTimeSec(), 1e-3);
        }
        assertEquals(6, read.size());
        for (int w = 0; w < 2; w++) {
            WindowResult window = windows.get(w);
            Histogram total = (Histogram) read.get(3 * w);
            Histogram set = (Histogram) read.get(3 * w + 1);
            Histogram get = (Histogram) read.get(3 * w + 2);
            assertNull(total.getTag());
            assertEquals("workload-0-set", set.getTag());
            assertEquals("workload-1-hot_gets__zipf", get.getTag());
            assertEquals(window.total().latency(), total);
            assertEquals(window.workloads().get(0).latency(), set);
            assertEquals(window.workloads().get(1).latency(), get);
            assertEquals(START_MILLIS + w * 2000L, total.getStartTimeStamp());
            assertEquals(START_MILLIS + (w + 1) * 2000L, total.getEndTimeStamp());
        }

        // HistogramLogProcessor (tag-less = all workloads): cumulative count and p99 in its last line
        Histogram all = new Histogram(windows.get(0).total().latency());
        all.add(windows.get(0).total().latency());
        all.add(windows.get(1).total().latency());
        String[] last = processLastLine(log, dir.resolve("total.csv"), null);
        assertEquals(20_000, Long.parseLong(last[5]));
        assertEquals(all.getTotalCount(), Long.parseLong(last[5]));
        assertEquals(String.format(Locale.US, "%.3f", (double) all.getValueAtPercentile(99.0)), last[8]);

        // and one workload by its tag
        Histogram gets = new Histogram(windows.get(0).workloads().get(1).latency());
        gets.add(windows.get(0).workloads().get(1).latency());
        gets.add(windows.get(1).workloads().get(1).latency());
        String[] lastGet = processLastLine(log, dir.resolve("get.csv"), "workload-1-hot_gets__zipf");
        assertEquals(gets.getTotalCount(), Long.parseLong(lastGet[5]));
        assertEquals(String.format(Locale.US, "%.3f", (double) gets.getValueAtPercentile(99.0)), lastGet[8]);
    }

    /** Runs HistogramLogProcessor with CSV output in ns and returns the columns of its last interval line. */
    private static String[] processLastLine(Path log, Path out, String tag) throws Exception {
        List<String> args = new ArrayList<>(List.of("-i", log.toString(), "-o", out.toString(), "-csv",
                "-outputValueUnitRatio", "1"));
        if (tag != null) {
            args.addAll(List.of("-tag", tag));
        }
        new HistogramLogProcessor(args.toArray(String[]::new)).run();
        List<String> lines = Files.readAllLines(out);
        assertEquals("\"Timestamp\",\"Int_Count\",\"Int_50%\",\"Int_90%\",\"Int_Max\",\"Total_Count\",\"Total_50%\","
                + "\"Total_90%\",\"Total_99%\",\"Total_99.9%\",\"Total_99.99%\",\"Total_Max\"", lines.get(2), lines::toString);
        String last = lines.get(lines.size() - 1);
        assertNotNull(last);
        return last.split(",");
    }

    @Test
    void tagsAreSafeForTheLogFormat() {
        assertEquals("workload-3-get", HdrLogWriter.tag(3, "get"));
        assertEquals("workload-0-a_b_c", HdrLogWriter.tag(0, "a,b c"));
        assertEquals("workload-1", HdrLogWriter.tag(1, ""));
    }
}
