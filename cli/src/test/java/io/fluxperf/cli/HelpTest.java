package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.Protocols;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every command's --help shows examples, and says what the command really does. */
class HelpTest {
    @ParameterizedTest
    @ValueSource(strings = {"run", "replay", "serve", "mcb", "trace", "heatmap", "sweep", "report", "compare", "merge", "k8s", "convert", "profile"})
    void everyCommandsHelpHasExamples(String command) {
        CliRun run = CliRun.of(command, "--help");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Examples:"), command + " --help:\n" + run.out());
    }

    /** picocli formats option texts with String.format: a bare '%' is a warning on stderr and an unformatted text. */
    @Test
    void noHelpTextIsAFormatError() throws Exception {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            picocli.CommandLine cli = new picocli.CommandLine(new Main());
            for (picocli.CommandLine sub : cli.getSubcommands().values()) {
                sub.getUsageMessage();
            }
        } finally {
            System.setErr(saved);
        }
        assertEquals("", err.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void replaysHelpShowsItsStatisticsBlocks() {
        String help = CliRun.of("replay", "--help").out();
        assertTrue(help.contains("--stats-interval=TIME"), help);
        assertTrue(help.contains("--stats-interval 1s"), "an example: " + help);
    }

    @Test
    void replaysHelpShowsScaleAndTheCacheTraceFormat() {
        String help = CliRun.of("replay", "--help").out();
        assertTrue(help.contains("--scale=N"), help);
        assertTrue(help.contains("twitter-cache-trace"), help);
        assertTrue(help.contains("--scale 4"), "an example: " + help);
    }

    @Test
    void serveNamesEveryProtocolItServes() {
        String help = CliRun.of("serve", "--help").out();
        assertFalse(help.contains("only one so far"), help);
        for (String protocol : Protocols.withTarget()) {
            assertTrue(help.contains(protocol), "serve --help names " + protocol + ":\n" + help);
        }
    }
}
