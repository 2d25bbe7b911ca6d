package io.fluxperf.cli;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

    /** serve --bind ::1 prints its address as --server takes it (issue 46): [::1]:PORT, not 0:0:0:0:0:0:0:1:PORT. */
    @Test
    void serveOnTheIpv6LoopbackPrintsAnAddressThatRunTakes(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("serve.out");
        Process serve = CliRun.inChildJvm(output, "serve", "--bind", "::1", "--port", "0", "--stats-interval", "0");
        try {
            String prefix = "fluxperf serve: memcache on ";
            InterruptTest.awaitLine(output, prefix, 20_000);
            String line = Files.readAllLines(output).stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
            String address = line.substring(prefix.length()).split(",")[0];
            assertTrue(address.matches("\\[::1]:\\d+"), line);
            CliRun run = CliRun.of("run", "-s", address, "--method", "set", "--requests", "100", "-d", "10", "--no-live");
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertEquals(100, field(run.line("Requests:"), "Ok:"));
        } finally {
            serve.destroy();
            serve.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
