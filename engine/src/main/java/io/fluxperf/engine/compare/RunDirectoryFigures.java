package io.fluxperf.engine.compare;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.rundir.RunFiles;
import io.fluxperf.trace.FileErrors;
import io.fluxperf.trace.ParseErrors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/**
 * A run directory's per-second figures for {@code compare} and the HTML report: each workload's
 * intended and service latency per second from seconds.hlog, every workload together as
 * {@link RunComparison#ALL} (the log's untagged intervals), CPU per request from result.json, and
 * config.toml's keys.
 */
public final class RunDirectoryFigures {
    private static final String INTENDED_SUFFIX = "/" + RunFiles.INTENDED;
    private static final String SERVICE_SUFFIX = "/" + RunFiles.SERVICE;

    private RunDirectoryFigures() {
    }

    /**
     * The figures of {@code dir}, labelled {@code label}.
     *
     * @throws UserError when the directory has no per-second log
     */
    public static RunFigures of(RunDirectory dir, String label) {
        List<RunDirectory.Interval> seconds = dir.secondIntervals();
        if (seconds.isEmpty()) {
            throw new UserError(dir.directory().resolve(RunFiles.SECONDS) + " is missing or holds no second, so "
                    + dir.directory() + " has nothing to compare");
        }
        Map<String, WorkloadSeries> workloads = new LinkedHashMap<>();
        for (String w : workloadNames(seconds)) {
            workloads.put(w, new WorkloadSeries(series(seconds, List.of(w + INTENDED_SUFFIX)),
                    series(seconds, List.of(w + SERVICE_SUFFIX))));
        }
        if (workloads.size() > 1) {
            List<String> service = workloads.keySet().stream().map(w -> w + SERVICE_SUFFIX).toList();
            workloads.put(RunComparison.ALL, new WorkloadSeries(series(seconds, List.of("")), series(seconds, service)));
        }
        JsonNode cpu = dir.result().path("total").path("cpuNanosPerRequest");
        return new RunFigures(label, dir.directory().toString(), workloads, cpu.isNumber() ? cpu.asDouble() : null,
                config(dir));
    }

    /** The workloads' tags in the log's order (the "*" tags are every workload's send lag and connects). */
    public static List<String> workloadNames(List<RunDirectory.Interval> seconds) {
        Set<String> names = new LinkedHashSet<>();
        for (RunDirectory.Interval i : seconds) {
            for (String tag : i.histograms().keySet()) {
                if (tag.endsWith(INTENDED_SUFFIX) && !tag.startsWith(RunFiles.ALL_WORKLOADS + "/")) {
                    names.add(tag.substring(0, tag.length() - INTENDED_SUFFIX.length()));
                }
            }
        }
        return new ArrayList<>(names);
    }

    /** Per second, the histograms of {@code tags} added up (an empty one where a second has none). */
    public static SecondSeries series(List<RunDirectory.Interval> seconds, List<String> tags) {
        List<Histogram> hs = new ArrayList<>();
        double[] lengths = lengths(seconds);
        for (int i = 0; i < seconds.size(); i++) {
            RunDirectory.Interval s = seconds.get(i);
            Histogram sum = null;
            for (String tag : tags) {
                Histogram h = s.get(tag);
                if (h != null) {
                    if (sum == null) {
                        sum = h.copy();
                    } else {
                        sum.add(h);
                    }
                }
            }
            hs.add(sum == null ? new Histogram(3) : sum);
        }
        return SecondSeries.of(hs, lengths);
    }

    /**
     * Each interval's length, seconds: from its start to the next one's, the last one's own length
     * but no longer than the usual step. A merged directory's intervals each span every input's
     * second (inputs started a little apart), so their own lengths overlap and would understate
     * requests/s; the steps between them do not.
     */
    public static double[] lengths(List<RunDirectory.Interval> intervals) {
        int n = intervals.size();
        double[] out = new double[n];
        double[] steps = new double[Math.max(0, n - 1)];
        for (int i = 0; i + 1 < n; i++) {
            steps[i] = (intervals.get(i + 1).startEpochMs() - intervals.get(i).startEpochMs()) / 1000.0;
            out[i] = Math.max(0.001, Math.min(steps[i], own(intervals.get(i))));
        }
        if (n > 0) {
            double last = own(intervals.get(n - 1));
            if (steps.length > 0) {
                double[] sorted = steps.clone();
                java.util.Arrays.sort(sorted);
                last = Math.min(last, sorted[sorted.length / 2]);
            }
            out[n - 1] = Math.max(0.001, last);
        }
        return out;
    }

    private static double own(RunDirectory.Interval i) {
        return (i.endEpochMs() - i.startEpochMs()) / 1000.0;
    }

    private static Map<String, String> config(RunDirectory dir) {
        try {
            return ConfigKeys.flatten(new TomlMapper().readTree(dir.configToml()));
        } catch (IOException e) {
            throw new UserError(dir.directory().resolve(RunFiles.CONFIG) + " is not TOML fluxperf can read ("
                    + (e instanceof JacksonException j ? ParseErrors.describe(j) : FileErrors.describe(e)) + ")", e);
        }
    }
}
