package io.fluxperf.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Invariant 5: a trace cut short by kill -9 reads back up to its last whole record and says so. */
class TraceKilledWriterTest {

    @TempDir
    Path tmp;

    @Test
    void aWriterKilledMidRunLeavesEveryWholeRecordReadableAndTheTraceMarkedTruncated() throws Exception {
        Path dir = tmp.resolve("killed");
        Path stderr = tmp.resolve("child-stderr.txt");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (arg.startsWith("--add-opens") || arg.startsWith("--add-exports") || arg.startsWith("-Dchronicle")) {
                cmd.add(arg);
            }
        }
        cmd.add("-Xmx256m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(KilledWriterMain.class.getName());
        cmd.add(dir.toString());
        Process child = new ProcessBuilder(cmd).redirectError(stderr.toFile()).start();
        long reported = 0;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
            String line;
            while (reported < 200_000 && (line = out.readLine()) != null) {
                reported = Long.parseLong(line.substring("written ".length()));
                if (System.nanoTime() > deadline) {
                    break;
                }
            }
            if (reported == 0) {
                fail("the child writer wrote nothing; its stderr: " + Files.readString(stderr));
            }
            // one more report proves the writer went on appending after the one above: the kill
            // below then lands in the middle of its appends (it never pauses for the reader)
            line = out.readLine();
            assertNotNull(line, "the child writer stopped; its stderr: " + Files.readString(stderr));
            reported = Long.parseLong(line.substring("written ".length()));
            child.destroyForcibly(); // SIGKILL, while it is still appending
            assertTrue(child.waitFor(20, TimeUnit.SECONDS), "the child did not die");
        } finally {
            child.destroyForcibly();
        }
        assertEquals(137, child.exitValue(), "killed by SIGKILL");
        assertFalse(Files.exists(dir.resolve(TraceFiles.FOOTER_FILE)), "a killed writer writes no end marker");

        try (TraceReader reader = TraceReader.open(dir)) {
            long i = TestTraces.readBackInOrder(reader);
            assertTrue(i >= reported, "read " + i + " records, but the writer had reported " + reported);
            System.out.println("killed writer: reported " + reported + " records, read back " + i);
            assertFalse(reader.closedCleanly());
            String warning = reader.warning().orElse(null);
            assertNotNull(warning);
            assertTrue(warning.contains("truncated") && warning.contains("read " + i + " whole records"), warning);
        }
        try (TraceReader reader = TraceReader.open(dir)) {
            TraceStats stats = TraceStats.compute(reader, Latency.INTENDED, true);
            assertTrue(stats.reportLines().get(0).startsWith("WARNING: Trace " + dir + " is truncated"),
                    stats.reportLines().get(0));
        }
    }
}
