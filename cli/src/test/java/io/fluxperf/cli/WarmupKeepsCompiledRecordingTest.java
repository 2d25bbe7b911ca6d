package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The request path the JIT compiles during the warm-up survives the first window's new
 * histograms (LoadRun's WARMUP_FORGET_NANOS): the JVM's compilation log of a run in its own
 * process shows no deoptimization at HdrHistogram's first-highest / first-lowest branches. Before,
 * every run had 2–4 there as the window began, and the compiler then took 8–10 % of the client's
 * CPU through the first seconds of the window to compile the path again.
 */
@Tag("timing")
class WarmupKeepsCompiledRecordingTest {
    @TempDir
    Path dir;

    private static final Pattern TRAP = Pattern.compile("<uncommon_trap thread='\\d+' ([^>]*)>(.*?)</uncommon_trap>", Pattern.DOTALL);

    @Test
    void theFirstWindowsHistogramsDoNotThrowAwayTheCompiledRecording() throws Exception {
        Path output = dir.resolve("run.out");
        Path jitLog = dir.resolve("jit.log");
        Process run = CliRun.inChildJvm(output,
                List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+LogCompilation", "-XX:LogFile=" + jitLog),
                "run", "--warmup", "3s", "-d", "1", "-c", "4", "--no-live");
        assertTrue(run.waitFor(90, TimeUnit.SECONDS), "the run ended");
        assertEquals(0, run.exitValue(), Files.readString(output));
        String log = Files.readString(jitLog);
        assertTrue(log.contains("AbstractHistogram recordSingleValue"),
                "the warm-up compiled the recording (else this test proves nothing)");
        Matcher m = TRAP.matcher(log);
        StringBuilder traps = new StringBuilder();
        while (m.find()) {
            if (m.group(2).contains("updateMinAndMax") || m.group(2).contains("updateMinNonZeroValue")) {
                traps.append(m.group(1)).append('\n');
            }
        }
        assertEquals("", traps.toString(), "deoptimizations at the histograms' first-value branches");
    }
}
