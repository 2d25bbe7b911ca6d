package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Mistakes a user can make: one clear sentence that names the place, exit code 2, never a stack trace. */
class BadInputTest {
    @TempDir
    static Path dir;

    static Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    static Stream<Arguments> badInputs() throws IOException {
        Path malformed = file("malformed.toml", "[general]\nthreads = 1\n\n[[workload]\nmethod = \"get\"\n");
        Path workloads = file("workloads.toml", "[[workload]]\nmethod = \"get\"\nrate = 100\n");
        int closedPort = FreePorts.tcp();
        Path emptyDir = Files.createDirectories(dir.resolve("empty-trace"));
        Path notATrace = Files.createDirectories(dir.resolve("not-a-trace"));
        Files.writeString(notATrace.resolve("notes.txt"), "hello");
        Path badVersion = Files.createDirectories(dir.resolve("future-trace"));
        Files.writeString(badVersion.resolve("fluxperf-trace.json"), "{\"formatVersion\": 99}");
        return Stream.of(
                Arguments.of(new String[] {"run", "--method", "frob"}, "--method"),
                Arguments.of(new String[] {"run", "--config", malformed.toString()}, "malformed.toml:4"),
                Arguments.of(new String[] {"run", "--config", workloads.toString(), "--method", "set"}, "--method"),
                Arguments.of(new String[] {"run", "--config", dir.resolve("missing.toml").toString()}, "missing.toml"),
                Arguments.of(new String[] {"run", "-s", "127.0.0.1:" + closedPort, "-d", "1"}, "127.0.0.1:" + closedPort),
                Arguments.of(new String[] {"run", "--rate", "-5"}, "--rate"),
                Arguments.of(new String[] {"run", "--rate", "abc"}, "--rate"),
                Arguments.of(new String[] {"run", "--connections", "0"}, "--connections"),
                Arguments.of(new String[] {"run", "--threads", "two"}, "--threads"),
                Arguments.of(new String[] {"run", "--duration", "soon"}, "--duration"),
                Arguments.of(new String[] {"run", "-s", "no-port"}, "--server"),
                Arguments.of(new String[] {"run", "--protocol", "gopher"}, "--protocol"),
                Arguments.of(new String[] {"run", "--bogus"}, "--bogus"),
                Arguments.of(new String[] {"frobnicate"}, "frobnicate"),
                Arguments.of(new String[] {"run", "-s", "unix:/no/such/socket"}, "/no/such/socket"),
                Arguments.of(new String[] {"run", "--protocol", "redis", "--method", "gets"}, "gets"),
                Arguments.of(new String[] {"run", "--tls-ca", dir.resolve("nope.pem").toString(), "--tls"}, "nope.pem"),
                Arguments.of(new String[] {"run", "--trace-required"}, "--trace-required"),
                Arguments.of(new String[] {"trace", "stats", dir.resolve("nowhere").toString()}, "nowhere"),
                Arguments.of(new String[] {"trace", "stats", emptyDir.toString()}, "empty-trace"),
                Arguments.of(new String[] {"trace", "stats", notATrace.toString()}, "not-a-trace"),
                Arguments.of(new String[] {"trace", "dump", badVersion.toString()}, "future-trace"),
                Arguments.of(new String[] {"heatmap", notATrace.toString(), "--out", dir.resolve("h.png").toString()}, "not-a-trace"),
                Arguments.of(new String[] {"replay", "-l", dir.resolve("any.log").toString(), "--stats-interval", "soon"},
                        "--stats-interval"),
                Arguments.of(new String[] {"replay", "-l", dir.resolve("any.log").toString(), "--stats-interval", "-1s"},
                        "--stats-interval"),
                Arguments.of(new String[] {"replay", "-l", dir.resolve("any.log").toString(), "--read-ahead", "0"},
                        "--read-ahead"),
                Arguments.of(new String[] {"replay", "-l", dir.resolve("any.log").toString(), "--read-ahead", "20000000"},
                        "--read-ahead"),
                Arguments.of(new String[] {"mcb", "-c", "frob"}, "-c"),
                Arguments.of(new String[] {"serve", "--port", "70000"}, "--port"));
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void oneClearSentenceAndExitTwo(String[] args, String place) {
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), "exit code; stderr: " + run.err());
        String firstLine = run.err().lines().findFirst().orElse("");
        assertTrue(firstLine.startsWith("fluxperf: "), "starts with fluxperf: — " + run.err());
        assertTrue(firstLine.contains(place), "names the place '" + place + "': " + firstLine);
        assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
        assertFalse(run.err().contains("Exception"), "no exception names: " + run.err());
    }

    /** The thread limit is one setting's: run's flag and key, serve's and mcb's flags say it alike. */
    @org.junit.jupiter.api.Test
    void theThreadLimitHasOneMessage() throws IOException {
        Path threads = file("threads.toml", "[general]\nthreads = 2000\n");
        java.util.List<String[]> commands = java.util.List.of(
                new String[] {"run", "--threads", "2000"},
                new String[] {"run", "--config", threads.toString()},
                new String[] {"serve", "--threads", "2000"},
                new String[] {"mcb", "-c", "get", "-t", "2000"});
        java.util.List<String> places = java.util.List.of("--threads", threads + ": general.threads (line 2)",
                "--threads", "-t");
        for (int i = 0; i < commands.size(); i++) {
            CliRun run = CliRun.of(commands.get(i));
            assertEquals(2, run.exitCode(), "exit code; stderr: " + run.err());
            assertEquals("fluxperf: " + places.get(i) + ": must be at most 1024, not 2000",
                    run.err().lines().findFirst().orElse(""), String.join(" ", commands.get(i)));
        }
    }
}
