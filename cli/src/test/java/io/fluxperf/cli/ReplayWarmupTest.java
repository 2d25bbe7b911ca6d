package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay in a process of its own warms its hot path up in-process (the log's first commands
 * against an embedded target) before its schedule starts: at 1x, a log of 300 commands/s is sent
 * on time from its first command, not from a cold JVM (which put its send lag p99 at 1-11 ms).
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class ReplayWarmupTest {
    @TempDir
    Path dir;

    @Test
    void aSlowLogIsSentOnTimeFromItsFirstCommand(RedisProcess redis) throws Exception {
        List<String> lines = new ArrayList<>();
        long micros = 1_700_000_000_000_000L;
        for (int i = 0; i < 1_500; i++) { // 5 s at 300 commands/s, 10 clients
            micros += 3_333;
            String command = i % 5 == 0 ? "\"SET\" \"key:" + i % 200 + "\" \"" + "v".repeat(32) + "\"" : "\"GET\" \"key:" + i % 200 + "\"";
            lines.add(micros / 1_000_000 + "." + String.format("%06d", micros % 1_000_000) + " [0 127.0.0.1:"
                    + (50_000 + i % 10) + "] " + command);
        }
        Path log = Files.write(dir.resolve("monitor.log"), lines);
        Path output = dir.resolve("replay.out");
        Process replay = CliRun.inChildJvm(output, "replay", "-s", redis.address(), "-l", log.toString(), "--no-live");
        assertTrue(replay.waitFor(60, TimeUnit.SECONDS), "the replay ended");
        String text = Files.readString(output);
        assertEquals(0, replay.exitValue(), text);
        String lag = text.lines().dropWhile(l -> !l.equals("Fidelity:")).filter(l -> l.startsWith("Send lag:"))
                .findFirst().orElseThrow(() -> new AssertionError("no send lag in the fidelity block:\n" + text));
        long p99 = CliRun.field(lag, "p99:");
        assertTrue(p99 < 1_000_000, "send lag p99 under 1 ms at 1x: " + lag);
        assertEquals(1_500L, redis.commandstats().get("get") + redis.commandstats().get("set"),
                "the warm-up sent the server nothing: " + redis.commandstats());
    }
}
