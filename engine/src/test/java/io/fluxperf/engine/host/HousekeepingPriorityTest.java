package io.fluxperf.engine.host;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The pieces of lowering a paced run's housekeeping threads, tried on threads of this JVM that end
 * with the test (lowering the test JVM's own compilers would slow the rest of the suite).
 */
class HousekeepingPriorityTest {
    private static final Path TASKS = Path.of("/proc/self/task");

    @Test
    void theRunsThreadDropsOnlyWhereNoCleanupSafepointWaitsForIt() {
        assertEquals(List.of(11, 12, 40), HousekeepingPriority.toLower(List.of(11, 12), OptionalInt.of(40), true));
        assertEquals(List.of(11, 12), HousekeepingPriority.toLower(List.of(11, 12), OptionalInt.of(40), false));
        assertEquals(List.of(11), HousekeepingPriority.toLower(List.of(11), OptionalInt.empty(), true));
    }

    @Test
    void toldWhetherThisJvmMakesCleanupSafepoints() {
        // the surefire JVM runs with HotSpot's default, once a second, unless its command line says otherwise
        boolean off = ManagementFactory.getRuntimeMXBean().getInputArguments()
                .contains("-XX:" + HousekeepingPriority.CLEANUP_SAFEPOINT_OPTION + "=0");
        assertEquals(off, HousekeepingPriority.cleanupSafepointsOff());
    }

    @Test
    void findsThisJvmsCompilerThreadsByTheirKernelNames() {
        assumeTrue(Files.isDirectory(TASKS), "Linux /proc");
        List<Integer> compilers = HousekeepingPriority.compilerThreads();
        assertFalse(compilers.isEmpty(), "a JVM with a JIT has compiler threads");
        for (int tid : compilers) {
            String name = LinuxThreads.threadName(TASKS.resolve(Integer.toString(tid)));
            assertTrue(name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler") || name.startsWith("Sweeper"), name);
        }
    }

    @Test
    void lowersAThreadToNice19AndOnlyThatThread() throws Exception {
        assumeTrue(Files.isDirectory(TASKS), "Linux /proc");
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread victim = new Thread(() -> {
            tid.complete(LinuxThreads.currentTid().orElse(-1));
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "housekeeping-test");
        victim.start();
        try {
            int id = tid.get();
            assertTrue(id > 0, "the thread knows its kernel id");
            Path task = TASKS.resolve(Integer.toString(id));
            assertEquals(OptionalInt.of(0), LinuxThreads.niceOf(task), "threads start at nice 0");
            assumeTrue(HousekeepingPriority.lower(List.of(id)), "renice is installed");
            assertEquals(OptionalInt.of(HousekeepingPriority.NICE), LinuxThreads.niceOf(task));
            int self = LinuxThreads.currentTid().orElseThrow();
            assertEquals(OptionalInt.of(0), LinuxThreads.niceOf(TASKS.resolve(Integer.toString(self))),
                    "the calling thread keeps its priority");
        } finally {
            done.countDown();
            victim.join();
        }
    }

    @Test
    void readsTheNiceValueOfAThreadWhoseNameHasSpacesAndParentheses() throws Exception {
        Path task = Files.createTempDirectory("task");
        try {
            // comm "C2 CompilerThre" and a made-up ") (" name: nice is the 19th field either way
            String fields = " S 1 2 3 0 -1 4194368 10 0 0 0 150 20 0 0 39 19 20 0 77 0 0";
            Files.writeString(task.resolve("stat"), "4242 (C2 CompilerThre)" + fields + "\n");
            assertEquals(OptionalInt.of(19), LinuxThreads.niceOf(task));
            Files.writeString(task.resolve("stat"), "4243 (a) (b)" + fields.replace(" 19 20 ", " -5 20 ") + "\n");
            assertEquals(OptionalInt.of(-5), LinuxThreads.niceOf(task));
            Files.writeString(task.resolve("stat"), "garbage\n");
            assertEquals(OptionalInt.empty(), LinuxThreads.niceOf(task));
        } finally {
            Files.deleteIfExists(task.resolve("stat"));
            Files.delete(task);
        }
    }

    @Test
    void lowersNothingWhenThereIsNothingToLower() {
        assertFalse(HousekeepingPriority.lower(List.of()));
    }
}
