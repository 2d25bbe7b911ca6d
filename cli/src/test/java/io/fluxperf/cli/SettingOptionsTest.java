package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.Flags;
import io.fluxperf.engine.config.Setting;
import io.fluxperf.engine.config.Settings;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every setting a command takes ({@link Setting#commands()}) is an option of it, with the
 * setting's flags, value label and help line when the option is made from {@code Settings}; what
 * the command line gives reaches {@code ConfigResolver} under its setting, and is checked there
 * with the setting's one sentence.
 */
class SettingOptionsTest {
    private static CommandSpec spec(String command) {
        return new CommandLine(new Main()).getSubcommands().get(command).getCommandSpec();
    }

    @Test
    void everySettingOfACommandIsItsOption() {
        CommandSpec run = spec("run");
        CommandSpec replay = spec("replay");
        CommandSpec sweep = spec("sweep");
        int made = 0;
        for (Setting<?> s : Settings.all()) {
            boolean ofRun = s.commands() == Setting.Commands.RUN || s.commands() == Setting.Commands.RUN_AND_REPLAY;
            if (!ofRun) {
                continue;
            }
            for (String flag : s.flags()) {
                assertNotNull(run.findOption(flag), "run has " + flag);
                assertNotNull(sweep.findOption(flag), "sweep has " + flag);
                if (s.commands() == Setting.Commands.RUN_AND_REPLAY) {
                    assertNotNull(replay.findOption(flag), "replay has " + flag);
                }
            }
            OptionSpec o = run.findOption(s.flag());
            assertTrue(SettingOptions.made(o), s.flag() + " is made from its declaration, not declared by hand");
            made++;
            assertEquals(List.of(s.flags().toArray()), List.of(o.names()), s.name());
            // picocli hands the description back with its format escapes undone (%% is %)
            assertEquals(s.help().replace("%%", "%"), String.join(" ", o.description()), s.name());
            if (s.label() != null) {
                assertEquals(s.label(), o.paramLabel(), s.name());
            }
        }
        assertTrue(made >= 50, "every setting of run is made from Settings: " + made);
    }

    @Test
    void theGivenFlagsReachTheResolverUnderTheirSettings() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("-s", "10.0.0.1:11211", "-s", "10.0.0.2:11211:2", "-t", "3", "--busy-poll",
                "--tcp-nodelay=false", "--seed", "7", "--stats-interval", "500ms", "--method", "set",
                "--distribution", "zipf", "--distribution", "modula", "--rate", "1e4", "--slo-abort", "--header", "A: b");
        Flags flags = run.flags();
        assertEquals(List.of("10.0.0.1:11211", "10.0.0.2:11211:2"), flags.value(Settings.SERVER));
        assertEquals(3, flags.value(Settings.THREADS));
        assertEquals(true, flags.value(Settings.BUSY_POLL));
        assertEquals(false, flags.value(Settings.TCP_NODELAY));
        assertEquals(7L, flags.value(Settings.SEED));
        assertEquals(Duration.ofMillis(500), flags.value(Settings.STATS_INTERVAL));
        assertEquals("set", flags.value(Settings.METHOD));
        assertEquals(List.of("zipf", "modula"), flags.value(Settings.DISTRIBUTION)); // each side takes its own
        assertEquals(10_000.0, flags.value(Settings.RATE));
        assertEquals(true, flags.value(Settings.SLO_ABORT));
        assertEquals("--header", flags.protocolOptions().values().get(0).place());
        assertTrue(!flags.has(Settings.TLS) && !flags.has(Settings.CONNECTIONS), flags.toString());
    }

    @Test
    void aBadValueIsOneSentenceAndExitTwo() {
        CliRun tooMany = CliRun.of("run", "--threads", "2000", "-d", "1");
        assertEquals(2, tooMany.exitCode(), tooMany.err());
        assertEquals("fluxperf: --threads: must be at most 1024, not 2000", tooMany.err().strip());
        CliRun notANumber = CliRun.of("replay", "-l", "none.log", "--connections", "many");
        assertEquals(2, notANumber.exitCode(), notANumber.err());
        assertTrue(notANumber.err().startsWith("fluxperf: Invalid value for option '--connections'"), notANumber.err());
    }
}
