package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code run --busy-poll}: named in the help with an example, and a paced run against memcached
 * whose report shows the CPU the polling took but no saturated-client line (the loop polled idle
 * most of the time), with memcached's own count of gets.
 */
@ExtendWith(RealServers.class)
class BusyPollCommandTest {
    @Test
    void helpNamesTheFlagWithAnExample() {
        CliRun help = CliRun.of("run", "--help");
        assertEquals(0, help.exitCode(), help.err());
        assertTrue(help.out().contains("--busy-poll"), help.out());
        assertTrue(help.out().lines().anyMatch(l -> l.strip().startsWith("fluxperf run") && l.contains("--busy-poll")),
                "an example uses it: " + help.out());
    }

    @Tag("timing")
    @Test
    void aPacedRunReportsItsCpuButNoSaturatedClient(MemcachedProcess memcached) {
        CliRun run = CliRun.of("run", "-s", memcached.address(), "--busy-poll", "--method", "get", "--hit",
                "--keyspace", "300", "--rate", "2000", "-d", "2", "-c", "4", "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        long requests = CliRun.field(run.line("Requests:"), "Requests:");
        assertEquals(requests, CliRun.field(run.line("Requests:"), "Ok:"), run.out());
        assertTrue(Math.abs(requests - 4000) <= 80, "2 s at 2,000/s: " + requests);
        assertEquals(requests, memcached.stats().get("get_hits"));
        String cpu = run.line("CPU:");
        assertTrue(Double.parseDouble(cpu.split(" ")[3]) >= 0.5, "the polling loop keeps a CPU busy: " + cpu);
        // the saturation line only: a loaded machine may add "Client: a load thread waited for a CPU", which is true
        assertFalse(run.out().contains("Client: a load thread was on CPU"), "idle polls are not work: " + run.out());
        run.line("Send lag:");
    }
}
