package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare's and report --html's help and their answers to inputs that are no run directories. */
class CompareCliTest {
    @TempDir
    Path tmp;

    @Test
    void compareAndReportHelpShowExamplesOfTheirViews() {
        CliRun compare = CliRun.of("compare", "--help");
        assertEquals(0, compare.exitCode(), compare.err());
        assertTrue(compare.out().contains("Examples:") && compare.out().contains("fluxperf compare runs/before runs/after"),
                compare.out());
        assertTrue(compare.out().contains("--html=FILE") && compare.out().contains("--json"), compare.out());
        CliRun report = CliRun.of("report", "--help");
        assertTrue(report.out().contains("--html=FILE") && report.out().contains("report runs/a --html a.html"), report.out());
    }

    @Test
    void aDirectoryThatIsNoRunDirectoryIsOneSentenceAndExit2() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("not-a-run"));
        for (String[] args : new String[][] {
                {"compare", empty.toString(), empty.toString()},
                {"compare", tmp.resolve("missing").toString(), empty.toString()},
                {"report", empty.toString(), "--html", tmp.resolve("r.html").toString()}}) {
            CliRun run = CliRun.of(args);
            assertEquals(2, run.exitCode(), run.out() + run.err());
            String err = run.err().trim();
            assertEquals(1, err.lines().count(), err);
            assertTrue(err.contains("not a run directory"), err);
            assertFalse(err.contains("Exception") || err.contains("io.fluxperf"), err);
        }
        assertFalse(Files.exists(tmp.resolve("r.html")), "no page for a directory that is no run");
        CliRun both = CliRun.of("report", empty.toString(), "--html", tmp.resolve("r.html").toString(), "--json");
        assertEquals(2, both.exitCode(), both.err());
        assertTrue(both.err().startsWith("fluxperf: --html:"), both.err());
        CliRun one = CliRun.of("compare", empty.toString());
        assertEquals(2, one.exitCode(), "one directory is not a comparison");
        assertTrue(one.err().startsWith("fluxperf: compare: give two run directories or more"), one.err());
        assertEquals(1, one.err().trim().lines().count(), one.err());
    }

    @Test
    void aFileThatIsNoResultIsNamed() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("cut"));
        Files.writeString(dir.resolve("result.json"), "{\"format\": 1, \"windows\": [");
        Files.writeString(dir.resolve("config.toml"), "[general]\n");
        CliRun run = CliRun.of("compare", dir.toString(), dir.toString());
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().contains(dir.resolve("result.json").toString()), run.err());
        assertEquals(1, run.err().trim().lines().count(), run.err());
    }
}
