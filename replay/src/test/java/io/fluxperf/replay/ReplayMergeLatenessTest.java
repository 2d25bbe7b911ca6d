package io.fluxperf.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.metrics.SendLateness;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a merge of replays reads each agent's keeping of its schedule back from its "replay" object
 * and combines them: counts add, the largest lag is the largest, stretches behind join where they
 * overlap on the log's timeline.
 */
class ReplayMergeLatenessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode replay(String json) throws Exception {
        return JSON.readTree(json);
    }

    @Test
    void agentsFiguresAreReadBackAndCombined() throws Exception {
        JsonNode a = replay("""
                {"lateSends": 30, "pacedSends": 300, "lateShare": 0.1,
                 "longestBehind": {"nanos": 50000000, "startLogSeconds": 0.1, "startReplaySeconds": 0.1},
                 "largestLag": {"nanos": 40000000, "atLogSeconds": 0.12, "atReplaySeconds": 0.12, "loadThreadCpuShare": 0.25}}
                """);
        JsonNode b = replay("""
                {"lateSends": 10, "pacedSends": 320, "lateShare": 0.03125,
                 "longestBehind": {"nanos": 60000000, "startLogSeconds": 0.13, "startReplaySeconds": 0.13},
                 "largestLag": {"nanos": 55000000, "atLogSeconds": 0.15, "atReplaySeconds": 0.15, "loadThreadCpuShare": null}}
                """);
        SendLateness la = ReplayMerge.lateness(a, 999);
        assertEquals(new SendLateness(300, 30, 50_000_000, 100_000_000, 100_000_000, 40_000_000, 120_000_000,
                120_000_000, 0.25), la);
        SendLateness merged = SendLateness.merge(List.of(la, ReplayMerge.lateness(b, 999)));
        assertEquals(620, merged.paced());
        assertEquals(40, merged.late());
        // [0.10 s, 0.15 s] and [0.13 s, 0.19 s] overlap: one stretch of 90 ms from 0.10 s
        assertEquals(90_000_000, merged.longestBehindNanos());
        assertEquals(100_000_000, merged.longestBehindStartNanos());
        assertEquals(55_000_000, merged.maxLagNanos(), "the largest lag of any agent");
        assertEquals(150_000_000, merged.maxLagAtNanos());
        assertEquals(-1, merged.maxLagCpuShare(), "that agent did not know its thread's CPU time");
    }

    @Test
    void aReplayWithoutScheduleAndAnOlderDirectoryWithoutPacedSends() throws Exception {
        assertEquals(SendLateness.NONE, ReplayMerge.lateness(replay("""
                {"lateSends": null, "pacedSends": null, "lateShare": null, "longestBehind": null, "largestLag": null}
                """), 500));
        // written before pacedSends: the share gives them back, or the requests when nothing was late
        assertEquals(400, ReplayMerge.lateness(replay("""
                {"lateSends": 8, "lateShare": 0.02, "longestBehind": null, "largestLag": null}
                """), 500).paced());
        assertEquals(500, ReplayMerge.lateness(replay("""
                {"lateSends": 0, "lateShare": 0.0, "longestBehind": null, "largestLag": null}
                """), 500).paced());
    }
}
