package io.fluxperf.cli;

import static io.fluxperf.cli.CliRun.assertAllOk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.FreePorts;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.netty.channel.uring.IoUring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --io-uring}: the flag in the help, runs over TCP, UDP and a Unix socket against
 * memcached checked by its own statistics, and the one sentence when io_uring cannot be used.
 */
@ExtendWith(RealServers.class)
class IoUringCommandTest {
    @TempDir
    Path dir;

    private static void assumeIoUring() {
        Assumptions.assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available: " + IoUring.unavailabilityCause());
    }

    @Test
    void helpNamesTheFlag() {
        CliRun help = CliRun.of("run", "--help");
        assertEquals(0, help.exitCode(), help.err());
        assertTrue(help.out().contains("--io-uring"), help.out());
    }

    @Test
    void tcpAgainstMemcachedAgreesWithItsStats(MemcachedProcess memcached) {
        assumeIoUring();
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--io-uring", "--method", "get", "--hit",
                "--keyspace", "500", "--requests", "4000", "-c", "4", "--pipeline", "4", "-d", "30", "--no-live");
        assertAllOk(run, 4000);
        Map<String, Long> stats = memcached.stats();
        assertEquals(500, stats.get("cmd_set"), "the preload");
        assertEquals(4000, stats.get("get_hits"));
    }

    @Test
    void udpAndUnixSocketAgainstMemcached() {
        assumeIoUring();
        int port = FreePorts.tcpAndUdp();
        try (MemcachedProcess memcached = MemcachedProcess.start(port, "-U", Integer.toString(port))) {
            assertAllOk(CliRun.of("run", "-s", "127.0.0.1:" + port, "--udp", "--io-uring", "--method", "get", "--hit",
                    "--keyspace", "200", "--requests", "2000", "-c", "4", "-d", "30", "--no-live"), 2000);
            assertEquals(2000, memcached.stats().get("get_hits"));
        }
        try (MemcachedProcess memcached = MemcachedProcess.startUnix(dir.resolve("memcached.sock"))) {
            assertAllOk(CliRun.of("run", "-s", memcached.serverArgument(), "--io-uring", "--method", "get", "--hit",
                    "--keyspace", "200", "--requests", "2000", "-c", "4", "-d", "30", "--no-live"), 2000);
            assertEquals(2000, memcached.stats().get("get_hits"));
        }
    }

    /** Netty's own switch turns its native transports off, as a kernel without io_uring would. */
    @Test
    void unavailableIoUringIsOneSentenceAndExit2() throws Exception {
        Path output = dir.resolve("run.out");
        Process run = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dio.netty.transport.noNative=true",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "-s", "127.0.0.1:1", "--io-uring", "-d", "1", "--no-live"))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the run ends");
        String text = Files.readString(output);
        assertEquals(2, run.exitValue(), text);
        List<String> errors = text.lines().filter(l -> l.startsWith("fluxperf: ")).toList();
        assertEquals(1, errors.size(), text);
        assertTrue(errors.get(0).startsWith("fluxperf: --io-uring: Netty's io_uring transport is not available here: "), text);
        assertTrue(errors.get(0).contains("noNative"), "the reason, as Netty gives it: " + text);
        assertFalse(text.contains("\tat "), "no stack trace: " + text);
    }
}
