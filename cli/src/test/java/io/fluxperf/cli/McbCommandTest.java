package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.cli.mcb.McbReport;
import io.fluxperf.cli.mcb.ThreadTimes;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.request.Command;
import io.fluxperf.testkit.FreePorts;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code fluxperf mcb} against real memcached processes: exactly threads × commands sent (memcached's
 * own {@code stats} agrees) over TCP, UDP and a Unix socket, a connection per command with -s,
 * keys bounded by -m, mcb's result block, and bad input.
 */
@ExtendWith(RealServers.class)
class McbCommandTest {
    private static final Pattern INTERVAL = Pattern.compile("(?m)^interval = (\\d+\\.\\d{6}) \\[sec]$");
    private static final Pattern PERFORMANCE = Pattern.compile("(?m)^performance = (\\d+\\.\\d{6}) \\[command/sec]$");
    private static final Pattern THREAD_INFO = Pattern.compile(
            "(?m)^ave\\. = (\\d+\\.\\d{6})\\[sec], min = (\\d+\\.\\d{6})\\[sec], max = (\\d+\\.\\d{6})\\[sec]$");

    @TempDir
    Path dir;

    @Test
    void tenThreadsOfAThousandSetsSendExactlyTenThousand(MemcachedProcess memcached) {
        long before = memcached.stats().get("cmd_set");
        CliRun run = mcb("-c", "set", "-a", "127.0.0.1", "-p", port(memcached), "-t", "10", "-n", "1000", "-l", "100");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(10_000, memcached.stats().get("cmd_set") - before, "sets memcached counted");
        assertTrue(run.out().startsWith(String.join(System.lineSeparator(),
                "condition =>",
                "connect to 127.0.0.1 TCP port " + memcached.port(),
                "command = set",
                "10 thread run",
                "send 1000 command a thread, total 10000 command",
                "data length = 100",
                "result =>")), run.out());
        double interval = number(INTERVAL, run.out(), 1);
        double performance = number(PERFORMANCE, run.out(), 1);
        // the interval is printed to the microsecond: the quotient of the printed figures agrees to 1e-5
        assertEquals(10_000 / interval, performance, performance * 1e-5, "performance = commands / interval");
        // every thread's own time: positive, ordered, none longer than the whole interval
        double ave = number(THREAD_INFO, run.out(), 1);
        double min = number(THREAD_INFO, run.out(), 2);
        double max = number(THREAD_INFO, run.out(), 3);
        assertTrue(0 < min && min <= ave && ave <= max && max <= interval + 1e-6, run.out());
        assertFalse(run.out().contains("error ="), run.out());
        assertEquals(1000, memcached.stats().get("curr_items"), "keys 000..999, all written by 10,000 random sets");
        assertEquals(100, memcached.get("999").length, "-l 100: the value length");
    }

    @Test
    void getsAfterTheSetsCountHitsAndMissesAsMemcachedDoes(MemcachedProcess memcached) {
        assertEquals(0, mcb("-c", "set", "-p", port(memcached), "-t", "4", "-n", "100", "-m", "400").exitCode());
        Map<String, Long> before = memcached.stats();
        CliRun run = mcb("-c", "get", "-p", port(memcached), "-t", "10", "-n", "1000", "-m", "400", "-l", "100");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        Map<String, Long> after = memcached.stats();
        assertEquals(10_000, after.get("cmd_get") - before.get("cmd_get"), "gets memcached counted");
        long misses = after.get("get_misses") - before.get("get_misses");
        assertTrue(misses > 0 && misses < 10_000, "400 sets leave some of 400 keys unwritten: " + misses);
        assertTrue(run.out().contains("command = get"), run.out());
        assertFalse(run.out().contains("data length"), "no data length for get: " + run.out());
        assertTrue(run.out().contains("miss = " + misses + " (get found no value; answered, not counted as errors)"),
                run.out());
        assertFalse(run.out().contains("error ="), "a miss is not an error: " + run.out());
    }

    @Test
    void addOfKeysThatExistIsNotStoredAndSaysSo(MemcachedProcess memcached) {
        assertEquals(0, mcb("-c", "set", "-p", port(memcached), "-n", "200", "-m", "10").exitCode());
        long before = memcached.stats().get("cmd_set");
        CliRun run = mcb("-c", "add", "-p", port(memcached), "-t", "2", "-n", "25", "-m", "10");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertEquals(50, memcached.stats().get("cmd_set") - before, "add is counted in cmd_set");
        assertTrue(run.out().contains("data length = 10"), "mcb's default -l: " + run.out());
        assertTrue(run.out().contains("miss = 50 (add found the key there already: NOT_STORED;"), run.out());
    }

    @Test
    void singleCommandModeMakesAConnectionPerCommand(MemcachedProcess memcached) {
        Map<String, Long> before = memcached.stats();
        CliRun run = mcb("-c", "set", "-p", port(memcached), "-t", "4", "-n", "250", "-s");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        Map<String, Long> after = memcached.stats();
        assertEquals(1000, after.get("cmd_set") - before.get("cmd_set"));
        // every command on its own connection (+1: the connection that read the stats)
        assertEquals(1000, after.get("total_connections") - before.get("total_connections") - 1);
        assertTrue(run.out().contains("single command: a new connection for every command"), run.out());
    }

    @Test
    void maxKeyBoundsTheKeys(MemcachedProcess memcached) {
        CliRun run = mcb("-c", "set", "-p", port(memcached), "-t", "4", "-n", "2000", "-m", "50");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        long items = memcached.stats().get("curr_items");
        assertTrue(items <= 50, "curr_items " + items + " <= -m 50");
        assertEquals(50, items, "8,000 random sets reach every key below 50");
        assertTrue(memcached.get("49") != null && memcached.get("50") == null, "keys 00..49");
    }

    @Test
    void verboseAddsFluxperfsReport(MemcachedProcess memcached) {
        CliRun run = mcb("-c", "set", "-p", port(memcached), "-t", "2", "-n", "5", "-v");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String out = run.out();
        assertTrue(out.indexOf("result =>") < out.indexOf("Total:"), out);
        assertEquals(10, CliRun.field(out.lines().filter(l -> l.startsWith("Requests:")).reduce((a, b) -> b)
                .orElseThrow(), "Ok:"), out);
        assertTrue(out.contains("Config: Threads: 2 Connections: 1"), out);
        // the bound is the command count, not the window's placeholder duration
        assertTrue(out.contains("Config: Requests: 5 per thread, 10 in all (no time limit) Seed: "), out);
        assertFalse(out.contains("Duration: "), out);
        // the report's Rate and mcb's performance divide by two spans: each is said
        String interval = out.lines().filter(l -> l.startsWith("interval = ")).findFirst().orElseThrow()
                .replace("interval = ", "").replace(" [sec]", "");
        String rates = out.lines().filter(l -> l.startsWith("Rates: ")).findFirst().orElseThrow();
        assertTrue(rates.startsWith("Rates: Rate counts the 10 requests over the measured window, ")
                && rates.contains("; performance counts them over interval, " + interval + " s (until the last thread's"
                + " last reply)"), rates);
    }

    @Test
    void udp() {
        // TCP on one port, UDP on another: a run that fell back to TCP would find nothing to connect to
        int udpPort = FreePorts.tcpAndUdp();
        try (MemcachedProcess memcached = MemcachedProcess.start(FreePorts.tcp(), "-U", Integer.toString(udpPort))) {
            long before = memcached.stats().get("cmd_set");
            CliRun run = mcb("-c", "set", "-p", Integer.toString(udpPort), "-T", "UDP", "-t", "10", "-n", "1000", "-l", "100");
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("connect to 127.0.0.1 UDP port " + udpPort), run.out());
            assertEquals(10_000, memcached.stats().get("cmd_set") - before, "sets memcached counted");
            assertFalse(run.out().contains("error ="), run.out());
        }
    }

    @Test
    void unixSocket() throws Exception {
        Path socket = dir.resolve("memcached.sock");
        try (MemcachedProcess memcached = MemcachedProcess.startUnix(socket)) {
            long before = memcached.stats().get("cmd_set");
            CliRun run = mcb("-c", "set", "-t", "10", "-n", "1000", "-l", "100", "-T", "UNIX_SOCKET", "-f", socket.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("connect to unix socket " + socket), run.out());
            assertEquals(10_000, memcached.stats().get("cmd_set") - before, "sets memcached counted");
        }
    }

    static Stream<Arguments> badInputs() {
        return Stream.of(
                Arguments.of(new String[] {"-c", "frob"}, "-c"),
                Arguments.of(new String[] {"-c", "set", "-t", "0"}, "-t"),
                Arguments.of(new String[] {"-c", "set", "-T", "SCTP"}, "-T"),
                Arguments.of(new String[] {"-c", "set", "-n", "0"}, "-n"),
                Arguments.of(new String[] {"-c", "set", "-m", "0"}, "-m"),
                Arguments.of(new String[] {"-c", "set", "-l", "-1"}, "-l"),
                Arguments.of(new String[] {"-c", "set", "-p", "70000"}, "-p"),
                Arguments.of(new String[] {"-c", "set", "-t", "two"}, "-t"),
                Arguments.of(new String[] {"-c", "set", "-T", "UNIX_SOCKET"}, "-f"),
                Arguments.of(new String[] {"-c", "set", "-T", "UNIX_SOCKET", "-f", "/nonexistent/memcached.sock"}, "-f"),
                Arguments.of(new String[] {"-c", "set", "-f", "/tmp/memcached.sock"}, "-f"),
                Arguments.of(new String[] {"-c", "set", "-T", "UDP", "-s"}, "-s"),
                Arguments.of(new String[] {"-c", "set", "-p", Integer.toString(FreePorts.tcp())}, "cannot connect"),
                Arguments.of(new String[] {"-t", "2"}, "-c"));
    }

    @Test
    void udpWhereNothingListensEndsAtOnceAsAFailedConnect() {
        int port = FreePorts.udp();
        long start = System.nanoTime();
        CliRun run = mcb("-c", "get", "-p", Integer.toString(port), "-T", "UDP", "-n", "1000", "--no-warmup");
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals("fluxperf: cannot connect to 127.0.0.1:" + port + ": Connection refused", run.err().strip());
        assertTrue(millis < 4000, "ends at the first refusal, not by its 5 s timeout (one per command): " + millis + " ms");
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void badInputIsOneSentenceAndExitTwo(String[] args, String place) {
        CliRun run = mcb(args);
        assertEquals(2, run.exitCode(), "exit code; stderr: " + run.err());
        String firstLine = run.err().lines().findFirst().orElse("");
        assertTrue(firstLine.startsWith("fluxperf: "), run.err());
        assertTrue(firstLine.contains(place), "names '" + place + "': " + firstLine);
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), "no stack trace: " + run.err());
    }

    /** mcb's own example (seeds/mcb.txt) comes out in its words and numbers. */
    @Test
    void resultBlockInMcbsWords() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        // mcb printed its interval rounded: 10000 commands / 23813.263946 per second is 0.41993403… s
        new McbReport(out).result(new McbReport.Result(10_000, 10_000 / 23813.263946, List.of(0.047713, 0.393719, 0.249456),
                10_000, 0, 0, 0, 0, false), Command.SET);
        assertEquals(String.join(System.lineSeparator(),
                "result =>",
                "interval = 0.419934 [sec]",
                "performance = 23813.263946 [command/sec]",
                "thread info:",
                "ave. = 0.230296[sec], min = 0.047713[sec], max = 0.393719[sec]", ""),
                bytes.toString(StandardCharsets.UTF_8));

        bytes.reset();
        new McbReport(out).result(new McbReport.Result(100, 0.5, List.of(), 90, 4, 1, 3, 2, false), Command.GET);
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("ave. = -, min = -, max = - (per-thread times are not recorded by this engine)"), text);
        assertTrue(text.contains("error = 6 (error reply 1, timeout 3, connection closed 2)"), text);
        assertTrue(text.contains("miss = 4 (get found no value; answered, not counted as errors)"), text);
    }

    /** The lead wires {@code mcb} into Main's subcommands; this fails until then. */
    @Test
    void isAFluxperfCommand() {
        assertTrue(new CommandLine(new Main()).getSubcommands().containsKey("mcb"),
                "register McbCommand in Main's @Command(subcommands = …)");
    }

    // ---- helpers ----

    private static String port(MemcachedProcess memcached) {
        return Integer.toString(memcached.port());
    }

    private static double number(Pattern pattern, String text, int group) {
        Matcher m = pattern.matcher(text);
        assertTrue(m.find(), "no line matching " + pattern + " in:\n" + text);
        return Double.parseDouble(m.group(group));
    }

    /**
     * {@code fluxperf mcb ARGS}: through Main once mcb is registered there; until then through a
     * command line with Main's rules (a UserError or a bad flag: "fluxperf: " + one sentence, exit 2).
     */
    static CliRun mcb(String... args) {
        if (new CommandLine(new Main()).getSubcommands().containsKey("mcb")) {
            String[] all = new String[args.length + 1];
            all[0] = "mcb";
            System.arraycopy(args, 0, all, 1, args.length);
            return CliRun.of(all);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            McbCommand command = new McbCommand(ThreadTimes.recorded());
            command.streams(new Streams(o, e));
            CommandLine cli = new CommandLine(command);
            cli.setOut(new PrintWriter(o, true));
            cli.setErr(new PrintWriter(e, true));
            cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
                if (ex instanceof UserError) {
                    commandLine.getErr().println("fluxperf: " + ex.getMessage());
                    return UserError.EXIT_CODE;
                }
                throw ex;
            });
            cli.setParameterExceptionHandler((ex, ignored) -> {
                ex.getCommandLine().getErr().println("fluxperf: " + ex.getMessage());
                return UserError.EXIT_CODE;
            });
            code = cli.execute(args);
        }
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
