package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.rundir.RunMerge;
import io.fluxperf.engine.shard.ShardSet;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxperf merge DIR... --out DIR}: runs made together on several machines as one run directory. */
@Command(name = "merge",
        header = "Merges runs made together on several machines into one.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Merges run directories of runs made at the same time (several load machines, one config)",
                "into one: counts are summed exactly, histograms added losslessly window by window and second",
                "by second (lined up by wall-clock time), traces copied into one. The merged directory reads",
                "like any other: 'report', 'compare', 'trace stats DIR/trace', 'heatmap DIR/trace'.",
                "Replays' directories (a sharded replay's agents) merge the same way, with their fidelity",
                "combined; runs and replays are not merged together."},
        footer = {"",
                "Examples:",
                "  # on each load machine, started together:",
                "  fluxperf run --config load.toml -s 10.0.0.9:11211 --out runs/$(hostname) --trace",
                "  # then, with the directories copied to one place:",
                "  fluxperf merge runs/host1 runs/host2 runs/host3 --out runs/all",
                "  fluxperf report runs/all && fluxperf trace stats runs/all/trace",
                "  # a sharded run (run --shard I/N --out runs, or 'fluxperf k8s'): its shards, checked and merged",
                "  fluxperf merge runs/run-20261206T030000Z-1a2b3c4d            # into runs/run-…/merged",
                "  fluxperf merge runs/nightly --partial --out runs/nightly-part  # the shards that finished",
                "  # a sharded replay: replay --shard I/3 --out runs --run-id r1 on each agent, then",
                "  fluxperf merge runs/r1 && fluxperf report runs/r1/merged",
                "",
                "Inputs of different configs (config.toml) or whose windows do not overlap in time are",
                "refused (exit 2), naming the input; so is one run given twice (the same directory, the same",
                "shard of a sharded run, or a copy of one run's directory), which would count it twice."})
public final class MergeCommand implements Callable<Integer>, Streams.Aware {
    private Streams streams = Streams.system();

    @Parameters(paramLabel = "DIR", arity = "1..*",
            description = "The run directories to merge, or one sharded run's directory OUT/RUN_ID (its shard-I directories).")
    private List<Path> inputs;

    @Option(names = "--out", paramLabel = "DIR",
            description = "The merged run directory to write (of a sharded run: default OUT/RUN_ID/merged).")
    private Path out;

    // a sharded run (issue 31)
    @Option(names = "--partial", description = "Merge the shards of a sharded run that are there, naming the missing ones.")
    private boolean partial;

    @Mixin
    private RunDirectoryFlags runDirectory = new RunDirectoryFlags();

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        if (inputs.size() == 1 && ShardSet.isShardedRun(inputs.get(0))) {
            return mergeShards(inputs.get(0));
        }
        if (partial) {
            throw new UserError("--partial: merges a sharded run's directory (OUT/RUN_ID), not run directories");
        }
        if (out == null) {
            throw new UserError("--out: name the merged run directory to write");
        }
        inputs.forEach(in -> RunDirectoryArguments.refuseOtherKinds(in, "merge"));
        RunMerge merge = RunMerge.of(inputs);
        merge.write(out, runDirectory.overwrite, RunDirectories.commandLine(spec), java.util.Map.of(), commandMerge(merge));
        streams.out().println("Merged " + inputs.size() + " " + merge.command() + "s into " + out + " (fluxperf report " + out + ")");
        streams.out().flush();
        return 0;
    }

    /** What a merge of replays adds (their fidelity and report); null for runs. */
    private static RunMerge.CommandMerge commandMerge(RunMerge merge) {
        return "replay".equals(merge.command()) ? io.fluxperf.replay.ReplayMerge.of(merge.inputs()) : null;
    }

    /** {@code merge OUT/RUN_ID}: its shards, checked to be one whole run (or --partial), merged into one directory. */
    private int mergeShards(Path runDir) {
        ShardSet shards = ShardSet.find(runDir, partial);
        Path to = out != null ? out : runDir.resolve("merged");
        if (shards.shardDirectories().size() < 2) {
            throw new UserError("merge: " + runDir + " has only " + shards.shardDirectories().get(0).getFileName()
                    + " of " + shards.count() + " shards; there is nothing to merge it with");
        }
        RunMerge merge = RunMerge.of(shards.shardDirectories());
        merge.write(to, runDirectory.overwrite, RunDirectories.commandLine(spec),
                shards.resultSections(), commandMerge(merge));
        shards.describe().forEach(streams.out()::println);
        if (!shards.missing().isEmpty()) {
            streams.err().println("fluxperf: merge: partial: " + runDir + " is missing shard-"
                    + String.join(", shard-", shards.missing().stream().map(String::valueOf).toList())
                    + "; the merged figures are of " + shards.shardDirectories().size() + " of " + shards.count() + " shards");
        }
        streams.out().println("Merged " + shards.shardDirectories().size() + " shards into " + to + " (fluxperf report " + to + ")");
        streams.out().flush();
        return 0;
    }
}
