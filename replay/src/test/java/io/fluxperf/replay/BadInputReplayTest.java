package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.memcache.log.MemcacheLogFormats;
import io.fluxperf.engine.protocol.resp.log.RedisMonitorFormat;
import io.fluxperf.testkit.LogReaders;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input ends in one sentence that names the place (a {@link UserError}, which the command
 * line prints and exits 2 with), or, without --strict, is counted and the replay goes on.
 */
@ExtendWith(RealServers.class)
class BadInputReplayTest {
    @RealServer
    static MemcachedProcess server;

    @TempDir
    Path dir;

    private ReplayOptions.Builder options(Path log) {
        return ReplayOptions.builder(log).server(server.address()).speed(0).live(false);
    }

    private static final String WATCH = """
            OK
            ts=1700000000.1 gid=1 type=item_get key=a status=found clsid=1 cfd=13 size=3
            ts=1700000000.2 gid=2 type=item_store key=a status=stored
            ts=1700000000.3 gid=3 type=item_get key=b status=found clsid=1 cfd=13 size=3
            """;

    @Test
    void truncatedLineIsCountedOrWithStrictAnError() {
        Path log = LogReaders.write(dir, "watch.log", WATCH);
        Replays.Run run = Replays.run(options(log).build());
        assertEquals(1, run.result().badLines());
        assertEquals(2, run.result().replayed());
        assertTrue(run.out().contains("Bad line: " + log + ":3: truncated line (no cfd=)"), run.out());
        UserError e = assertThrows(UserError.class, () -> Replays.run(options(log).strict(true).build()));
        assertEquals(log + ":3: truncated line (no cfd=) (--strict stops at the first bad line)", e.getMessage());
    }

    @Test
    void unknownCommandIsCountedOrWithStrictAnError() {
        Path log = LogReaders.write(dir, "stream.txt", "get a\r\nfrobnicate a 1\r\nget b\r\n");
        Replays.Run run = Replays.run(options(log).build());
        assertEquals(1, run.result().badLines());
        assertEquals(2, run.result().replayed());
        assertTrue(run.out().contains("Bad line: " + log + ":2: unknown command 'frobnicate'"), run.out());
        UserError e = assertThrows(UserError.class, () -> Replays.run(options(log).strict(true).build()));
        assertEquals(log + ":2: unknown command 'frobnicate' (--strict stops at the first bad line)", e.getMessage());
    }

    @Test
    void aBadLineFarIntoTheLogStopsAStrictReplayAfterItsReport() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            b.append("get k").append(i).append("\r\n");
        }
        b.append("bogus\r\n");
        b.append("get last\r\n");
        Path log = LogReaders.write(dir, "long.txt", b.toString());
        int limit = ReplayPlan.scanLimit;
        ReplayPlan.scanLimit = 10; // the scan does not see the bad line: the reader meets it while replaying
        try {
            UserError e = assertThrows(UserError.class, () -> Replays.run(options(log).strict(true).build()));
            assertEquals(log + ":51: unknown command 'bogus' (--strict stops at the first bad line)", e.getMessage());
            Replays.Run counted = Replays.run(options(log).build());
            assertEquals(51, counted.result().replayed());
            assertTrue(counted.out().contains("Workload 1 (other): Requests: 0"), counted.out());
        } finally {
            ReplayPlan.scanLimit = limit;
        }
    }

    @Test
    void binaryFileIsNoLog() throws Exception {
        byte[] noise = new byte[4096];
        new Random(1).nextBytes(noise);
        noise[0] = 0;
        Path log = Files.write(dir.resolve("core.bin"), noise);
        UserError e = assertThrows(UserError.class, () -> Replays.run(options(log).build()));
        assertEquals(log + ": not a command log (binary content at byte 0)", e.getMessage());
        UserError named = assertThrows(UserError.class,
                () -> Replays.run(options(log).format(MemcacheLogFormats.WATCH).build()));
        assertEquals(log + ": not a memcache-watch log (binary content at byte 0)", named.getMessage());
    }

    @Test
    void emptyLogAndLogsWithoutCommands() {
        Path empty = LogReaders.write(dir, "empty.log", "");
        assertEquals(empty + ": empty log (no commands)",
                assertThrows(UserError.class, () -> Replays.run(options(empty).build())).getMessage());
        Path onlyOk = LogReaders.write(dir, "ok.log", "OK\n");
        assertEquals(onlyOk + ": empty log (no commands)", assertThrows(UserError.class,
                () -> Replays.run(options(onlyOk).format(RedisMonitorFormat.INSTANCE).build())).getMessage());
        Path allBad = LogReaders.write(dir, "bad.log", "ts=1.1 gid=1 type=item_get\nts=1.2 gid=2 type=item_get\n");
        assertEquals(allBad + ":1: truncated line (no key=) (no line of " + allBad + " is a memcache-watch command: 2 bad lines)",
                assertThrows(UserError.class, () -> Replays.run(options(allBad).build())).getMessage());
        Path missing = dir.resolve("missing.log");
        assertEquals("--log: " + missing + ": no such file or directory",
                assertThrows(UserError.class, () -> Replays.run(options(missing).build())).getMessage());
        Path watch = LogReaders.write(dir, "watch.log", WATCH);
        assertEquals("--only delete: the log has no such command (it has get)",
                assertThrows(UserError.class, () -> Replays.run(options(watch).only(java.util.List.of("delete")).build()))
                        .getMessage());
    }

    @Test
    void badFlagsNameTheFlag() {
        Path log = LogReaders.write(dir, "watch.log", WATCH);
        assertEquals("--speed: 'fast' is neither a number above 0 (1, 2.5) nor max",
                assertThrows(UserError.class, () -> ReplayOptions.parseSpeed("fast")).getMessage());
        assertEquals("--loop: must be at least 1, not 0",
                assertThrows(UserError.class, () -> options(log).loops(0).build()).getMessage());
        assertEquals("--server: '127.0.0.1' is not HOST:PORT", assertThrows(UserError.class,
                () -> Replays.run(ReplayOptions.builder(log).server("127.0.0.1").live(false).build())).getMessage());
        assertEquals("--times: only a raw memcache stream (--format memcache-ascii) takes a times file; " + log
                        + " is memcache-watch",
                assertThrows(UserError.class, () -> Replays.run(options(log).times(log).build())).getMessage());
    }

    @Test
    void aProtocolThatCannotSendTheLogsCommandsIsRefusedBeforeAnyIsSent() {
        Path log = LogReaders.write(dir, "stream.txt", "get a\r\nset a 0 0 1\r\nx\r\nget a\r\n");
        long before = server.stats().get("cmd_get");
        UserError e = assertThrows(UserError.class, () -> Replays.run(options(log).protocol("http").build()));
        assertEquals("--protocol: http cannot send this log's 'set' commands", e.getMessage());
        assertEquals(before, server.stats().get("cmd_get"), "nothing reached the server");
    }
}
