package io.fluxperf.engine.load;

import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key order of {@link ConnectionBacklogs} without a server: a request of a key waits until
 * every earlier request of that key on another connection has ended (not merely left), a run of
 * one connection's requests needs no wait among itself, runs take turns in the order admitted
 * (never waiting for each other in a circle), and a connection whose oldest request waited for its
 * key is listed again when the key is free. AffinityKeyOrderTest shows the same against redis.
 */
class ConnectionBacklogsTest {
    /** A request of {@code key} by original client {@code client} (-1: none, any connection). */
    private static Request on(String key, int client) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        return new Request().command(Command.RPUSH, 0).addKey(k, 0, k.length).affinity(client);
    }

    @Test
    void aKeyWaitsForEarlierRequestsOfOtherConnectionsUntilTheyEnd() {
        ConnectionBacklogs b = new ConnectionBacklogs(3, 1 << 20);
        Request a0 = on("list", 0);
        Request a1 = on("list", 0);
        Request c = on("list", 1);
        Request a2 = on("list", 0);
        Request other = on("other", 1);
        Request none = new Request().command(Command.PING, 0).affinity(2);

        long ta0 = b.admit(a0, 0);
        assertTrue(b.keyFree(ta0), "nothing before it");
        long ta1 = b.admit(a1, 0);
        assertTrue(b.keyFree(ta1), "the same connection keeps its own order: no wait");
        long tc = b.admit(c, 1);
        assertFalse(b.keyFree(tc), "a0 and a1 were sent on connection 0 and have not ended");
        long ta2 = b.admit(a2, 0);
        assertFalse(b.keyFree(ta2), "after c in the log: it waits for c, though its connection's a0 and a1 went first");
        assertTrue(b.keyFree(b.admit(other, 1)), "another key waits for nothing");
        assertEquals(ConnectionBacklogs.NO_TICKET, b.admit(none, 2));
        assertTrue(b.keyFree(ConnectionBacklogs.NO_TICKET));

        assertTrue(b.offer(1, c, tc));
        assertTrue(b.offer(0, a2, ta2));
        b.mayHaveRoom(1);
        b.mayHaveRoom(0);
        assertEquals(1, b.nextReady());
        assertFalse(b.headMayLeave(1), "c still waits for its key");
        assertEquals(0, b.nextReady());
        assertFalse(b.headMayLeave(0), "a2 waits for c");
        assertEquals(-1, b.nextReady());

        assertFalse(b.ended(a0), "a1 has not ended yet: nobody may go");
        assertFalse(b.ended(other), "another key's end frees nothing");
        assertEquals(-1, b.nextReady());
        assertTrue(b.ended(a1), "c's connection is listed again");
        assertEquals(1, b.nextReady());
        assertTrue(b.headMayLeave(1));
        assertSame(c, b.poll(1));
        assertEquals(-1, b.nextReady(), "a2 still waits: c has left, not ended");
        assertTrue(b.ended(c));
        assertEquals(0, b.nextReady());
        assertTrue(b.headMayLeave(0));
        assertSame(a2, b.poll(0));
        assertTrue(b.isEmpty());
        b.ended(a2);

        assertFalse(b.ended(on("list", 2)), "an end that was no ticket of this table (a phase before) frees nothing");
        assertTrue(b.keyFree(b.admit(on("list", 2), 2)), "every ticket of the key has ended");
    }

    @Test
    void requestsOfNoClientWaitForTicketsButTakeNone() {
        ConnectionBacklogs b = new ConnectionBacklogs(2, 1 << 20);
        Request x = on("k", -1);
        Request y = on("k", -1);
        assertTrue(b.keyFree(b.admit(x, -1)));
        assertTrue(b.keyFree(b.admit(y, -1)), "a log without clients keeps no key order, and waits for nothing");
        assertFalse(b.ended(x));
        Request a = on("k", 0);
        long ta = b.admit(a, 0);
        assertTrue(b.keyFree(ta), "nothing waits for a request of no client");
        long tz = b.admit(on("k", -1), -1);
        assertFalse(b.keyFree(tz), "but it waits for the client's request before it to end");
        b.ended(a);
        assertTrue(b.keyFree(tz));
    }

    @Test
    void theBudgetRefusesAndClearDropsEveryWaitingRequestInOrder() {
        Request first = on("a", 0);
        ConnectionBacklogs b = new ConnectionBacklogs(1, first.retainedBytes() * 20L);
        List<Request> offered = new ArrayList<>();
        Request r = first;
        while (b.offer(0, r, b.admit(r, 0))) {
            offered.add(r);
            r = on("a", 0);
        }
        assertEquals(20, offered.size(), "the ring grew past its first 8 and the budget stopped it at 20");
        assertEquals(20, b.peakCount());
        List<Request> dropped = new ArrayList<>();
        b.clear(dropped::add);
        assertEquals(offered, dropped);
        assertTrue(b.isEmpty());
    }
}
