package io.fluxperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.FreePorts;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/lib/pace_reference.c, the plain C paced client compare.sh runs beside fluxperf at a fixed
 * rate, built with cc and run against a real memcached: its windows, its count of replies, its
 * waits for a connection with room, parsers.sh's reading of it, and its errors.
 */
@ExtendWith(RealServers.class)
class PaceReferenceTest {
    private static final Pattern WINDOW = Pattern.compile("window (\\d+): (\\d+) requests/s; send lag p50 (\\d+) p99 (\\d+) "
            + "p99\\.9 (\\d+) max (\\d+) us; latency from the intended send p50 (\\d+) p99 (\\d+) p99\\.9 (\\d+) us; "
            + "waited for a connection with room ([0-9.]+) ms \\(([0-9.]+) of it once already behind\\); "
            + "([0-9.]+) us CPU per request \\(([0-9.]+) cores\\); misses (\\d+)");

    @TempDir
    static Path dir;

    private static Path binary;

    @BeforeAll
    static void build() throws Exception {
        binary = dir.resolve("pace_reference");
        Result cc = exec(List.of("cc", "-O2", "-Wall", "-Werror", "-o", binary.toString(),
                RepoFiles.find("bench/lib/pace_reference.c").toString()), 60);
        assertEquals(0, cc.code, "cc (scripts/install-deps.sh installs gcc): " + cc.out + cc.err);
    }

    private record Result(int code, String out, String err) {
    }

    private static Result exec(List<String> command, int seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).start();
        // the outputs are a few lines: read them after the end
        assertTrue(p.waitFor(seconds, TimeUnit.SECONDS), "ends within " + seconds + " s: " + command);
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static Result reference(MemcachedProcess server, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "127.0.0.1", Integer.toString(server.port())));
        command.addAll(Arrays.asList(args));
        Result r = exec(command, 60);
        assertEquals(0, r.code, r.err);
        return r;
    }

    private static List<Matcher> windows(String out) {
        List<Matcher> windows = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("window ")) {
                Matcher m = WINDOW.matcher(line);
                assertTrue(m.matches(), "a window line: " + line);
                windows.add(m);
            }
        }
        return windows;
    }

    private static Map<String, String> total(String out) {
        Map<String, String> figures = new HashMap<>();
        String last = out.strip().substring(out.strip().lastIndexOf('\n') + 1);
        assertTrue(last.startsWith("total: "), "the last line is the total: " + out);
        for (String kv : last.substring("total: ".length()).split(" ")) {
            String[] parts = kv.split("=", 2);
            figures.put(parts[0], parts[1]);
        }
        return figures;
    }

    /** Keeps 8 connections at 2,000/s: every window gets its 2,000 replies a second, from stored keys. */
    @Test
    void holdsAModestRateWithEveryReplyAHit(MemcachedProcess server) throws Exception {
        Result r = reference(server, "2000", "8", "1", "1000", "1", "1", "2", "sleep");
        List<Matcher> windows = windows(r.out);
        assertEquals(2, windows.size(), r.out);
        for (Matcher w : windows) {
            assertEquals(2000, Integer.parseInt(w.group(2)), "replies per second of intended sends: " + w.group());
            assertEquals("0", w.group(14), "misses");
            assertTrue(Double.parseDouble(w.group(12)) > 0, "CPU per request: " + w.group());
        }
        Map<String, String> total = total(r.out);
        assertEquals("4000", total.get("requests"));
        assertEquals("0", total.get("misses"));
        Map<String, Long> stats = server.stats();
        assertEquals(1000, stats.get("cmd_set"), "every key stored once");
        // 1 s of warm-up and 2 windows of gets, all of them hits
        assertTrue(stats.get("get_hits") >= 6000 && stats.get("get_misses") == 0, "hits " + stats.get("get_hits")
                + ", misses " + stats.get("get_misses"));

        Path out = dir.resolve("modest.out");
        Files.writeString(out, r.out);
        Result parsed = exec(List.of("bash", "-c", "source \"$0\" && parse_reference \"$1\"",
                RepoFiles.find("bench/lib/parsers.sh").toString(), out.toString()), 30);
        String[] lines = parsed.out.strip().split("\n");
        assertEquals(2, lines.length, parsed.out + parsed.err);
        assertTrue(lines[0].startsWith("4000 2000.00 "), "requests rps p50 p99 p999 cpu: " + lines[0]);
        assertEquals(6, lines[0].split(" ").length, lines[0]);
        assertTrue(lines[1].startsWith("lag_p99=" + total.get("lag_p99") + " lag_max=" + total.get("lag_max")
                + " room_ms=" + total.get("room_ms") + " "), lines[1]);
        assertTrue(lines[1].contains(" misses=0 win_cores="), lines[1]);
    }

    /**
     * One connection asked for 1,000,000/s can only send as replies come back: its requests wait
     * for room most of the window and fall far behind their schedule.
     */
    @Tag("timing")
    @Test
    void oneConnectionAskedForTooMuchWaitsForRoom(MemcachedProcess server) throws Exception {
        Result r = reference(server, "1000000", "1", "1", "100", "0", "1", "1", "busy");
        Matcher w = windows(r.out).get(0);
        assertTrue(Integer.parseInt(w.group(2)) < 500_000, "replies per second: " + w.group());
        assertTrue(Double.parseDouble(w.group(10)) > 500, "ms waited for room: " + w.group());
        assertTrue(Double.parseDouble(w.group(11)) > 0, "some of it with the backlog: " + w.group());
        assertTrue(Integer.parseInt(w.group(4)) > 1000, "send lag p99 in µs: " + w.group());
    }

    @Test
    void aBadArgumentOrAnUnreachableServerEndsInOneLineAndExitCode2() throws Exception {
        Result bad = exec(List.of(binary.toString(), "127.0.0.1", "1", "0", "8", "1", "10", "0", "1", "1"), 10);
        assertEquals(2, bad.code);
        assertEquals("pace_reference: RATE must be a whole number from 1 to 10000000, not '0'", bad.err.strip());

        int closed = FreePorts.tcp();
        Result unreachable = exec(List.of(binary.toString(), "127.0.0.1", Integer.toString(closed), "100", "1", "1", "10",
                "0", "1", "1"), 10);
        assertEquals(2, unreachable.code);
        assertTrue(unreachable.err.strip().matches("pace_reference: cannot connect to 127\\.0\\.0\\.1:" + closed + ": .+"),
                unreachable.err);
        assertEquals(1, unreachable.err.strip().lines().count(), unreachable.err);
    }
}
