package io.fluxperf.engine.pause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How evidence of pauses is joined into pauses and their causes named. */
class PauseEventsTest {
    private static final long MS = 1_000_000;

    private static PauseEvents.Event stall(long fromMs, long toMs, long waitedMs) {
        return new PauseEvents.Event(fromMs * MS, toMs * MS, PauseEvents.Kind.STALL, waitedMs * MS);
    }

    @Test
    void aStallNoThreadWaitedThroughIsAStop() {
        List<ClientPause> p = PauseEvents.merge(new ArrayList<>(List.of(stall(1000, 1200, 1))), 10 * MS);
        assertEquals(List.of(new ClientPause(1000 * MS, 200 * MS, PauseCause.STOPPED)), p);
    }

    @Test
    void aCollectionInsideAStallNamesIt() {
        List<PauseEvents.Event> e = new ArrayList<>(List.of(stall(500, 540, 0),
                new PauseEvents.Event(501 * MS, 539 * MS, PauseEvents.Kind.GC, 38 * MS)));
        assertEquals(List.of(new ClientPause(500 * MS, 40 * MS, PauseCause.GC)), PauseEvents.merge(e, 10 * MS));
    }

    @Test
    void waitingForACpuIsTheRunQueue() {
        // the detector's own thread waited for most of its stall; and a load thread starved alone
        List<PauseEvents.Event> e = new ArrayList<>(List.of(stall(100, 130, 25),
                new PauseEvents.Event(300 * MS, 320 * MS, PauseEvents.Kind.RUN_QUEUE, 18 * MS)));
        assertEquals(List.of(new ClientPause(100 * MS, 30 * MS, PauseCause.RUN_QUEUE),
                new ClientPause(300 * MS, 20 * MS, PauseCause.RUN_QUEUE)), PauseEvents.merge(e, 10 * MS));
    }

    @Test
    void shortEvidenceIsNoPauseAndCloseEvidenceIsOne() {
        List<PauseEvents.Event> e = new ArrayList<>(List.of(new PauseEvents.Event(0, 3 * MS, PauseEvents.Kind.GC, 3 * MS),
                stall(50, 56, 0), stall(57, 63, 0)));
        List<ClientPause> p = PauseEvents.merge(e, 10 * MS);
        assertEquals(List.of(new ClientPause(50 * MS, 13 * MS, PauseCause.STOPPED)), p,
                "a 3 ms collection is no pause; two stalls 1 ms apart are one");
    }

    @Test
    void pausesAreNamedInTheStretchTheyBeganIn() {
        PauseEvents events = new PauseEvents();
        events.add(stall(100, 150, 0));
        events.add(stall(900, 950, 0));
        assertEquals(1, events.pauses(0, 500 * MS, 10 * MS).size());
        assertEquals(900 * MS, events.pauses(500 * MS, 1000 * MS, 10 * MS).get(0).startNanos());
        assertTrue(events.pauses(1000 * MS, 2000 * MS, 10 * MS).isEmpty());
    }
}
