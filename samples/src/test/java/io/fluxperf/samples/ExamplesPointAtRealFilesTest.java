package io.fluxperf.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.cli.Main;
import io.fluxperf.cli.Streams;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The files the README's examples and the commands' help name are in the repository, and the
 * README's configs run as they are (issue 46: the README named an rpc-perf config it did not ship).
 */
class ExamplesPointAtRealFilesTest {
    private static final Pattern CONFIG = Pattern.compile("--config (\\S+)");
    private static final Pattern SAMPLE = Pattern.compile("samples/[A-Za-z0-9_./-]+\\.toml");

    private static Path repository() {
        return SamplesTest.samplesDir().getParent();
    }

    /** The README's example command lines (its code blocks' lines that run fluxperf). */
    private static List<String> readmeCommands() throws IOException {
        return Files.readAllLines(repository().resolve("README.md")).stream()
                .filter(l -> l.startsWith("./fluxperf ")).toList();
    }

    @Test
    void everyConfigTheReadmeNamesIsShippedAndRuns() throws IOException {
        List<String> configs = readmeCommands().stream().flatMap(l -> CONFIG.matcher(l).results().map(m -> m.group(1)))
                .distinct().toList();
        assertTrue(configs.size() >= 2, "the README runs configs: " + configs);
        assertTrue(configs.stream().anyMatch(c -> c.contains("rpc-perf")), "and one of rpc-perf's format: " + configs);
        for (String config : configs) {
            Path file = repository().resolve(config);
            assertTrue(Files.isRegularFile(file), "the README's --config " + config + " is in the repository");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            // as the README runs it, against the embedded server instead of one on 127.0.0.1:11211
            int code = Main.execute(new String[] {"run", "--config", file.toString(), "--duration", "1", "--windows", "1",
                    "--no-live"}, new Streams(new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8)));
            String text = out.toString(StandardCharsets.UTF_8);
            assertEquals(0, code, config + "\n" + text + err.toString(StandardCharsets.UTF_8));
            String total = text.lines().dropWhile(l -> !l.equals("Total:")).filter(l -> l.startsWith("Requests:"))
                    .findFirst().orElseThrow();
            assertFalse(total.startsWith("Requests: 0 "), config + ": " + total);
        }
    }

    @Test
    void everySampleTheHelpNamesIsShipped() {
        for (String command : List.of("", "run", "replay", "sweep", "convert", "k8s", "merge", "report", "compare")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
            String[] args = command.isEmpty() ? new String[] {"--help"} : new String[] {command, "--help"};
            assertEquals(0, Main.execute(args, new Streams(print, print)));
            Matcher m = SAMPLE.matcher(out.toString(StandardCharsets.UTF_8));
            while (m.find()) {
                assertTrue(Files.isRegularFile(repository().resolve(m.group())), "fluxperf " + command + " --help names "
                        + m.group());
            }
        }
    }
}
