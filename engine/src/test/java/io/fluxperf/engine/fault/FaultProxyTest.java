package io.fluxperf.engine.fault;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.Fault;
import io.fluxperf.testkit.FaultCounters;
import io.fluxperf.testkit.FaultProxy;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The test equipment itself: each fault of {@link FaultProxy}, seen from a plain socket, in front of memcached. */
@ExtendWith(RealServers.class)
class FaultProxyTest {
    private static final String VALUE = "0123456789abcdefghijklmnopqrstuvwxyz".repeat(4);
    private static final String REPLY = "VALUE k 0 " + VALUE.length() + "\r\n" + VALUE + "\r\nEND\r\n";
    @RealServer
    private static MemcachedProcess memcached;
    private FaultProxy proxy;

    @BeforeAll
    static void storeTheValues() {
        memcached.command("set k 0 0 " + VALUE.length() + "\r\n" + VALUE);
        memcached.command("set j 0 0 3\r\njjj");
    }

    @BeforeEach
    void startProxy() {
        proxy = FaultProxy.start("127.0.0.1", memcached.port());
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", proxy.port());
        s.setSoTimeout(3000);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Reads exactly n bytes, or fewer when the stream ends. */
    private static String read(Socket s, int n) throws IOException {
        byte[] b = s.getInputStream().readNBytes(n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static long timeGet(Socket s) throws IOException {
        long t = System.nanoTime();
        send(s, "get k\r\n");
        assertEquals(REPLY, read(s, REPLY.length()));
        return System.nanoTime() - t;
    }

    @Test
    void relaysBothWaysAndCounts() throws IOException {
        try (Socket s = connect()) {
            for (int i = 0; i < 10; i++) {
                timeGet(s);
            }
        }
        FaultCounters c = proxy.counters();
        assertEquals(1, c.accepted());
        assertEquals(70, c.bytesToServer());
        assertEquals(10L * REPLY.length(), c.bytesToClient());
    }

    @Tag("timing")
    @Test
    void delayAddsToEachDirection() throws IOException {
        try (Socket s = connect()) {
            timeGet(s);
            proxy.delay(FaultProxy.Direction.TO_SERVER, Duration.ofMillis(60));
            proxy.delay(FaultProxy.Direction.TO_CLIENT, Duration.ofMillis(40));
            long t = timeGet(s);
            assertTrue(t >= 100_000_000L && t < 1_000_000_000L, "round trip " + t / 1_000_000 + " ms");
            proxy.clear();
            assertTrue(timeGet(s) < 50_000_000L);
        }
    }

    @Tag("timing")
    @Test
    void stallHoldsEveryByteThenReleasesInOrder() throws IOException {
        try (Socket s = connect()) {
            timeGet(s);
            proxy.stall(Duration.ofMillis(300));
            long t = System.nanoTime();
            send(s, "get k\r\nget j\r\n");
            assertEquals(REPLY + "VALUE j 0 3\r\njjj\r\nEND\r\n", read(s, REPLY.length() + 23));
            long took = System.nanoTime() - t;
            assertTrue(took >= 280_000_000L && took < 2_000_000_000L, "stalled for " + took / 1_000_000 + " ms");
            assertTrue(timeGet(s) < 50_000_000L, "the stall is over");
        }
    }

    @Test
    void dropClosesAndResetResets() throws Exception {
        try (Socket s = connect(); Socket r = connect()) {
            timeGet(s);
            timeGet(r);
            proxy.drop();
            assertEquals(-1, s.getInputStream().read(), "end of stream after a drop");
            assertEquals(-1, r.getInputStream().read(), "every connection is dropped");
        }
        try (Socket s = connect()) {
            timeGet(s);
            proxy.reset();
            assertThrows(SocketException.class, () -> {
                InputStream in = s.getInputStream();
                in.read();
            }, "an RST, not a clean end of stream");
        }
        FaultCounters c = proxy.counters();
        assertEquals(2, c.drops());
        assertEquals(1, c.resets());
        assertEquals(0, c.open());
    }

    @Test
    void truncateCutsTheNextReplyAndCloses() throws IOException {
        try (Socket s = connect()) {
            timeGet(s);
            proxy.truncateNextReply(10);
            send(s, "get k\r\n");
            assertEquals(REPLY.substring(0, 10), read(s, REPLY.length()));
        }
        try (Socket s = connect()) {
            timeGet(s); // armed once only
        }
        assertEquals(1, proxy.counters().truncations());
    }

    @Test
    void corruptionIsSeededAndAtTheRate() throws IOException {
        String first = corruptedReplies(42);
        String again = corruptedReplies(42);
        assertEquals(first, again, "same seed, same damage");
        int changed = 0;
        String clean = REPLY.repeat(200);
        for (int i = 0; i < clean.length(); i++) {
            if (clean.charAt(i) != first.charAt(i)) {
                changed++;
            }
        }
        double rate = changed / (double) clean.length();
        assertTrue(rate > 0.005 && rate < 0.02, "damaged " + changed + " of " + clean.length());
        assertNotEquals(first, corruptedReplies(43));
    }

    private String corruptedReplies(long seed) throws IOException {
        proxy.corrupt(0.01, FaultProxy.Corruption.FLIP, seed);
        StringBuilder replies = new StringBuilder();
        try (Socket s = connect()) {
            for (int i = 0; i < 200; i++) {
                send(s, "get k\r\n");
                replies.append(read(s, REPLY.length()));
            }
        }
        proxy.corrupt(0, FaultProxy.Corruption.FLIP, seed);
        return replies.toString();
    }

    @Test
    void swapGivesEachConnectionTheOthersReply() throws IOException {
        try (Socket a = connect(); Socket b = connect()) {
            timeGet(a);
            timeGet(b);
            proxy.swapNextReplies();
            long before = proxy.counters().bytesToClient();
            send(a, "get k\r\n");
            // b asks once a's reply is at the proxy, held for a swap (for 50 ms at most)
            await("a's reply held by the proxy").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                    .until(() -> proxy.counters().bytesToClient() >= before + REPLY.length());
            send(b, "get j\r\n");
            assertEquals("VALUE j 0 3\r\njjj\r\nEND\r\n", read(a, 23));
            assertEquals(REPLY, read(b, REPLY.length()));
            timeGet(a); // once only
        }
        assertEquals(1, proxy.counters().swaps());
    }

    @Test
    void stopReadingBacksUpTheClient() throws Exception {
        try (Socket s = connect()) {
            timeGet(s);
            proxy.stopReading();
            send(s, "get k\r\n");
            s.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read(), "no reply while not reading");
            // the client's writes back up: a writer thread gets stuck once the socket buffers are full
            byte[] chunk = new byte[64 * 1024];
            Arrays.fill(chunk, (byte) 'x');
            long[] written = {0};
            Thread writer = new Thread(() -> {
                try {
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < 1000; i++) {
                        out.write(chunk);
                        written[0] += chunk.length;
                    }
                } catch (IOException closed) {
                    // the socket closes at the end of the test
                }
            });
            writer.setDaemon(true);
            writer.start();
            writer.join(1500);
            assertTrue(writer.isAlive(), "the writer is blocked after " + written[0] + " bytes");
            assertTrue(written[0] < 64L * 1024 * 1000);
        }
        proxy.resumeReading();
        try (Socket s = connect()) {
            timeGet(s);
        }
    }

    @Tag("timing")
    @Test
    void everyRepeatsAFault() {
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            AutoCloseable schedule = proxy.every(Duration.ofMillis(100), Fault.stall(Duration.ofMillis(10)));
            Thread.sleep(550); // deliberate: the schedule runs for 550 ms, and the stalls in that time are counted
            schedule.close();
            long stalls = proxy.counters().stalls();
            assertTrue(stalls >= 4 && stalls <= 6, "stalls " + stalls);
            // the next stall was due within 100 ms: none in 250 ms
            await("stopped").during(Duration.ofMillis(250)).atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
                    .until(() -> proxy.counters().stalls() == stalls);
        });
    }
}
