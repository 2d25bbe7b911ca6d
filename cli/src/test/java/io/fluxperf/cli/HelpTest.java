package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.Protocols;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import picocli.CommandLine;
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

    private static final List<String> COMMANDS = List.of("run", "replay", "profile", "serve", "mcb", "trace", "heatmap", "sweep", "report",
            "compare", "merge", "k8s", "convert");

    /**
     * {@code --help} of {@code command} (empty: the top level) at {@code width} columns: picocli's
     * {@code picocli.usage.width}, the width it takes when it is told one (a user can set it too).
     * In a terminal the width is the terminal's ({@link #inATerminalTheHelpTakesItsWidth}).
     */
    private static String help(int width, String... command) {
        List<String> args = new ArrayList<>(List.of(command));
        args.add("--help");
        String saved = System.getProperty(WIDTH);
        System.setProperty(WIDTH, Integer.toString(width));
        try {
            CliRun run = CliRun.of(args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.err());
            return run.out();
        } finally {
            if (saved == null) {
                System.clearProperty(WIDTH);
            } else {
                System.setProperty(WIDTH, saved);
            }
        }
    }

    private static final String WIDTH = "picocli.usage.width";

    /** The examples (indented lines) of a command's footer, as picocli formats them. */
    private static List<String> examples(String... command) {
        CommandLine c = new CommandLine(new Main());
        for (String name : command) {
            c = c.getSubcommands().get(name);
        }
        return Arrays.stream(c.getCommandSpec().usageMessage().footer()).map(String::formatted)
                .filter(l -> l.startsWith("  ") && !l.isBlank()).map(String::stripTrailing).toList();
    }

    /**
     * Help is as wide as the terminal, and an example is never broken, at a narrow width or a wide one:
     * it stays one whole line that can be pasted (issue 46: {@code --slo 'get.} / {@code p99<1ms'}).
     */
    @ParameterizedTest
    @ValueSource(ints = {55, 200})
    void helpFillsTheWidthAndNeverBreaksAnExample(int width) {
        for (String command : COMMANDS) {
            String help = help(width, command);
            List<String> lines = help.lines().toList();
            List<String> examples = examples(command);
            assertFalse(examples.isEmpty(), command);
            for (String example : examples) {
                assertTrue(lines.contains(example), command + " --help at " + width + " columns breaks the example\n"
                        + example + "\n" + help);
            }
            for (String line : lines) {
                assertTrue(line.length() <= width || examples.contains(line),
                        command + " --help: a line longer than " + width + " columns that is no example:\n" + line);
            }
            if (width > 120 && !command.equals("trace")) { // trace's help has no line longer than 80 anyway
                assertTrue(lines.stream().anyMatch(l -> l.length() > 100 && !examples.contains(l)),
                        command + " --help uses a wide terminal's width:\n" + help);
            }
        }
        String replay = help(width, "replay");
        assertTrue(replay.contains("\n  fluxperf replay -s 127.0.0.1:11211 -l watch.log --window 10s --slo 'get.p99<1ms' --junit slo.xml"),
                replay);
        for (String example : examples()) {
            assertTrue(help(width).lines().anyMatch(example::equals), "fluxperf --help: " + example);
        }
    }

    /** The top-level list gives each command a whole one-line summary, not a description cut off mid-sentence (issue 46). */
    @ParameterizedTest
    @ValueSource(ints = {80, 200})
    void theCommandListHasAOneLineSummaryOfEachCommand(int width) {
        List<String> lines = help(width).lines().toList();
        List<String> list = lines.subList(lines.indexOf("Commands:") + 1, lines.size()).stream()
                .takeWhile(l -> !l.isBlank()).toList();
        CommandLine root = new CommandLine(new Main());
        for (String command : COMMANDS) {
            String[] header = root.getSubcommands().get(command).getCommandSpec().usageMessage().header();
            assertEquals(1, header.length, command + " has a one-line summary");
            String summary = header[0];
            assertTrue(summary.endsWith(".") && summary.length() <= 66, "one short sentence: " + summary);
            assertTrue(list.stream().anyMatch(l -> l.matches("  " + command + " +" + java.util.regex.Pattern.quote(summary))),
                    command + "'s summary whole on its line:\n" + String.join("\n", list));
        }
        assertEquals(COMMANDS.size() + 1, list.size(), "one line per command (and help), none wrapped:\n" + String.join("\n", list));
        List<String> trace = help(width, "trace").lines().dropWhile(l -> !l.equals("Commands:")).skip(1)
                .takeWhile(l -> !l.isBlank()).toList();
        assertEquals(2, trace.size(), "trace's own list: stats and dump, a line each:\n" + trace);
    }

    /**
     * In a real terminal (a pty of {@code script}), the help takes the terminal's width, read with
     * picocli's detection, and still keeps every example whole at a narrow one.
     */
    @Test
    void inATerminalTheHelpTakesItsWidth() throws Exception {
        Path script = Path.of("/usr/bin/script");
        Assumptions.assumeTrue(Files.isExecutable(script), "util-linux's script makes the pty");
        List<String> examples = examples("sweep");
        for (int columns : new int[] {60, 160}) {
            String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String command = "stty cols " + columns + " rows 40; exec " + javaBin + " -cp '" + System.getProperty("java.class.path")
                    + "' " + Main.class.getName() + " sweep --help";
            Process p = new ProcessBuilder(script.toString(), "-qec", command, "/dev/null")
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            List<String> lines = out.replace("\r", "").replaceAll("\u001B\\[[0-9;]*m", "").lines().toList();
            int widest = lines.stream().filter(l -> !examples.contains(l)).mapToInt(String::length).max().orElse(0);
            assertTrue(widest <= columns && widest > columns - 20, "the help fills the terminal's " + columns + " columns: "
                    + widest + "\n" + String.join("\n", lines));
            for (String example : examples) {
                assertTrue(lines.contains(example), "whole at " + columns + " columns: " + example + "\n" + out);
            }
        }
    }

    /** A mistyped subcommand: named, with the nearest one, in one sentence; not the parser's "unmatched argument at index 0". */
    @Test
    void aMistypedCommandIsNamedWithTheNearestOne() {
        for (String[] c : new String[][] {
                {"fluxperf: unknown command 'runn'; did you mean 'run'? (fluxperf --help lists them)", "runn"},
                {"fluxperf: unknown command 'trace frob' (fluxperf trace --help lists them)", "trace", "frob", "tr1"},
                {"fluxperf: unknown command 'trace stat'; did you mean 'trace stats'? (fluxperf trace --help lists them)",
                        "trace", "stat", "tr1"}}) {
            CliRun run = CliRun.of(java.util.Arrays.copyOfRange(c, 1, c.length));
            assertEquals(2, run.exitCode(), run.err());
            assertEquals(c[0], run.err().strip());
        }
        // an extra argument of a command without subcommands keeps its own message
        CliRun extra = CliRun.of("report", "a", "b");
        assertEquals(2, extra.exitCode(), extra.err());
        assertFalse(extra.err().contains("unknown command"), extra.err());
    }

    @Test
    void runsHelpSaysARateOfZeroIsNoPacingAsTheDocsAndTheConfigDo() {
        String help = String.join(" ", CliRun.of("run", "--help").out().lines().map(String::strip).toList());
        assertTrue(help.contains("at least one per window; 0 or absent: no pacing, as fast as possible (closed loop)."), help);
        assertTrue(io.fluxperf.engine.config.Settings.RATE.docRow().contains("0 or absent: no pacing"),
                "docs/run.md's row (SettingsDocsTest keeps the file to it)");
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
