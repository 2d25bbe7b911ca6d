package io.fluxperf.cli;

import static io.fluxperf.cli.CliRun.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Inputs that issue 46 found met by silence or a wrong word, now working as a user expects. */
@Timeout(120)
class RunInputsTest {
    @TempDir
    Path dir;

    /** A named pipe as --config (the shell's {@code <(...)} is one) is read as a file, not "no such file". */
    @Test
    void aConfigFromANamedPipeIsRead() throws Exception {
        Path fifo = dir.resolve("config.fifo");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo");
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                Files.writeString(fifo, "[general]\nthreads = 1\nconnections = 2\n\n[[workload]]\nmethod = \"set\"\n",
                        StandardCharsets.UTF_8); // blocks until the run opens the pipe
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        CliRun run = CliRun.of("run", "--config", fifo.toString(), "--requests", "100", "-d", "10", "--no-live");
        writer.get(10, TimeUnit.SECONDS);
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(100, field(run.line("Requests:"), "Ok:"));
        assertTrue(run.line("Workload 0:").contains("Method: set"), run.out());
    }

    /** A start ahead is said with its time and its distance, so that the wait is not silent. */
    @Test
    void aStartAheadIsAnnounced() {
        Instant at = Instant.now().plus(3, ChronoUnit.SECONDS).truncatedTo(ChronoUnit.SECONDS);
        CliRun run = CliRun.of("run", "--method", "set", "--rate", "200", "-d", "1", "--start-at", at.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String line = run.err().lines().filter(l -> l.startsWith("fluxperf: --start-at:")).findFirst().orElse(run.err());
        assertTrue(Pattern.matches(Pattern.quote("fluxperf: --start-at: the schedule starts at " + at + ", ") + "[1-4] s"
                + Pattern.quote(" from now (after connecting and preloading; Ctrl-C ends the wait)"), line), line);
    }

    /** --start-at-far lets a start more than a day ahead through (the check is its only job). */
    @Test
    void aFarStartNeedsItsFlag() {
        ShardFlags flags = new ShardFlags();
        flags.startAt = "2099-01-01T00:00:00Z";
        flags.startAtFar = true;
        assertEquals(Instant.parse("2099-01-01T00:00:00Z"), flags.startTime());
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        flags.announceStart(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).matches(
                "fluxperf: --start-at: the schedule starts at 2099-01-01T00:00:00Z, \\d+ d \\d+ h from now .*\\n"), err.toString());
    }
}
