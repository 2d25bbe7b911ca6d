package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `fluxperf run` in a process of its own settles before the load even when it is not paced
 * (HostTuning.beforeLoad): the JVM's collection log shows the collection it asks for ahead of
 * the first window, and the rehearsed windows print nothing, so the report has the real ones only.
 */
class OwnProcessSettlingTest {
    @TempDir
    Path dir;

    @Test
    void aClosedLoopRunOfSeveralWindowsSettlesAndPrintsOnlyItsWindows() throws Exception {
        Path output = dir.resolve("run.out");
        Process run = CliRun.inChildJvm(output, List.of("-Xlog:gc"),
                "run", "-w", "3", "-d", "300ms", "-c", "2", "--no-live");
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the run ended");
        List<String> lines = Files.readAllLines(output);
        assertEquals(0, run.exitValue(), String.join("\n", lines));
        int collection = indexOf(lines, "Pause Full (System.gc())");
        int firstWindow = indexOf(lines, "Window: 1");
        assertTrue(collection >= 0 && collection < firstWindow,
                "the collection comes before the first window:\n" + String.join("\n", lines));
        List<String> windows = lines.stream().filter(l -> l.startsWith("Window: ")).toList();
        assertEquals(List.of("Window: 1", "Window: 2", "Window: 3"), windows);
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }
}
