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
    @ValueSource(strings = {"run", "replay", "serve", "mcb", "trace", "heatmap", "sweep"})
    void everyCommandsHelpHasExamples(String command) {
        CliRun run = CliRun.of(command, "--help");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().contains("Examples:"), command + " --help:\n" + run.out());
    }

    @Test
    void replaysHelpShowsItsStatisticsBlocks() {
        String help = CliRun.of("replay", "--help").out();
        assertTrue(help.contains("--stats-interval=TIME"), help);
        assertTrue(help.contains("--stats-interval 1s"), "an example: " + help);
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
