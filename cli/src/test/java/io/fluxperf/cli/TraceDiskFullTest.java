package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A full disk while tracing (a 600 KB tmpfs, which needs root to mount): the trace stops with a
 * clear line saying how many records were lost, the run finishes and reports every request, and
 * the trace reads back up to its last whole record. With --trace-required the run stops.
 */
@ExtendWith(RealServers.class)
class TraceDiskFullTest {
    private Path mount;

    @BeforeEach
    void mountSmallDisk() throws Exception {
        mount = Files.createTempDirectory("fluxperf-smallfs");
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        assumeTrue(p.waitFor() == 0, "mounting a small tmpfs needs root: " + new String(p.getInputStream().readAllBytes()));
    }

    @AfterEach
    void unmount() throws Exception {
        // lazily: the JVM may still map the trace's file until its buffers are collected
        new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor();
        try {
            Files.deleteIfExists(mount);
        } catch (java.io.IOException stillBusy) {
            // the empty mount point goes with the temporary directory
        }
    }

    @Test
    void aFullDiskStopsTheTraceNotTheRun(MemcachedProcess memcached) {
        Path trace = mount.resolve("trace");
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--rate", "5000", "-c", "4", "-d", "4",
                "--trace", trace.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String status = run.line("Trace:");
        assertTrue(status.contains("INCOMPLETE") && status.contains("LOST"), status);
        long requests = CliRun.field(run.out().lines().dropWhile(l -> !l.equals("Total:"))
                .filter(l -> l.startsWith("Requests:")).findFirst().orElseThrow(), "Requests:");
        assertTrue(requests > 15_000, "the run went on: " + requests);

        CliRun stats = CliRun.of("trace", "stats", trace.toString());
        assertEquals(0, stats.exitCode(), stats.err());
        assertTrue(stats.out().contains("truncated") || stats.err().contains("truncated"), stats.out() + stats.err());
        long read = CliRun.field(stats.line("Requests:"), "Requests:");
        assertTrue(read > 0 && read < requests, "whole records up to the failure: " + read);
        assertFalse((stats.out() + stats.err()).contains("\tat "), "no stack trace");
    }

    @Test
    void traceRequiredStopsTheRun(MemcachedProcess memcached) {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--rate", "5000", "-c", "4", "-d", "30",
                "--trace", mount.resolve("trace").toString(), "--trace-required", "--no-live");
        assertEquals(1, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("Stopped: the trace could not be written"), run.out());
        assertTrue(run.line("Trace:").contains("LOST"), run.out());
    }
}
