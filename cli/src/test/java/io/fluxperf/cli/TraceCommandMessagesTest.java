package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code trace stats} and {@code trace dump} say beside their output: a trace that is not
 * whole is a warning on standard error, as heatmap, dump and replay give it, in words that do not
 * pass a --limit for the trace's end; a --command it cannot choose by says so without claiming to
 * know what the trace holds.
 */
class TraceCommandMessagesTest {
    @TempDir
    static Path dir;

    private static Path whole;
    private static Path unclean;

    /** One short run's trace (get only), and a copy without its end marker, as a killed writer leaves it. */
    @BeforeAll
    static void aTrace() throws IOException {
        whole = dir.resolve("trace");
        CliRun r = CliRun.of("run", "--rate", "200", "-c", "1", "-d", "1", "--trace", whole.toString(), "--no-live");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        unclean = Files.createDirectory(dir.resolve("unclean"));
        try (Stream<Path> files = Files.list(whole)) {
            for (Path p : files.toList()) {
                if (!p.getFileName().toString().equals("fluxperf-trace-end.json")) {
                    Files.copy(p, unclean.resolve(p.getFileName()));
                }
            }
        }
    }

    @Test
    void statsWarnsOnStandardErrorAndPrintsOnlyTheReport() {
        CliRun stats = CliRun.of("trace", "stats", unclean.toString());
        assertEquals(0, stats.exitCode(), stats.err());
        assertTrue(stats.out().startsWith("Trace: "), stats.out());
        assertFalse(stats.out().contains("WARNING") || stats.out().contains("truncated"), stats.out());
        assertTrue(stats.err().strip().startsWith("fluxperf: warning: Trace " + unclean + " is truncated: it was not"
                + " closed cleanly"), stats.err());
        assertTrue(stats.err().contains("; read " + CliRun.field(stats.line("Requests:"), "Requests:") + " whole records."),
                stats.err());
    }

    @Test
    void aDumpStoppedByItsLimitIsNotTakenForTheEnd() {
        CliRun dump = CliRun.of("trace", "dump", unclean.toString(), "--limit", "2");
        assertEquals(0, dump.exitCode(), dump.err());
        assertEquals(3, dump.out().lines().count(), "a header and two records: " + dump.out());
        assertTrue(dump.err().contains("read its first 2 records only, stopping before its end"), dump.err());
        assertFalse(dump.err().contains("read 2 whole records"), dump.err());
    }

    /** The header names every command fluxperf records, so an unknown name is not "one this trace lacks". */
    @Test
    void anUnknownCommandIsNotSaidToBeInTheTrace() {
        CliRun dump = CliRun.of("trace", "dump", whole.toString(), "--format", "csv", "--command", "nosuch");
        assertEquals(2, dump.exitCode(), dump.err());
        String err = dump.err().strip();
        assertTrue(err.startsWith("fluxperf: --command: 'nosuch' is not a command fluxperf records; known: get, "), err);
        assertFalse(err.contains("this trace has") || err.contains("it has"), err);
        assertEquals(1, err.lines().count(), err);

        CliRun set = CliRun.of("trace", "dump", whole.toString(), "--format", "csv", "--command", "set");
        assertEquals(0, set.exitCode(), set.err());
        assertEquals(1, set.out().lines().count(), "a known command the trace does not hold: the header row only: " + set.out());
    }
}
