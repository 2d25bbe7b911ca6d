package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 46's bad inputs of rates (BadInputTest's sibling): a rate above one request a nanosecond,
 * or below one request per window, is one sentence naming the flag or the key, exit code 2; before,
 * {@code --rate 99999999999999999999} ran flat out and {@code --rate 0.01 -d 10} sent nothing in
 * most windows.
 */
class BadInputAdminTest {
    @TempDir
    static Path dir;

    static Stream<Arguments> badRates() throws IOException {
        Path tiny = dir.resolve("tiny.toml");
        Files.writeString(tiny, "[general]\nduration = 10\n\n[[workload]]\nmethod = \"get\"\nrate = 0.05\n");
        Path huge = dir.resolve("huge.toml");
        Files.writeString(huge, "[[workload]]\nmethod = \"get\"\nrate = 1e12\n");
        Path ramp = dir.resolve("ramp.toml");
        Files.writeString(ramp, "[[workload]]\nmethod = \"get\"\n\n[workload.ratelimit]\nstart = 1000\nend = 2e9\n"
                + "step = 1e8\ninterval = \"1s\"\n");
        return Stream.of(
                Arguments.of(new String[] {"run", "--rate", "99999999999999999999"}, "--rate", "1,000,000,000"),
                Arguments.of(new String[] {"run", "--rate", "1e12"}, "--rate", "one a nanosecond"),
                Arguments.of(new String[] {"run", "--rate", "1e400"}, "--rate", "1,000,000,000"),
                Arguments.of(new String[] {"run", "--rate", "0.01", "-d", "10"}, "--rate", "one request per 10s window"),
                Arguments.of(new String[] {"run", "--rate", "1e-9"}, "--rate", "give at least"),
                Arguments.of(new String[] {"run", "--rate", "\u0665\u0660\u0660\u0660"}, "--rate", "is not a number"),
                Arguments.of(new String[] {"run", "--ramp", "0.01:10:1:1s"}, "--ramp", "one request per 1s window"),
                Arguments.of(new String[] {"run", "--ramp", "1000:1e12:1e11:1s"}, "--ramp", "1,000,000,000"),
                Arguments.of(new String[] {"run", "--connect-rate", "1e12"}, "--connect-rate", "1,000,000,000"),
                Arguments.of(new String[] {"run", "--config", tiny.toString()}, "tiny.toml", "one request per 10s window"),
                Arguments.of(new String[] {"run", "--config", huge.toString()}, "huge.toml", "1,000,000,000"),
                Arguments.of(new String[] {"run", "--config", ramp.toString()}, "ramp.toml", "1,000,000,000"));
    }

    @ParameterizedTest
    @MethodSource("badRates")
    void oneSentenceNamingThePlaceAndExitTwo(String[] args, String place, String says) {
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), "exit code; stderr: " + run.err());
        String err = run.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("fluxperf: "), err);
        assertTrue(err.contains(place), "names " + place + ": " + err);
        assertTrue(err.contains(says), "says '" + says + "': " + err);
        String sentence = err.substring("fluxperf: ".length());
        assertFalse(sentence.contains(". "), "one sentence: " + err);
        assertFalse(err.contains("Exception") || err.contains("\tat ") || err.matches("(?s).*\\b[a-z]+\\.[a-z]+\\.[A-Z]\\w+.*"),
                "no Java class name: " + err);
    }
}
