package io.fluxperf.engine.trust;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fluxperf.engine.pause.PauseCause;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run's trust through its JSON and back prints the same lines (what report DIR relies on). */
class TrustJsonTest {
    @Test
    void aRunsTrustReadsBackAsItWasWritten() {
        List<LatencyInterval> intervals = List.of(new LatencyInterval(50, 31_900, 31_700, 32_100, false, 10_000, 20_000),
                new LatencyInterval(90, 45_200, 44_800, 45_600, false, 2_000, 20_000),
                new LatencyInterval(99, 401_000, 380_000, 425_000, false, 200, 20_000),
                new LatencyInterval(99.9, 1_210_000, 1_100_000, 1_400_000, false, 20, 20_000),
                new LatencyInterval(99.99, 2_310_000, 1_900_000, 2_400_000, true, 2, 20_000));
        WindowTrust w = new WindowTrust(1, intervals, List.of(new NamedPause(1, 2_310_000_000L, 212_000_000L, PauseCause.STOPPED,
                1_796_526_000_123L), new NamedPause(1, 3_000_000_000L, 15_000_000L, PauseCause.RUN_QUEUE, 1_796_526_000_800L)),
                0.234, 3_200_000, List.of(ClientLimit.RUN_QUEUE, ClientLimit.SEND_LAG),
                List.of(new Finding(Finding.Kind.P99_DRIFT, 1, "p99 rose from 400 us to 650 us within the window")));
        RunTrust t = new RunTrust(new LatencyFloor(true, "version", 300, 21_300, 35_200, 18_000, null), List.of(w), intervals,
                List.of(StabilityTest.second(1, 0, 1350, 20_000, 180), StabilityTest.second(1, 1, 430, 20_000, 4)),
                List.of(new Finding(Finding.Kind.FIRST_SECONDS, 0, "the first second's p99 was 3.1x the rest's")),
                new TrustVerdict(EnumSet.of(TrustVerdict.Flag.UNSTABLE, TrustVerdict.Flag.CLIENT_PAUSED,
                        TrustVerdict.Flag.CLIENT_LIMITED)));
        RunTrust back = TrustJson.read(TrustJson.of(t));
        assertEquals(TrustLines.window(w), TrustLines.window(back.windows().get(0)));
        assertEquals(TrustLines.total(t), TrustLines.total(back));
        assertEquals("Trust: client-limited, client paused, unstable", back.verdict().line());
        assertEquals(t.floor(), back.floor());
        assertEquals(t.seconds().get(0).p99(), back.seconds().get(0).p99());
        assertEquals(List.of(
                "Intervals (95 %): p50: 31.9 us [31.7, 32.1] p90: 45.2 us [44.8, 45.6] p99: 401 us [380, 425]"
                        + " p999: 1.21 ms [1.10, 1.40] p9999: 2.31 ms (few samples: 2 beyond)",
                "Client pauses: 2, longest 212 ms at 2.31 s (GC 0, run queue 1, stopped 1)",
                "Client: a load thread waited for a CPU 23 % of the window (runnable, on the run queue: other threads or"
                        + " processes held the CPUs)",
                "Client: requests left late (send lag p99 3.20 ms) while every connection had room: the client, not the"
                        + " server, held them",
                "Unstable: p99 rose from 400 us to 650 us within the window"), TrustLines.window(back.windows().get(0)));
    }
}
