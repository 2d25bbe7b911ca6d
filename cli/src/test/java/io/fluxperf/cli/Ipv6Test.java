package io.fluxperf.cli;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import org.junit.jupiter.api.Test;
import static io.fluxperf.cli.CliRun.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TCP over IPv6: --server [::1]:PORT against a server bound to the IPv6 loopback. */
class Ipv6Test {
    @Test
    void runsAgainstTheIpv6Loopback() {
        try (TargetServer server = Protocols.startTarget("memcache", TargetOptions.builder().bindAddress("::1").build())) {
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
