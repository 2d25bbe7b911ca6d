package io.fluxperf.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The lock that keeps timing tests apart across the suite's JVMs. */
class TimingLockTest {
    @Test
    void aTestThatIsNotTimingDoesNotHoldIt() {
        assertFalse(TimingLock.held());
    }

    /**
     * Held here (this class's method is timing), another JVM cannot take it. (Whether another JVM
     * can take it when no timing test runs here is not asked: in the suite, the other JVM's timing
     * test may hold it at that moment.)
     */
    @Test
    @Tag("timing")
    void aTimingTestHoldsItAgainstOtherJvms() throws Exception {
        assertTrue(TimingLock.held(), "the auto-detected extension took it before this test");
        assertEquals("busy", probe());
        TimingLock.acquire(); // nested: still one lock, let go only by the last release
        TimingLock.release();
        assertTrue(TimingLock.held());
    }

    /** Whether a child JVM could take the lock now ("free") or not ("busy"). */
    private static String probe() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), Probe.class.getName()).redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe JVM ended");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    /** A JVM of its own that tries the lock once. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            try (FileChannel c = FileChannel.open(TimingLock.FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock l = c.tryLock()) {
                System.out.println(l == null ? "busy" : "free");
            }
        }
    }
}
