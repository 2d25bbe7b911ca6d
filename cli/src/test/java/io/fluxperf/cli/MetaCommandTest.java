package io.fluxperf.cli;

import io.fluxperf.testkit.MemcachedProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static io.fluxperf.cli.CliRun.assertAllOk;
import static io.fluxperf.cli.CliRun.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --protocol memcache-meta} from the command line: against the embedded target (no
 * {@code --server}) and memcached over a Unix socket, counted by the servers' own statistics (TLS:
 * {@code TransportCommandTest}); an rpc-perf config; a raw meta stream replayed with the protocol its
 * first line names; and every mistake of its flags one sentence with exit 2.
 */
class MetaCommandTest {
    @TempDir
    Path dir;

    private static void assertOneSentence(CliRun run, String... mentions) {
        assertEquals(2, run.exitCode(), run.out() + run.err());
        String err = run.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("fluxperf: "), err);
        for (String m : mentions) {
            assertTrue(err.contains(m), "'" + m + "' in: " + err);
        }
    }

    @Test
    void theEmbeddedTargetAnswersWithoutAServer() {
        CliRun gets = CliRun.of("run", "--protocol", "memcache-meta", "--method", "get", "--hit", "--keyspace", "300",
                "--meta-flags", "qO", "--meta-get-flags", "v f t", "--requests", "3000", "-c", "4", "--pipeline", "8",
                "-d", "30", "--no-live");
        assertAllOk(gets, 3000);
        assertTrue(gets.line("Config: Server:").contains("Protocol: memcache-meta"), gets.line("Config: Server:"));
        // incr that creates its keys: the first of each key creates it, all Ok
        assertAllOk(CliRun.of("run", "--protocol", "memcache-meta", "--method", "incr", "--keyspace", "100",
                "--meta-flags", "N q", "--requests", "1000", "-c", "2", "--pipeline", "4", "-d", "30", "--no-live"), 1000);
    }

    @Test
    void aUnixSocketToMemcachedAgreesWithItsStats() {
        Path socket = dir.resolve("memcached.sock");
        try (MemcachedProcess memcached = MemcachedProcess.startUnix(socket)) {
            assertAllOk(CliRun.of("run", "--protocol", "memcache-meta", "-s", memcached.serverArgument(), "--method", "get",
                    "--hit", "--keyspace", "300", "--meta-flags", "qb", "--requests", "3000", "-c", "4", "--pipeline", "4",
                    "-d", "30", "--no-live"), 3000);
            CliRun deletes = CliRun.of("run", "--protocol", "memcache-meta", "-s", memcached.serverArgument(), "--method",
                    "delete", "--keyspace", "600", "--meta-flags", "qb", "--requests", "1000", "-c", "2", "--pipeline", "4",
                    "-d", "30", "--no-live");
            assertEquals(0, deletes.exitCode(), deletes.out() + deletes.err());
            String total = deletes.line("Requests:");
            Map<String, Long> stats = memcached.stats();
            assertEquals(300, stats.get("cmd_set"), "the preload");
            assertEquals(3000, stats.get("cmd_get"));
            assertEquals(3000, stats.get("get_hits"));
            assertEquals(field(total, "Ok:"), stats.get("delete_hits"), total);
            assertEquals(field(total, "Miss:"), stats.get("delete_misses"), total);
        }
    }

    /** An rpc-perf 5 config as it is (keyspaces and their commands), closed loop, with the meta protocol. */
    @Test
    void anRpcPerfConfigRunsWithTheMetaProtocol() throws IOException {
        Path config = Files.writeString(dir.resolve("rpc-perf.toml"), """
                [general]
                protocol = "memcache"
                interval = 10
                duration = 10

                [[workload.keyspace]]
                weight = 1
                klen = 12
                nkeys = 1000
                vlen = 64
                commands = [
                    { verb = "get", weight = 60 },
                    { verb = "set", weight = 30 },
                    { verb = "delete", weight = 10 },
                ]
                """);
        CliRun run = CliRun.of("run", "--config", config.toString(), "--protocol", "memcache-meta", "--meta-flags", "qO",
                "--requests", "4000", "--pipeline", "8", "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String total = run.line("Requests:");
        assertEquals(4000, field(total, "Requests:"), total);
        assertEquals(4000, field(total, "Ok:") + field(total, "Miss:"), total);
        for (String workload : new String[] {"get", "set", "delete"}) {
            assertTrue(run.out().matches("(?s).*Workload \\d \\(" + workload + "\\): Requests: [1-9].*"), run.out());
        }
    }

    @Test
    void aRawMetaStreamReplaysWithTheMetaProtocol() throws IOException {
        StringBuilder stream = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            stream.append("ms k").append(i).append(" 2 T0 q\r\nv").append(i % 10).append("\r\n");
            stream.append("mg k").append(i).append(" v t q O").append(i).append("\r\nmg nokey").append(i).append(" v q\r\nmn\r\n");
        }
        Path log = Files.writeString(dir.resolve("meta-stream.txt"), stream, StandardCharsets.ISO_8859_1);
        try (MemcachedProcess memcached = MemcachedProcess.start()) {
            CliRun replay = CliRun.of("replay", "-s", memcached.address(), "-l", log.toString(), "--no-live");
            assertEquals(0, replay.exitCode(), replay.out() + replay.err());
            assertTrue(replay.out().contains("Format: memcache-meta-ascii"), replay.out());
            assertTrue(replay.line("Config: Server:").contains("Protocol: memcache-meta"), replay.line("Config: Server:"));
            String total = replay.line("Requests:");
            assertEquals(150, field(total, "Requests:"), total);
            assertEquals(150, field(total, "Ok:") + field(total, "Miss:"), total);
            Map<String, Long> stats = memcached.stats();
            assertEquals(50, stats.get("cmd_set"));
            assertEquals(100, stats.get("cmd_get"));
            assertEquals(field(total, "Ok:") - 50, stats.get("get_hits"), "every set is Ok; the hits are the other Oks");
        }
    }

    @Test
    void mistakesAreOneSentenceAndExit2() throws IOException {
        Path config = Files.writeString(dir.resolve("meta.toml"), """
                [general]
                protocol = "memcache-meta"
                meta-flags = "qZ"
                """);
        assertOneSentence(CliRun.of("run", "--config", config.toString(), "-d", "1"),
                config + ": general.meta-flags (line 3)", "'Z'");
        assertOneSentence(CliRun.of("run", "--protocol", "memcache-meta", "--meta-get-flags", "v q", "-d", "1"),
                "--meta-get-flags", "'q'");
        assertOneSentence(CliRun.of("run", "--protocol", "memcache-meta", "--meta-flags", "qq", "-d", "1"),
                "--meta-flags", "twice");
        assertOneSentence(CliRun.of("run", "--meta-flags", "q", "-d", "1"), "--meta-flags", "memcache-meta");
        assertOneSentence(CliRun.of("run", "--protocol", "memcache-meta", "--udp", "-s", "127.0.0.1:11211", "-d", "1"),
                "--udp", "memcache-meta");
        assertOneSentence(CliRun.of("run", "--protocol", "memcache-meta", "--method", "hget", "-d", "1"), "hget");
    }
}
