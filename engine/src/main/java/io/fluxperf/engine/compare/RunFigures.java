package io.fluxperf.engine.compare;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What {@code compare} needs of one run, read from its directory.
 *
 * @param label              A, B, C, … as the tables name the run
 * @param source             where the run came from (its directory)
 * @param workloads          per workload name, in the run's order; {@link RunComparison#ALL} for all workloads together
 * @param cpuNanosPerRequest the run's CPU time per request, ns, all workloads; null when not measured
 * @param config             the effective config as flat keys ({@link ConfigKeys}), for the differences
 */
public record RunFigures(String label, String source, Map<String, WorkloadSeries> workloads, Double cpuNanosPerRequest,
                         Map<String, String> config) {
    public RunFigures {
        workloads = new LinkedHashMap<>(workloads);
        config = new LinkedHashMap<>(config);
    }
}
