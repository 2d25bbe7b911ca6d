package io.fluxperf.cli;

import static io.fluxperf.cli.CliRun.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.target.TargetServers;
import org.junit.jupiter.api.Test;

/** TCP over IPv6: --server [::1]:PORT against a server bound to the IPv6 loopback. */
class Ipv6Test {
    @Test
    void runsAgainstTheIpv6Loopback() {
        try (TargetServer server = TargetServers.start("memcache", TargetOptions.builder().bindAddress("::1").build())) {
            int port = server.address().getPort();
            CliRun run = CliRun.of("run", "-s", "[::1]:" + port, "--method", "set", "-c", "2", "--requests", "500",
                    "-d", "10", "--no-live");
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.line("Config: Server:").contains("[::1]:" + port), run.out());
            assertEquals(500, field(run.line("Requests:"), "Ok:"));
            assertEquals(500, server.stats().command("set"));
        }
    }
}
