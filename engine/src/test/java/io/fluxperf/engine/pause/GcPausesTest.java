package io.fluxperf.engine.pause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The collection pauses of the collector the launcher runs (Shenandoah), which the test JVM's G1
 * does not show: a JVM of its own with that collector, whose {@link GcPauses} must see them. Its
 * concurrent cycles stop the JVM for well under the whole millisecond the notifications count in,
 * so the pause that must be named is the one that can remain: a collection of the whole heap that
 * stops the JVM (here System.gc() made to do one, with a few MB to mark and move).
 */
class GcPausesTest {
    @Test
    void theLaunchersCollectorsPausesAreSeenAndItsConcurrentCyclesAreNot() throws Exception {
        assertTrue(GcPauses.stopsTheWorld("Shenandoah Pauses"));
        assertFalse(GcPauses.stopsTheWorld("Shenandoah Cycles"), "a concurrent cycle stops nothing");
        assertTrue(GcPauses.stopsTheWorld("ZGC Pauses"));
        assertFalse(GcPauses.stopsTheWorld("ZGC Cycles"));
        assertTrue(GcPauses.stopsTheWorld("G1 Young Generation"));

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-XX:+UseShenandoahGC", "-XX:ShenandoahGCHeuristics=compact", "-Xms16m",
                "-XX:-ExplicitGCInvokesConcurrent",
                "-cp", System.getProperty("java.class.path"), Probe.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.startsWith("GC pauses seen: "), out);
    }

    /** In the child JVM: one explicit collection of the whole heap, with 400,000 objects live. */
    static final class Probe {
        public static void main(String[] args) {
            Object[] live = new Object[400_000];
            for (int i = 0; i < live.length; i++) {
                live[i] = new long[] {i};
            }
            PauseEvents events = new PauseEvents();
            try (GcPauses gc = new GcPauses(events)) {
                System.gc();
                // the notifications come from the JVM's service thread shortly after each pause
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !events.pauses(Long.MIN_VALUE, Long.MAX_VALUE, 0)
                        .isEmpty());
            }
            ClientPause first = events.pauses(Long.MIN_VALUE, Long.MAX_VALUE, 0).get(0);
            if (first.cause() != PauseCause.GC) {
                throw new AssertionError("not a collection: " + first);
            }
            System.out.println("GC pauses seen: " + events.pauses(Long.MIN_VALUE, Long.MAX_VALUE, 0).size()
                    + " (" + live.length + " objects live)");
        }
    }
}
