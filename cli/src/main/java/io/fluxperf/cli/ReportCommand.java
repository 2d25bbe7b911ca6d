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
                "",
                "A directory that is no run directory, or whose result.json is cut short or of an unknown",
                "format, is an error (exit 2) that names the file."})
public final class ReportCommand implements Callable<Integer>, Streams.Aware {
    private Streams streams = Streams.system();

    @Parameters(index = "0", paramLabel = "DIR", description = "The run directory.")
    private Path dir;

    @Option(names = "--json", description = "Print result.json as the run wrote it instead of the text report.")
    private boolean json;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Write one self-contained HTML page instead (no network): config, environment, windows, "
                    + "requests/s and percentiles over time, the percentile spectrum, workloads, outcomes, and the "
                    + "trace's heatmap when the directory holds one.")
    private Path html;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        RunDirectory run = RunDirectory.open(dir);
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
}
