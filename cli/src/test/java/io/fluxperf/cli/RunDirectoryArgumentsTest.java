package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report, compare and merge given a sweep's directory or a trace, the other directories fluxperf
 * writes: each told apart from "no run directory" and pointed to what reads it, exit 2. Only the
 * files that tell them apart are laid out: the refusal comes before any is read.
 */
class RunDirectoryArgumentsTest {
    @TempDir
    Path dir;

    private Path sweep;
    private Path trace;

    @BeforeEach
    void directories() throws IOException {
        sweep = Files.createDirectory(dir.resolve("sw1"));
        Files.writeString(sweep.resolve("sweep.txt"), "rate p99\n");
        for (String step : new String[] {"step-01-200", "step-02-400"}) {
            Files.writeString(Files.createDirectory(sweep.resolve(step)).resolve("result.json"), "{}");
        }
        trace = Files.createDirectory(dir.resolve("tr1"));
        Files.writeString(trace.resolve("fluxperf-trace.json"), "{}");
    }

    private static String error(String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals("", run.out());
        return run.err().strip();
    }

    @Test
    void aSweepDirectoryPointsToItsTableAndSteps() {
        String is = "fluxperf: " + sweep + " is a sweep directory, not a run directory: see its sweep.txt, or ";
        assertEquals(is + "report one step: fluxperf report " + sweep.resolve("step-01-200"), error("report", sweep.toString()));
        assertEquals(is + "compare two steps: fluxperf compare " + sweep.resolve("step-01-200") + " "
                + sweep.resolve("step-02-400"), error("compare", sweep.resolve("step-01-200").toString(), sweep.toString()));
        assertEquals(is + "give run directories made together (a sweep's steps ran one after another)",
                error("merge", sweep.toString(), sweep.resolve("step-01-200").toString(), "--out", dir.resolve("m").toString()));
    }

    @Test
    void aTracePointsToTheTraceCommands() {
        String expected = "fluxperf: " + trace + " is a trace, not a run directory: use 'fluxperf trace stats " + trace
                + "' or 'fluxperf heatmap " + trace + "'";
        assertEquals(expected, error("report", trace.toString()));
        assertEquals(expected, error("report", trace.toString(), "--html", dir.resolve("r.html").toString()));
        assertEquals(expected, error("compare", trace.toString(), trace.toString()));
    }
}
