package io.fluxperf.engine.rundir;

import io.fluxperf.engine.config.WorkloadConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * The names of a run directory's files and of the tags in its interval logs, in one place for the
 * writer, the reader and the merge (docs/results.md describes each).
 */
public final class RunFiles {
    /** The version of result.json's layout that this fluxperf writes and reads. */
    public static final int FORMAT = 1;

    public static final String CONFIG = "config.toml";
    public static final String RESULT = "result.json";
    public static final String WINDOWS = "windows.hlog";
    public static final String SECONDS = "seconds.hlog";
    public static final String REPORT = "report.txt";
    public static final String ENVIRONMENT = "environment.json";
    public static final String TRACE = "trace";
    /** Every entry a run directory may hold: what {@code --overwrite} removes, and nothing else. */
    public static final List<String> ALL = List.of(CONFIG, RESULT, WINDOWS, SECONDS, REPORT, ENVIRONMENT, TRACE);

    /** Latency from the intended send time (open loop), or from the write (closed loop). */
    public static final String INTENDED = "intended";
    /** Latency from the actual write. */
    public static final String SERVICE = "service";
    /** Actual minus intended send time of paced requests (all workloads together). */
    public static final String SEND_LAG = "send-lag";
    /** Connect start to ready, per connection made (all workloads together). */
    public static final String CONNECT = "connect";
    /** The kernel's smoothed RTT of the load connections, one value per connection sample, in µs (not ns). */
    public static final String TCP_RTT = "tcp-rtt";
    /** The workload part of the tags of figures that belong to no one workload. */
    public static final String ALL_WORKLOADS = "*";

    private RunFiles() {
    }

    /** The tag of a workload's figures of one kind: {@code NAME/KIND}, the name with what the log format cannot hold replaced. */
    public static String tag(String workload, String kind) {
        return workload + "/" + kind;
    }

    /** The tag of a server's latency in a run with several servers: {@code server-HOST_PORT/intended}. */
    public static String serverTag(String server) {
        return "server-" + server.replaceAll("[^A-Za-z0-9._-]", "_") + "/" + INTENDED;
    }

    /** The workloads' names as tags use them, in workload order (names are unique in a run). */
    public static List<String> workloadTags(List<WorkloadConfig> workloads) {
        return tagsOfNames(workloads.stream().map(WorkloadConfig::name).toList());
    }

    /** The same from the workloads' names, in workload order. */
    static List<String> tagsOfNames(List<String> names) {
        List<String> out = new ArrayList<>();
        for (String name : names) {
            String clean = name.replaceAll("[^A-Za-z0-9._-]", "_");
            String tag = clean;
            for (int n = 2; out.contains(tag); n++) {
                tag = clean + "-" + n;
            }
            out.add(tag);
        }
        return out;
    }
}
