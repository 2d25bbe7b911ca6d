package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.rundir.RunDirectoryWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;

/** What run and replay share of the run directory's flags: --out, --overwrite and a --trace without a directory. */
final class RunDirectories {
    private RunDirectories() {
    }

    /**
     * The trace directory: --trace's own, the run directory's trace/ for a --trace without one, or null.
     *
     * @throws UserError for a --trace without a directory and no --out
     */
    static Path trace(Path flag, Path out) {
        if (flag == null || !flag.toString().isEmpty()) {
            return flag;
        }
        if (out == null) {
            throw new UserError("--trace: give it a directory, or give --out DIR to write the trace into DIR/trace");
        }
        return out.resolve("trace");
    }

    /** Opens the run directory the config names (before the load starts), or returns null when it names none. */
    static RunDirectoryWriter open(RunConfig config, boolean fromFlag, boolean overwrite, String command, CommandSpec spec) {
        if (config.out() == null) {
            return null;
        }
        return RunDirectoryWriter.open(config.out(), overwrite, config, command, commandLine(spec),
                fromFlag ? "--out" : "general.out");
    }

    /** The exact command line, as the user typed it after the program's name. */
    static List<String> commandLine(CommandSpec spec) {
        List<String> line = new ArrayList<>();
        line.add("fluxperf");
        line.addAll(spec.root().commandLine().getParseResult().originalArgs());
        return line;
    }
}
