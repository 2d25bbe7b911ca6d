package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bad inputs of run, replay and serve that issue 46 found told badly, or not at all: each is
 * one sentence on stderr that names the flag and what to do, exit code 2, no stack trace and no
 * Java class name.
 */
@Timeout(120) // a start-at that waited, as before, would otherwise hang the suite
@ExtendWith(RealServers.class)
class BadInputRunTest {
    @TempDir
    static Path dir;

    static Stream<Arguments> badInputs() throws IOException {
        Path log = dir.resolve("any.log");
        Files.writeString(log, "get a\r\n");
        String far = "2099-01-01T00:00:00Z";
        String farSentence = "--start-at: " + far + " is \\d+ d \\d+ h ahead, more than a day; give --start-at-far to wait that long";
        String pastSentence = Pattern.quote("--start-at: 2020-01-01T00:00:00Z was ") + "\\d+\\.\\d years ago; give a time still to come";
        return Stream.of(
                Arguments.of(new String[] {"run", "--start-at", far, "-d", "1"}, farSentence),
                Arguments.of(new String[] {"run", "--start-at", far, "--shard", "0/2", "-d", "1"}, farSentence),
                Arguments.of(new String[] {"replay", "-l", log.toString(), "--start-at", far}, farSentence),
                // past: the run would send everything due since then in one burst, its wait counted as latency
                Arguments.of(new String[] {"run", "--start-at", "2020-01-01T00:00:00Z", "-d", "1", "--rate", "100"},
                        pastSentence),
                Arguments.of(new String[] {"run", "--start-at", "1577836800", "--shard", "0/2", "-d", "1"}, pastSentence),
                Arguments.of(new String[] {"replay", "-l", log.toString(), "--start-at", "2020-01-01T00:00:00Z"},
                        pastSentence),
                // each connection closes after one request: the header said "Pipeline: 4" of a run without one
                Arguments.of(new String[] {"run", "--connect-per-request", "--pipeline", "4", "-d", "1"}, Pattern.quote(
                        "--pipeline: a connection per request carries one request, so --pipeline goes without --connect-per-request")),
                Arguments.of(new String[] {"replay", "-l", log.toString(), "--connect-per-request", "--pipeline", "4"},
                        Pattern.quote("--pipeline: a connection per request carries one request, so --pipeline goes without"
                                + " --connect-per-request")),
                Arguments.of(new String[] {"run", "--method", "bogus"}, Pattern.quote("--method: unknown method 'bogus';"
                        + " memcache speaks get, gets, set, add, replace, append, prepend, cas, delete, incr, decr, touch")),
                Arguments.of(new String[] {"run", "--protocol", "http", "--method", "hget"},
                        Pattern.quote("--method: protocol http does not support hget; it speaks get, delete, post, put")),
                Arguments.of(new String[] {"run", "--config", "/dev/zero"},
                        Pattern.quote("--config: /dev/zero is a device or a socket, not a TOML file")),
                Arguments.of(new String[] {"run", "--config", dir.resolve("missing.toml").toString()},
                        Pattern.quote("--config: " + dir.resolve("missing.toml") + ": no such file")),
                Arguments.of(new String[] {"run", "--method", "get\u001b]0;owned\u0007"}, Pattern.quote(
                        "--method: unknown method 'get\\x1b]0;owned\\x07'; memcache speaks get, gets, set, add, replace,"
                                + " append, prepend, cas, delete, incr, decr, touch")));
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void oneSentenceAndExitTwo(String[] args, String sentence) {
        CliRun run = CliRun.of(args);
        assertOneSentence(run.exitCode(), run.err(), sentence);
    }

    /**
     * More connections than the open-file limit leaves (issue 46: {@code ulimit -n 512} with
     * {@code -c 1000} gave "Connections: 499 Failures: 501" and exit 0): refused before connecting.
     */
    @Test
    void moreConnectionsThanTheOpenFileLimitLeavesAreRefused(MemcachedProcess memcached) throws Exception {
        Path output = dir.resolve("ulimit.out");
        List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -n 512 && exec \"$@\"", "fluxperf"));
        command.addAll(javaCommand(memcached));
        Process limited = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(limited.waitFor(60, TimeUnit.SECONDS), "ends");
        String text = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(2, limited.exitValue(), text);
        String error = text.lines().filter(l -> l.startsWith("fluxperf: ")).findFirst().orElse("");
        assertTrue(Pattern.matches(Pattern.quote("fluxperf: --connections 1000 needs 1000 sockets, but this process may open"
                + " only 512 files (ulimit -n) and has ") + "\\d+" + Pattern.quote(" open: raise the limit (ulimit -n 2048)"
                + " or use fewer connections"), error), text);
        assertFalse(text.contains("Exception") || text.contains("\tat "), text);
        assertTrue(text.lines().noneMatch(l -> l.startsWith("Connections: ")), "refused before connecting: " + text);
    }

    /** fluxperf run -c 1000 in a child JVM, as CliRun.inChildJvm starts one. */
    private static List<String> javaCommand(MemcachedProcess memcached) {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "-s", memcached.address(), "-c", "1000", "-d", "1", "--no-live");
    }

    static void assertOneSentence(int exitCode, String err, String sentence) {
        assertEquals(2, exitCode, "exit code; stderr: " + err);
        List<String> lines = err.lines().toList();
        assertFalse(lines.isEmpty(), "a message");
        assertTrue(Pattern.matches("fluxperf: " + sentence, lines.get(0)), "the sentence '" + sentence + "':\n" + err);
        assertTrue(lines.size() == 1 || lines.size() == 2 && lines.get(1).startsWith("Run 'fluxperf "),
                "one sentence (and the --help hint): " + err);
        assertFalse(err.contains("\tat ") || err.contains("Exception") || err.contains("java."), "no stack trace, no class: " + err);
    }
}
