package io.fluxperf.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replay that cannot keep its schedule says so: one client's 40,000 commands of a second,
 * played eight times faster (320,000/s) on its one connection without pipelining, wait for a
 * round trip each (tens of µs on loopback), so the replay takes over a second where its schedule
 * takes an eighth. The fidelity block shows the long stretch behind, nearly every command sent
 * late, and the note of how far behind it fell and where; each statistics block the lag growing.
 * The bounds hold on any machine: the schedule is several times faster than a round trip allows.
 */
@ExtendWith(RealServers.class)
class FallingBehindTest {
    private static final int COMMANDS = 40_000;
    private static final double SPEED = 8;
    private static final Pattern NOTE = Pattern.compile(
            "Note: fell (\\d+) ms behind at (\\d+\\.\\d{3}) s into the log(, (\\d+\\.\\d{3}) s into the replay)?;"
                    + " its load thread was on CPU (\\d+) % of that time(: the client could not keep up .*|, so it also waited: .*)");

    @TempDir
    Path dir;

    @Test
    void aScheduleTooFastForItsConnectionIsReportedAsSuch(MemcachedProcess memcached) throws Exception {
        Path log = dir.resolve("fast.log");
        LogWriter.watch(log, COMMANDS, 1, new boolean[] {true}, 1);
        Path json = dir.resolve("fast.json");
        Replays.Run run = Replays.run(ReplayOptions.builder(log).server(memcached.address()).speed(SPEED).connections(1)
                .pipeline(1).statsInterval(Duration.ofMillis(250)).json(json).live(false).build());
        assertEquals(COMMANDS, run.result().run().total().total().outcomes().ok()
                + run.result().run().total().total().outcomes().miss(), run.out());
        double replaySeconds = run.result().replaySeconds();
        double scheduleSeconds = run.result().expectedSeconds();
        assertTrue(replaySeconds > 2 * scheduleSeconds, "the replay could not keep up: " + run.line("Duration:"));

        // the longest stretch behind: from (about) the start to (about) the end
        String behind = run.line("Behind: ");
        Matcher b = Pattern.compile("Behind: longest (\\d+\\.\\d) ms from (\\d+\\.\\d{3}) s into the log.*").matcher(behind);
        assertTrue(b.matches(), behind);
        double behindMs = Double.parseDouble(b.group(1));
        assertTrue(behindMs > 0.5 * (replaySeconds - scheduleSeconds) * 1000, behind + "; " + run.line("Duration:"));
        assertTrue(behindMs <= replaySeconds * 1000 + 1, behind);
        assertTrue(Double.parseDouble(b.group(2)) < 1.0, "it began within the log's second: " + behind);

        String late = run.line("Late sends: ");
        long lateCount = Long.parseLong(late.split(" ")[2]);
        assertTrue(lateCount > COMMANDS / 2, "most commands left late: " + late);
        assertTrue(late.startsWith("Late sends: " + lateCount + " of " + COMMANDS + " commands ("), late);

        Matcher note = NOTE.matcher(run.line("Note: fell"));
        assertTrue(note.matches(), run.line("Note: fell"));
        long fellMs = Long.parseLong(note.group(1));
        assertTrue(fellMs > 10 && fellMs >= behindMs / 4 && fellMs <= replaySeconds * 1000, note.group());
        double atLog = Double.parseDouble(note.group(2));
        double atReplay = note.group(4) != null ? Double.parseDouble(note.group(4)) : atLog; // said once when the same
        assertTrue(atLog <= 1.0, note.group());
        assertEquals(atLog / SPEED, atReplay, 0.002, "the log's time at 8x: " + note.group());
        int cpu = Integer.parseInt(note.group(5));
        assertTrue(cpu >= 0 && cpu <= 100, note.group());

        // the blocks: the lag grows block by block while the backlog lasts
        List<StatsBlocks.Block> blocks = StatsBlocks.of(run.out());
        assertTrue(blocks.size() >= 3, run.out());
        assertTrue(blocks.get(blocks.size() - 1).count("sendLagMax") > blocks.get(0).count("sendLagMax"),
                blocks.get(0) + "\n...\n" + blocks.get(blocks.size() - 1));

        JsonNode replay = new ObjectMapper().readTree(json.toFile()).get("replay");
        assertEquals(lateCount, replay.get("lateSends").asLong());
        assertEquals((double) lateCount / COMMANDS, replay.get("lateShare").asDouble(), 1e-9);
        JsonNode longest = replay.get("longestBehind");
        assertEquals(behindMs, longest.get("nanos").asLong() / 1e6, 0.051, longest.toString());
        assertEquals(Double.parseDouble(b.group(2)), longest.get("startLogSeconds").asDouble(), 0.0005, longest.toString());
        assertEquals(longest.get("startLogSeconds").asDouble() / SPEED, longest.get("startReplaySeconds").asDouble(), 0.002);
        JsonNode largest = replay.get("largestLag");
        assertEquals(fellMs, largest.get("nanos").asLong() / 1e6, 0.51, largest.toString());
        assertEquals(atLog, largest.get("atLogSeconds").asDouble(), 0.0005, largest.toString());
        assertEquals(atReplay, largest.get("atReplaySeconds").asDouble(), 0.0005, largest.toString());
        double share = largest.get("loadThreadCpuShare").asDouble();
        assertTrue(share >= 0 && share <= 1, largest.toString());
        assertEquals(cpu, 100 * share, 0.51, largest.toString());
        assertEquals(share >= 0.9, note.group(6).startsWith(": the client could not keep up"), note.group());
        assertTrue(replay.get("notes").toString().contains("fell " + fellMs + " ms behind"), replay.get("notes").toString());
    }
}
