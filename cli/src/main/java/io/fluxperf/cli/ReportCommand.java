package io.fluxperf.cli;

import io.fluxperf.engine.rundir.RunDirectory;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fluxperf report DIR}: a run directory's report, made again from its files (no load is
 * sent). Each view is one option over the same {@link RunDirectory}: the text report by default,
 * {@code --json} the result as written; a new view (an HTML page, SLO verdicts) is one more option
 * and one more branch in {@link #call()}, reading the directory the same way.
 */
@Command(name = "report",
        header = "Prints a run directory's report again, or its JSON or HTML.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Prints a run directory's report (written by 'run --out DIR', 'replay --out DIR' or 'merge'),",
                "made again from its files: the same text the run printed, byte for byte. No load is sent."},
        footer = {"",
                "Examples:",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 -d 10 -w 3 --out runs/a",
                "  fluxperf report runs/a                      # the text report, as the run printed it",
                "  fluxperf report runs/a --json | jq .total.latency.p99",
                "  fluxperf report runs/a --html a.html        # charts, tables, heatmap",
                "  fluxperf merge runs/host1 runs/host2 --out runs/all && fluxperf report runs/all",
                "  fluxperf report runs/a --slo 'p99<2ms' --slo 'rate>=19800' --junit slo.xml   # exit 3 if one fails",
                "",
                "A directory that is no run directory, or whose result.json is cut short, of an unknown",
                "format or damaged (a count that is no count, a missing field), or whose interval logs are",
                "damaged, is an error (exit 2) that names the file and the field or line. With --slo, the",
                "objectives are judged against the directory's windows and whole run, and only their",
                "verdicts are printed."})
public final class ReportCommand implements Callable<Integer>, Streams.Aware {
    private Streams streams = Streams.system();

    @Parameters(index = "0", paramLabel = "DIR", description = "The run directory.")
    private Path dir;

    @Option(names = "--json", description = "Print result.json as the run wrote it instead of the text report.")
    private boolean json;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Write one self-contained HTML page instead (no network): config, environment, windows, "
                    + "service time, send lag, CPU and TCP, requests/s and percentiles over time (latency on log axes), "
                    + "the percentile spectrum, workloads, outcomes, and the trace's heatmap when the directory holds one.")
    private Path html;

    @Option(names = "--slo", paramLabel = "EXPR",
            description = "Judge an objective against the run's windows and whole run, as 'run --slo' does, e.g. p99<2ms, "
                    + "get.p999<=10ms, success>=99.9%%, rate>=49500 (repeatable); prints the verdicts, exit code 3 when one fails.")
    private java.util.List<String> slo;

    @Option(names = "--junit", paramLabel = "FILE",
            description = "Write the verdicts as JUnit XML: those of --slo, or else of the objectives the run had ([[slo]] in its config.toml).")
    private Path junit;

    @Option(names = "--slo-strict", description = "Fail an objective whose verdict is too close to call at the run's sample"
            + " size, as if missed (objectives the run had keep their own strict).")
    private boolean sloStrict;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        if (html != null && json) {
            throw new io.fluxperf.engine.UserError("--html: writes the page instead of the report; give it without --json");
        }
        RunDirectory run = RunDirectoryArguments.open(dir, "report");
        if (sloStrict && slo == null && junit == null && run.config().objectives().isEmpty()) {
            throw new io.fluxperf.engine.UserError("--slo-strict: fails an objective too close to call, and there is no"
                    + " --slo, and " + dir + " had no objectives");
        }
        if (slo != null || junit != null || sloStrict) {
            return objectives(run);
        }
        if (html != null) {
            io.fluxperf.engine.html.RunHtmlReport.write(run, html, "--html");
            streams.out().println("Wrote " + html);
        } else if (json) {
            streams.out().write(run.resultBytes(), 0, run.resultBytes().length);
        } else {
            byte[] text = run.reportText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            streams.out().write(text, 0, text.length);
        }
        streams.out().flush();
        return 0;
    }

    /** --slo, --junit: the verdicts on objectives, judged against the directory's figures. */
    private int objectives(RunDirectory run) {
        if (json || html != null) {
            throw new io.fluxperf.engine.UserError((slo != null ? "--slo" : junit != null ? "--junit" : "--slo-strict")
                    + ": prints the objectives' verdicts; give it without --json and --html");
        }
        java.util.List<io.fluxperf.engine.slo.Objective> objectives = slo != null
                ? io.fluxperf.engine.slo.Objectives.parse(slo) : run.config().objectives();
        if (sloStrict) {
            objectives = objectives.stream().map(o -> o.withStrict(true)).toList();
        }
        if (objectives.isEmpty()) {
            throw new io.fluxperf.engine.UserError("--junit: " + dir + " has no objectives ([[slo]] in its "
                    + "config.toml); name them with --slo EXPR");
        }
        if (junit != null) {
            OutputFiles.check("--junit", junit);
        }
        try (io.fluxperf.engine.slo.JunitXml file = junit != null ? io.fluxperf.engine.slo.JunitXml.open(junit) : null) {
            io.fluxperf.engine.slo.SloVerdicts verdicts = run.verdicts(objectives);
            verdicts.print(streams.out());
            if (file != null) {
                file.write(verdicts, "fluxperf report " + dir);
            }
            return RunCommand.objectivesExit(verdicts);
        }
    }
}
