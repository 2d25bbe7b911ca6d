package io.fluxperf.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.UserError;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code replay --stats-interval}: a log with a one-second burst, an idle second and another
 * burst, replayed at 1x with a block a second, shows both second by second: the burst's commands
 * in the first block, next to none in the idle one, the position in the log moving on with the
 * bursts and standing still between them; the blocks add up to the replay, and the JSON result has
 * each interval's send lag and position. Bounds are generous (a block's edge may be late on a
 * busy machine): what is asserted is the shape.
 */
@ExtendWith(RealServers.class)
class StatsIntervalReplayTest {
    private static final int RATE = 1000;

    @TempDir
    Path dir;

    @Test
    void aBurstAndAnIdleSecondShowSecondBySecond(MemcachedProcess memcached) throws Exception {
        Path log = dir.resolve("bursts.log");
        long[] perSecond = LogWriter.watch(log, RATE, 3, new boolean[] {true, false}, 10);
        long commands = perSecond[0] + perSecond[1] + perSecond[2];
        long lastLine = Files.readAllLines(log).size();
        Path json = dir.resolve("r.json");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(memcached.address())
                .statsInterval(Duration.ofSeconds(1)).json(json).live(false).build());
        assertEquals(commands, run.result().replayed(), run.out());

        List<StatsBlocks.Block> blocks = StatsBlocks.of(run.out());
        assertTrue(blocks.size() >= 3 && blocks.size() <= 4, "a block at 1 s, at 2 s, and the end's (maybe one at 3 s): "
                + blocks.size() + "\n" + run.out());
        System.out.println("blocks (seconds, requests, responses, line): " + blocks.stream().map(bl -> "(" + bl.value("seconds")
                + ", " + bl.value("requests") + ", " + bl.value("responses") + ", " + bl.value("line") + ")").toList());
        StatsBlocks.Block burst = blocks.get(0);
        StatsBlocks.Block idle = blocks.get(1);
        assertEquals(1.0, burst.decimal("seconds"), 0.3, burst.toString());
        assertEquals(2.0, idle.decimal("seconds"), 0.3, idle.toString());
        assertTrue(burst.count("requests") >= RATE * 8 / 10, "the burst's commands in its second:\n" + burst);
        assertTrue(burst.count("responses") >= RATE * 8 / 10, burst.toString());
        assertTrue(idle.count("requests") <= RATE / 10, "next to nothing in the idle second:\n" + idle);
        assertTrue(idle.count("responses") <= RATE / 10, idle.toString());
        long sent = 0;
        long responses = 0;
        for (StatsBlocks.Block b : blocks) {
            sent += b.count("requests");
            responses += b.count("responses");
            assertTrue(b.line("sendLagP50 ").matches("sendLagP50 (n/a|[\\d,]+ ns) +sendLagP99 (n/a|[\\d,]+ ns) +sendLagMax (n/a|[\\d,]+ ns)"),
                    b.toString());
            assertTrue(b.line("line ").matches("line [\\d,]+ +percent \\d+\\.\\d %"), b.toString());
        }
        assertEquals(commands, sent, "the blocks add up to the replay");
        assertEquals(commands, responses, "the blocks add up to the replay");
        assertTrue(burst.line("sendLagP50 ").matches("sendLagP50 [\\d,]+ ns.*"), "a second of sends has a send lag: " + burst);
        // the place in the log: on with the burst, (nearly) still through the idle second, at the end last
        long first = burst.count("line");
        long second = idle.count("line");
        StatsBlocks.Block end = blocks.get(blocks.size() - 1);
        // the load thread takes up to SendScheduler.AHEAD (32) commands before their time, two lines at most each
        assertTrue(first > lastLine / 3 && first <= lastLine / 2 + 10 + 2 * 32, "after the first burst: line " + first + " of " + lastLine);
        assertTrue(second >= first && second <= first + 2 * (RATE / 10) + 10, "the idle second moves no further: " + first + ", " + second);
        assertEquals(lastLine, end.count("line"), end.toString());
        assertEquals(100.0, end.decimal("percent"), 0, end.toString());
        assertTrue(burst.decimal("percent") > 20 && burst.decimal("percent") < 80, burst.toString());

        JsonNode root = new ObjectMapper().readTree(json.toFile());
        JsonNode intervals = root.get("intervals");
        assertEquals(blocks.size(), intervals.size(), "one interval per block");
        for (int i = 0; i < blocks.size(); i++) {
            JsonNode interval = intervals.get(i);
            assertEquals(blocks.get(i).count("requests"), interval.get("sent").asLong());
            assertEquals(blocks.get(i).count("line"), interval.path("position").path("line").asLong(), interval.toString());
            assertEquals(1, interval.path("position").path("loop").asInt(), interval.toString());
            assertTrue(interval.path("position").path("percent").isNumber(), interval.toString());
            assertTrue(interval.get("sendLagMax").asLong() >= interval.get("sendLagP99").asLong(), interval.toString());
            assertTrue(interval.get("sendLagP99").asLong() >= interval.get("sendLagP50").asLong(), interval.toString());
        }
        assertTrue(intervals.get(0).get("sendLagMax").asLong() > 0, intervals.get(0).toString());
        assertEquals(100.0, intervals.get(blocks.size() - 1).path("position").path("percent").asDouble(), 0);
    }

    @Test
    void fidelityTellsTheStretchBehindAndTheShareSentLate(MemcachedProcess memcached) throws Exception {
        Path log = dir.resolve("steady.log");
        long commands = LogWriter.watch(log, 500, 2, new boolean[] {true}, 10)[0] * 2;
        Path json = dir.resolve("steady.json");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(memcached.address()).json(json).live(false).build());
        String behind = run.line("Behind: ");
        assertTrue(behind.equals("Behind: never more than 1 ms behind the schedule")
                        || behind.matches("Behind: longest \\d+\\.\\d ms from \\d+\\.\\d{3} s into the log \\(commands sent"
                        + " more than 1 ms late, back to back\\)"), behind);
        String late = run.line("Late sends: ");
        assertTrue(late.matches("Late sends: \\d+ of " + commands + " commands \\(\\d+\\.\\d\\d %\\) left more than 1 ms"
                + " after their scheduled time"), late);
        long lateCount = Long.parseLong(late.split(" ")[2]);
        assertTrue(lateCount <= commands, late);
        assertEquals(100.0 * lateCount / commands, Double.parseDouble(late.replaceAll(".*\\((\\S+) %\\).*", "$1")), 0.01, late);

        JsonNode replay = new ObjectMapper().readTree(json.toFile()).get("replay");
        assertEquals(1_000_000, replay.get("lateThresholdNanos").asLong());
        assertEquals(lateCount, replay.get("lateSends").asLong(), replay.toString());
        assertEquals((double) lateCount / commands, replay.get("lateShare").asDouble(), 1e-9);
        if (behind.startsWith("Behind: never")) {
            assertTrue(replay.get("longestBehind").isNull(), replay.toString());
        } else {
            JsonNode b = replay.get("longestBehind");
            assertTrue(b.get("nanos").asLong() > 1_000_000, b.toString());
            double start = b.get("startLogSeconds").asDouble();
            assertTrue(start >= 0 && start <= 2, b.toString());
            assertEquals(start, b.get("startReplaySeconds").asDouble(), 0.002, "at 1x the log's time is the replay's");
        }
        if (lateCount > 0) {
            assertTrue(replay.get("largestLag").get("nanos").asLong() > 1_000_000, replay.toString());
        }
    }

    @Test
    void aNegativeIntervalIsOneSentenceNamingTheFlag() {
        UserError e = assertThrows(UserError.class, () -> ReplayOptions.builder(dir.resolve("any.log"))
                .statsInterval(Duration.ofMillis(-500)).build());
        assertEquals("--stats-interval: must be at least 0, not -500ms", e.getMessage());
    }

    @Test
    void withoutTheFlagThereAreNoBlocks(MemcachedProcess memcached) {
        Path log = dir.resolve("short.log");
        LogWriter.watch(log, 200, 1, new boolean[] {true}, 2);
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(memcached.address()).speed(4).live(false).build());
        assertTrue(StatsBlocks.of(run.out()).isEmpty(), run.out());
        assertTrue(run.result().intervalPositions().isEmpty());
    }
}
