package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.compare.Bootstrap;
import io.fluxperf.engine.compare.ComparisonJson;
import io.fluxperf.engine.compare.ComparisonText;
import io.fluxperf.engine.compare.RunComparison;
import io.fluxperf.engine.compare.RunDirectoryFigures;
import io.fluxperf.engine.compare.RunFigures;
import io.fluxperf.engine.html.ComparisonHtml;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.trace.FileErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxperf compare A B [C …]}: run directories side by side, each as a ratio to A, with intervals and verdicts. */
@Command(name = "compare",
        header = "Compares run directories figure by figure, with verdicts.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Compares run directories (written by 'run --out DIR'): per workload, requests/s, p50 ... p9999,",
                "service time and CPU per request of each run as a ratio to the first (A), with a 95%% interval from a",
                "seeded bootstrap over the runs' seconds, and a verdict per figure: faster, slower (the interval",
                "excludes 1) or no significant difference. Config keys that differ between the runs come first.",
                "No load is sent."},
        footer = {"",
                "Examples:",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 -d 30 --out runs/before",
                "  fluxperf run -s 127.0.0.1:11211 --rate 20000 -d 30 --out runs/after",
                "  fluxperf compare runs/before runs/after",
                "  fluxperf compare runs/before runs/after runs/tuned --html compare.html",
                "  fluxperf compare runs/before runs/after --json > compare.json",
                "  fluxperf compare runs/a runs/b --min-change 2   # no verdict below a 2%% change",
                "",
                "A directory that is no run directory, or whose files are damaged, is an error (exit 2) that",
                "names the file and the field."})
public final class CompareCommand implements Callable<Integer>, Streams.Aware {
    private Streams streams = Streams.system();

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Run directories: A, B, and any more; each is compared with A.")
    private List<Path> dirs;

    @Option(names = "--json", description = "Print the comparison as JSON instead of the text table.")
    private boolean json;

    @Option(names = "--html", paramLabel = "FILE",
            description = "Also write one self-contained HTML page: the tables and the runs' percentile spectra overlaid.")
    private Path html;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed of the bootstrap (default 1): the same runs and seed give the same intervals.")
    private long seed;

    @Option(names = "--resamples", paramLabel = "N", defaultValue = "" + Bootstrap.RESAMPLES,
            description = "Bootstrap resamples per figure (default ${DEFAULT-VALUE}).")
    private int resamples;

    @Option(names = "--min-change", paramLabel = "PERCENT", defaultValue = "0",
            description = "Say faster or slower only when the whole interval is more than PERCENT away from 1 (for CI:"
                    + " --min-change 2 ignores a significant 0.5%% change); default 0: whenever it excludes 1.")
    private double minChangePercent;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        if (dirs.size() < 2) {
            // picocli's own arity message names a parameter index, not what to do
            throw new UserError("compare: give two run directories or more (A, then each one to compare with A);"
                    + " " + dirs.get(0) + " alone has nothing to be compared with");
        }
        if (resamples < 100 || resamples > 100_000) {
            throw new UserError("--resamples: give 100 to 100000, not " + resamples);
        }
        if (!(minChangePercent >= 0 && minChangePercent <= 10_000)) {
            throw new UserError("--min-change: give a percentage from 0 to 10000, not " + minChangePercent);
        }
        dirs.forEach(d -> RunDirectoryArguments.refuseOtherKinds(d, "compare")); // before any is read
        List<RunFigures> runs = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            String label = i < 26 ? String.valueOf((char) ('A' + i)) : "R" + (i + 1);
            runs.add(RunDirectoryFigures.of(RunDirectory.open(dirs.get(i)), label));
        }
        RunComparison c = RunComparison.of(runs, resamples, seed, minChangePercent / 100);
        if (html != null) {
            try {
                Files.writeString(html, ComparisonHtml.render(c), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UserError("--html: cannot write " + html + ": " + FileErrors.describe(e), e);
            }
        }
        String text = json ? ComparisonJson.render(c) : ComparisonText.render(c);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        streams.out().write(bytes, 0, bytes.length);
        streams.out().flush();
        return 0;
    }
}
