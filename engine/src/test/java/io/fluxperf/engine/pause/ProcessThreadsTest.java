package io.fluxperf.engine.pause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The pause detector reads the load and compiler threads during every measurement: those reads
 * must not allocate, or they bring the collections they are there to name (issue 53 found them
 * allocating about 1 MB a second).
 */
class ProcessThreadsTest {
    @Test
    void theThreadCountIsCountedFromTheLastParenthesisOfTheName() {
        byte[] line = ("4242 (a b) c)) S 1 4242 4242 0 -1 4194560 900 0 0 0 12 3 0 0 20 0 27 0 1234 "
                + "5000000 1000 18446744073709551615\n").getBytes(StandardCharsets.US_ASCII);
        assertEquals(27, ProcessThreads.ThreadCount.parse(line, line.length));
        byte[] cut = "4242 (java) S 1".getBytes(StandardCharsets.US_ASCII);
        assertEquals(-1, ProcessThreads.ThreadCount.parse(cut, cut.length));
    }

    @Test
    void readingTheWatchedThreadsAgainAllocatesNothing() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        try (LoadThreads load = new LoadThreads(); CompilerThreads compilers = new CompilerThreads()) {
            for (int i = 0; i < 2_000; i++) { // compiled, and the first look taken
                load.rescan();
                load.sample(System.nanoTime(), PauseDetector.THRESHOLD_NANOS);
                compilers.cpuNanos();
            }
            assertTrue(compilers.cpuNanos() > 0, "a JVM with a JIT has compiler threads that ran");
            int calls = 20_000;
            long before = mx.getThreadAllocatedBytes(self);
            for (int i = 0; i < calls; i++) {
                load.rescan();
                load.sample(System.nanoTime(), PauseDetector.THRESHOLD_NANOS);
                compilers.cpuNanos();
            }
            long bytes = mx.getThreadAllocatedBytes(self) - before;
            // a look through /proc costs kilobytes; a thread the JVM starts or ends meanwhile may
            // cause a few, so the bar is an average far below one look per call
            assertTrue(bytes < calls * 16L, bytes + " bytes over " + calls + " rescans, samples and compiler readings");
        }
    }

    @Test
    void aNewThreadIsSeenAtTheNextRefreshAndAnEndedOneLetGo() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        try (ProcessThreads watched = new ProcessThreads(name -> name.equals("fluxperf-ptt"))) {
            watched.refresh(System.nanoTime());
            assertEquals(0, watched.watched().size());
            java.util.concurrent.CountDownLatch named = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch end = new java.util.concurrent.CountDownLatch(1);
            Thread t = new Thread(() -> {
                named.countDown();
                try {
                    end.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "fluxperf-ptt");
            t.start();
            named.await(); // the thread runs, so the JVM has given the OS thread its name
            org.awaitility.Awaitility.await().until(() -> {
                watched.refresh(System.nanoTime());
                return watched.watched().size() == 1;
            });
            end.countDown();
            t.join();
            org.awaitility.Awaitility.await().until(() -> {
                watched.refresh(System.nanoTime());
                return watched.watched().isEmpty();
            });
        }
    }
}
