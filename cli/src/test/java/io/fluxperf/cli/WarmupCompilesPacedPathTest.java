package io.fluxperf.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paced `fluxperf run` in a process of its own has its send path at C2 before its first measured
 * send, and keeps it: the in-process warm-up's main rounds last until C2 has compiled what they run
 * (HostTuning.endWhenCompiled), and the second of them compiles again what the first one's end
 * threw away. Seen in the JVM's -XX:+PrintCompilation lines, which go to the same output as the
 * report: before the "Connections:" line (the measured run has connected; its load is next),
 * SendScheduler.pump and Netty's ByteToMessageDecoder.channelRead are at tier 4; from there to the
 * first window's figures neither is compiled again or made not entrant. Before, the warm-up's 8,000
 * requests left both at C1's tiers, and C2 compiled them in the measured load. The run measures
 * 7 s (seven 1-s windows), so that its warm-up's rounds get their whole bounds
 * (HostTuning.compiledRounds); a shorter run's are shortened. What is checked ends at the first
 * window's figures, so the run is stopped there (SIGTERM, which prints the report and exits 143)
 * rather than measured for six more seconds.
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class WarmupCompilesPacedPathTest {
    /**
     * A PrintCompilation line: time, compile id, five flags (% for on-stack replacement), tier,
     * method; found anywhere in a line, since the JVM writes to the output between the report's
     * own writes.
     */
    private static final Pattern COMPILE = Pattern.compile("\\d+ +\\d+ ([ %sb!n]{5}) ([0-4]) +(\\S+::\\S+)(.*)$");
    private static final List<String> PACED_PATH = List.of("io.fluxperf.engine.load.SendScheduler::pump",
            "io.netty.handler.codec.ByteToMessageDecoder::channelRead");

    @TempDir
    Path dir;

    @Test
    void thePacedPathIsAtC2BeforeTheFirstMeasuredSendAndStaysThere(MemcachedProcess memcached) throws Exception {
        Path output = dir.resolve("run.out");
        Process run = CliRun.inChildJvm(output, List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintCompilation"),
                "run", "-s", memcached.address(), "--rate", "20000", "-c", "50", "-d", "1s", "--windows", "7", "--no-live");
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> !run.isAlive() || Files.readString(output).contains("\nWindow: "));
        } finally {
            run.destroy();
        }
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the run ended");
        String out = Files.readString(output);
        assertTrue(run.exitValue() == 0 || run.exitValue() == 143, "exit " + run.exitValue() + ":\n" + out);
        List<String> lines = out.lines().toList();
        int connected = indexOf(lines, "Failures:", 0); // "Connections: 50 Failures: 0"
        int figures = indexOf(lines, "Window:", connected);
        for (String method : PACED_PATH) {
            assertTrue(compiles(lines.subList(0, connected), method).stream().anyMatch(c -> c.tier() == 4),
                    method + " at tier 4 before the measured run's load: " + compiles(lines, method));
            assertEquals(List.of(), compiles(lines.subList(connected, figures), method),
                    method + " neither compiled nor thrown away in the measured load");
        }
    }

    /** One PrintCompilation line of a method: its tier, and the line from its time on. */
    private record Compile(int tier, String line) {
        @Override
        public String toString() {
            return line;
        }
    }

    private static int indexOf(List<String> lines, String prefix, int from) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).contains(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line '" + prefix + "' in:\n" + String.join("\n", lines));
    }

    /** The PrintCompilation lines of {@code method} (whole-method compiles and their ends, not on-stack replacements). */
    private static List<Compile> compiles(List<String> lines, String method) {
        List<Compile> found = new ArrayList<>();
        for (String line : lines) {
            Matcher m = COMPILE.matcher(line);
            if (m.find() && m.group(3).equals(method) && !m.group(1).contains("%")) {
                found.add(new Compile(Integer.parseInt(m.group(2)), m.group().strip()));
            }
        }
        return found;
    }
}
