package io.fluxperf.engine.slo;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.ConnectionCounts;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import java.util.List;

/** Windows with known figures, recorded the way a load thread records them. */
final class SloWindows {
    static final List<WorkloadConfig> WORKLOADS = List.of(WorkloadConfig.of(Command.GET).withName("get"),
            WorkloadConfig.of(Command.SET).withName("set"));

    private SloWindows() {
    }

    /**
     * One second: get answers 1000 requests at 1, 2, … 1000 us (every 10th a miss); set 100 at
     * {@code setMillis} ms each, {@code setErrors} of them errors.
     */
    static WindowResult window(int number, long setMillis, int setErrors) {
        return window(number, setMillis, setErrors, WORKLOADS);
    }

    /** The same, with other names for the two workloads. */
    static WindowResult window(int number, long setMillis, int setErrors, List<WorkloadConfig> workloads) {
        WorkloadStats get = new WorkloadStats();
        for (int i = 1; i <= 1000; i++) {
            get.record(i % 10 == 0 ? Outcome.MISS : Outcome.OK, i * 1_000L, i * 1_000L, 10);
        }
        WorkloadStats set = new WorkloadStats();
        for (int i = 0; i < 100; i++) {
            set.record(i < setErrors ? Outcome.ERROR : Outcome.OK, setMillis * 1_000_000, setMillis * 1_000_000, 10);
        }
        WorkloadStats total = get.copy();
        total.add(set);
        long start = number * 1_000_000_000L;
        return new WindowResult(number, start, start + 1_000_000_000L, workloads, List.of(get, set), total,
                new ConnectionCounts(), WorkloadStats.newHistogram(), WorkloadStats.newHistogram(), -1, new long[0]);
    }
}
