package io.fluxperf.engine.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs side by side: for every workload and {@link Figure}, each run's value and, for every run
 * after the first, its ratio to the first (A) with a bootstrap interval and a verdict. Runs whose
 * configs differ are compared anyway; the differing keys come first.
 *
 * @param runs              the runs, A first
 * @param configDifferences config keys whose values are not the same in every run
 * @param workloads         per workload (those of A first, then any only later runs have)
 * @param resamples         bootstrap resamples per comparison
 * @param seed              the bootstrap's seed
 * @param minChange         the smallest change a verdict of faster or slower needs, as a fraction (0.02: 2%)
 */
public record RunComparison(List<RunInfo> runs, List<ConfigKeys.Difference> configDifferences,
                            List<WorkloadComparison> workloads, int resamples, long seed, double minChange) {

    /** The name under which a run's workloads together are compared. */
    public static final String ALL = "all";

    /** A run: its label, its directory, and how many seconds its figures cover. */
    public record RunInfo(String label, String source, int seconds) {
    }

    /** One workload: its figures, and each run's percentile spectrum (empty where the run lacks it). */
    public record WorkloadComparison(String workload, List<Row> rows, List<List<double[]>> spectra) {
    }

    /**
     * One figure of one workload.
     *
     * @param values each run's value (ns for times, requests/s), null where the run lacks it
     * @param versus for each run after A, its ratio to A
     */
    public record Row(Figure figure, List<Double> values, List<Versus> versus) {
    }

    /**
     * A run against A.
     *
     * @param ratio the run's value / A's, null when there is none
     * @param low   the interval's lower bound, null when there is none
     */
    public record Versus(String run, Double ratio, Double low, Double high, Verdict verdict) {
    }

    /** Compares {@code runs} (A first) with {@link Bootstrap#RESAMPLES} resamples. */
    public static RunComparison of(List<RunFigures> runs, long seed) {
        return of(runs, Bootstrap.RESAMPLES, seed, 0);
    }

    /** @param minChange the smallest change a verdict of faster or slower needs, as a fraction; 0: any that the interval shows */
    public static RunComparison of(List<RunFigures> runs, int resamples, long seed, double minChange) {
        if (runs.size() < 2) {
            throw new IllegalArgumentException("compare needs at least two runs");
        }
        List<RunInfo> infos = new ArrayList<>();
        for (RunFigures r : runs) {
            WorkloadSeries any = r.workloads().get(ALL) != null ? r.workloads().get(ALL)
                    : r.workloads().values().stream().findFirst().orElse(null);
            infos.add(new RunInfo(r.label(), r.source(), any == null ? 0 : any.intended().size()));
        }
        List<ConfigKeys.Difference> diffs = ConfigKeys.differences(runs.stream().map(RunFigures::config).toList());
        Set<String> names = new LinkedHashSet<>();
        runs.forEach(r -> names.addAll(r.workloads().keySet()));
        List<WorkloadComparison> workloads = new ArrayList<>();
        for (String name : names) {
            workloads.add(workload(name, runs, resamples, seed, minChange));
        }
        return new RunComparison(infos, diffs, workloads, resamples, seed, minChange);
    }

    private static WorkloadComparison workload(String name, List<RunFigures> runs, int resamples, long seed,
                                               double minChange) {
        Figure[] intended = Arrays.stream(Figure.values()).filter(f -> f.kind() == Figure.Kind.INTENDED).toArray(Figure[]::new);
        Figure[] service = Arrays.stream(Figure.values()).filter(f -> f.kind() == Figure.Kind.SERVICE).toArray(Figure[]::new);
        int n = runs.size();
        // per figure: values per run, ratios per later run
        Double[][] values = new Double[Figure.values().length][n];
        Bootstrap.Ratio[][] ratios = new Bootstrap.Ratio[Figure.values().length][n];
        boolean[] present = new boolean[Figure.values().length];
        WorkloadSeries a = runs.get(0).workloads().get(name);
        for (int i = 0; i < n; i++) {
            WorkloadSeries s = runs.get(i).workloads().get(name);
            if (s == null) {
                continue;
            }
            fill(intended, s.intended(), a == null ? null : a.intended(), i, name, resamples, seed, values, ratios, present);
            fill(service, s.service(), a == null ? null : a.service(), i, name, resamples, seed, values, ratios, present);
            if (ALL.equals(name) || runs.get(i).workloads().size() == 1) {
                Double cpu = runs.get(i).cpuNanosPerRequest();
                int k = Figure.CPU_PER_REQUEST.ordinal();
                values[k][i] = cpu;
                present[k] |= cpu != null;
                Double cpuA = runs.get(0).cpuNanosPerRequest();
                if (i > 0 && cpu != null && cpuA != null && cpuA > 0) {
                    ratios[k][i] = new Bootstrap.Ratio(cpuA, cpu, cpu / cpuA, Double.NaN, Double.NaN);
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (Figure f : Figure.values()) {
            if (!present[f.ordinal()]) {
                continue;
            }
            List<Versus> versus = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                Bootstrap.Ratio r = ratios[f.ordinal()][i];
                versus.add(r == null ? new Versus(runs.get(i).label(), null, null, null, Verdict.NO_INTERVAL)
                        : new Versus(runs.get(i).label(), r.ratio(), r.hasInterval() ? r.low() : null,
                        r.hasInterval() ? r.high() : null, f.verdict(r, minChange)));
            }
            rows.add(new Row(f, Arrays.asList(values[f.ordinal()]), versus));
        }
        List<List<double[]>> spectra = new ArrayList<>();
        for (RunFigures r : runs) {
            WorkloadSeries s = r.workloads().get(name);
            spectra.add(s == null ? List.of() : Spectrum.of(s.intended()));
        }
        return new WorkloadComparison(name, rows, spectra);
    }

    private static void fill(Figure[] figures, SecondSeries s, SecondSeries a, int run, String name, int resamples,
                             long seed, Double[][] values, Bootstrap.Ratio[][] ratios, boolean[] present) {
        if (s == null || figures.length == 0) {
            return;
        }
        double[] ps = percentiles(figures);
        double[] v = Bootstrap.figures(s, ps);
        for (int j = 0; j < figures.length; j++) {
            int k = figures[j].ordinal();
            double value = Double.isNaN(figures[j].percentile()) ? v[0] : v[1 + indexOf(ps, figures[j].percentile())];
            values[k][run] = value;
            present[k] = true;
        }
        if (run == 0 || a == null) {
            return;
        }
        // one seed per comparison, so that adding a run or a workload leaves the others' intervals as they were
        long own = seed * 0x9E3779B97F4A7C15L + (name.hashCode() * 31L + figures[0].kind().ordinal()) * 1_000_003L + run;
        Bootstrap.Ratio[] r = Bootstrap.compare(a, s, ps, resamples, own);
        for (Figure f : figures) {
            ratios[f.ordinal()][run] = Double.isNaN(f.percentile()) ? r[0] : r[1 + indexOf(ps, f.percentile())];
        }
    }

    private static double[] percentiles(Figure[] figures) {
        return Arrays.stream(figures).mapToDouble(Figure::percentile).filter(p -> !Double.isNaN(p)).sorted().distinct()
                .toArray();
    }

    private static int indexOf(double[] ps, double p) {
        for (int i = 0; i < ps.length; i++) {
            if (ps[i] == p) {
                return i;
            }
        }
        throw new IllegalArgumentException("no percentile " + p);
    }

    /** The comparison's workloads by name. */
    public Map<String, WorkloadComparison> byName() {
        Map<String, WorkloadComparison> m = new java.util.LinkedHashMap<>();
        workloads.forEach(w -> m.put(w.workload(), w));
        return m;
    }
}
