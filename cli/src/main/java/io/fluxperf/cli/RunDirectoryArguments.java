package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.rundir.RunDirectory;
import io.fluxperf.engine.rundir.RunFiles;
import io.fluxperf.engine.sweep.SweepFiles;
import io.fluxperf.trace.TraceReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A run directory given to report, compare or merge. The other directories fluxperf writes (a
 * sweep's, a trace) are told apart from "no run directory" and pointed to the commands that read
 * them, since a user holding one most likely wanted those.
 */
final class RunDirectoryArguments {
    private RunDirectoryArguments() {
    }

    /** Opens {@code dir} for {@code command} ("report"); see {@link #refuseOtherKinds}. */
    static RunDirectory open(Path dir, String command) {
        refuseOtherKinds(dir, command);
        return RunDirectory.open(dir);
    }

    /**
     * Nothing when {@code dir} may be a run directory (RunDirectory.open says when it is not).
     *
     * @throws UserError when it is a sweep's directory or a trace, naming what to do with it
     */
    static void refuseOtherKinds(Path dir, String command) {
        if (!Files.isDirectory(dir) || Files.exists(dir.resolve(RunFiles.RESULT))) {
            return;
        }
        if (Files.exists(dir.resolve(SweepFiles.TABLE)) || Files.exists(dir.resolve(SweepFiles.JSON))) {
            List<Path> steps = steps(dir);
            String step = steps.isEmpty() ? dir.resolve("<step>").toString() : steps.get(0).toString();
            String example = command.equals("compare") && steps.size() > 1
                    ? "compare two steps: fluxperf compare " + step + " " + steps.get(1)
                    : command.equals("merge") ? "give run directories made together (a sweep's steps ran one after another)"
                    : command + " one step: fluxperf " + command + " " + step;
            throw new UserError(dir + " is a sweep directory, not a run directory: see its " + SweepFiles.TABLE
                    + ", or " + example);
        }
        if (TraceReader.isTrace(dir)) {
            throw new UserError(dir + " is a trace, not a run directory: use 'fluxperf trace stats " + dir
                    + "' or 'fluxperf heatmap " + dir + "'");
        }
    }

    /** The sweep's steps: its subdirectories that are run directories, by name. */
    private static List<Path> steps(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> Files.isRegularFile(p.resolve(RunFiles.RESULT))).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
