package io.fluxperf.cli;

import io.fluxperf.engine.rundir.RunMerge;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxperf merge DIR... --out DIR}: runs made together on several machines as one run directory. */
@Command(name = "merge",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Merges run directories of runs made at the same time (several load machines, one config)",
                "into one: counts are summed exactly, histograms added losslessly window by window and second",
                "by second (lined up by wall-clock time), traces copied into one. The merged directory reads",
                "like any other: 'report', 'compare', 'trace stats DIR/trace', 'heatmap DIR/trace'."},
        footer = {"",
                "Examples:",
                "  # on each load machine, started together:",
                "  fluxperf run --config load.toml -s 10.0.0.9:11211 --out runs/$(hostname) --trace",
                "  # then, with the directories copied to one place:",
                "  fluxperf merge runs/host1 runs/host2 runs/host3 --out runs/all",
                "  fluxperf report runs/all && fluxperf trace stats runs/all/trace",
                "",
                "Inputs of different configs (config.toml) or whose windows do not overlap in time are",
                "refused (exit 2), naming the input."})
public final class MergeCommand implements Callable<Integer>, Streams.Aware {
    private Streams streams = Streams.system();

    @Parameters(paramLabel = "DIR", arity = "2..*", description = "The run directories to merge.")
    private List<Path> inputs;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "The merged run directory to write.")
    private Path out;

    @Option(names = "--overwrite", description = "Let --out write into a directory that is not empty (its run files are replaced).")
    private boolean overwrite;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        RunMerge merge = RunMerge.of(inputs);
        merge.write(out, overwrite, RunDirectories.commandLine(spec), null);
        streams.out().println("Merged " + inputs.size() + " runs into " + out + " (fluxperf report " + out + ")");
        streams.out().flush();
        return 0;
    }
}
