package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * TLS asked of a server that speaks plain text (an rpc-perf file's empty {@code [tls]} table
 * turns TLS on, as rpc-perf does): one sentence that says so, not the bytes Netty quotes in hex.
 */
@ExtendWith(RealServers.class)
class TlsToPlainServerTest {
    @Test
    void saysTheServerDoesNotSpeakTls(MemcachedProcess memcached) {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--tls", "--tls-insecure", "-d", "1", "--no-live");
        assertEquals(2, run.exitCode(), run.err());
        String first = run.err().lines().filter(l -> l.startsWith("fluxperf: cannot connect")).findFirst().orElse(run.err());
        assertTrue(first.contains(memcached.address()) && first.contains("does not speak TLS"), first);
        assertFalse(first.matches(".*[0-9a-f]{16}.*"), "no hex dump: " + first);
        assertFalse(run.err().contains("Exception"), run.err());
    }
}
