package io.fluxperf.engine.protocol.http.target;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.engine.target.TargetStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded HTTP server over plain sockets: semantics, keep-alive, pipelining, close, knobs, statistics. */
class HttpTargetServerTest {
    private HttpTargetServer server;

    @BeforeEach
    void start() {
        server = HttpTargetServer.start(TargetOptions.defaults());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawHttp connect() throws IOException {
        return new RawHttp(server.address());
    }

    @Test
    void registeredAsHttpAndListensOnLoopback() {
        assertTrue(Protocols.withTarget().contains("http"));
        try (TargetServer s = Protocols.startTarget("http", TargetOptions.defaults())) {
            assertTrue(s instanceof HttpTargetServer);
            assertTrue(s.address().getAddress().isLoopbackAddress());
            assertTrue(s.describe().startsWith("embedded http on 127.0.0.1:"), s.describe());
        }
    }

    @Test
    void getOnAnEmptyServerReturnsTheGeneratedHundredBytes() throws IOException {
        try (RawHttp c = connect()) {
            RawHttp.Response r = c.request("GET", "/anything/at/all", null).read();
            assertEquals(200, r.status());
            assertEquals("100", r.header("Content-Length"));
            assertArrayEquals(HttpReplies.generated(100), r.body());
            assertTrue(r.header("Date").endsWith(" GMT"));
            RawHttp.Response bigger = c.request("GET", "/x?bytes=70000", null).read();
            assertArrayEquals(HttpReplies.generated(70000), bigger.body(), "the pattern repeats past 64 KiB");
        }
        try (HttpTargetServer other = HttpTargetServer.start(TargetOptions.defaults(), 7); RawHttp c = new RawHttp(other.address())) {
            assertEquals(7, c.request("GET", "/", null).read().body().length, "the size is configurable");
        }
    }

    @Test
    void putGetDeleteCycle() throws IOException {
        try (RawHttp c = connect()) {
            assertEquals(201, c.request("PUT", "/items/1", "first").read().status());
            assertEquals("first", c.request("GET", "/items/1", null).read().text());
            assertEquals("first", c.request("GET", "/items/1?ignored=query", null).read().text(), "the query is not part of the path");
            assertEquals(204, c.request("PUT", "/items/1", "second").read().status(), "replaced");
            assertEquals(204, c.request("POST", "/items/1", "third").read().status());
            assertEquals("third", c.request("GET", "/items/1", null).read().text());
            RawHttp.Response head = c.request("HEAD", "/items/1", null).read(true);
            assertEquals("5", head.header("Content-Length"));
            assertEquals(201, c.request("POST", "/items/2", "").read().status());
            assertEquals(0, c.request("GET", "/items/2", null).read().body().length, "an empty body is stored as such");
            assertEquals(204, c.request("DELETE", "/items/1", null).read().status());
            assertEquals(404, c.request("DELETE", "/items/1", null).read().status(), "nothing left to delete");
            assertArrayEquals(HttpReplies.generated(100), c.request("GET", "/items/1", null).read().body());
            RawHttp.Response patch = c.request("PATCH", "/items/2", "x").read();
            assertEquals(405, patch.status());
            assertEquals("GET, HEAD, POST, PUT, DELETE", patch.header("Allow"));
        }
        TargetStats s = server.stats();
        assertEquals(5, s.command("get"));
        assertEquals(1, s.command("head"));
        assertEquals(2, s.command("put"));
        assertEquals(2, s.command("post"));
        assertEquals(2, s.command("delete"));
        assertEquals(1, s.command("error"));
        assertEquals(4, s.getHits());
        assertEquals(1, s.getMisses());
        assertEquals(1, s.items());
        assertEquals("/items/2".length() + HttpStore.ITEM_OVERHEAD, s.bytesStored());
        assertEquals(Map.of("1xx", 0L, "2xx", 11L, "3xx", 0L, "4xx", 2L, "5xx", 0L), server.statusCounts());
        assertTrue(s.bytesIn() > 0 && s.bytesOut() > s.bytesIn());
        assertEquals(1, s.totalConnections());
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws IOException {
        String batch = "PUT /p HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /p HTTP/1.1\r\nHost: t\r\n\r\n"
                + "DELETE /p HTTP/1.1\r\nHost: t\r\n\r\n"
                + "DELETE /p HTTP/1.1\r\nHost: t\r\n\r\n"
                + "GET /p?bytes=5 HTTP/1.1\r\nHost: t\r\n\r\n";
        try (RawHttp c = connect()) {
            c.send(batch);
            assertEquals(201, c.read().status());
            assertEquals("abc", c.read().text());
            assertEquals(204, c.read().status());
            assertEquals(404, c.read().status());
            assertEquals(5, c.read().body().length);
            assertTrue(c.silentFor(200), "five requests, five responses, connection kept");
        }
    }

    @Test
    void aRequestSplitAcrossWritesIsAnsweredOnce() throws IOException {
        byte[] request = "PUT /split HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n0123456789".getBytes(StandardCharsets.US_ASCII);
        try (RawHttp c = connect()) {
            for (byte b : request) {
                c.send(new byte[] {b});
            }
            assertEquals(201, c.read().status());
            assertEquals("0123456789", c.request("GET", "/split", null).read().text());
        }
    }

    @Test
    void connectionCloseIsHonouredAndWhatFollowsIsNotAnswered() throws IOException {
        try (RawHttp c = connect()) {
            c.send("GET /a HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\nGET /b HTTP/1.1\r\nHost: t\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
        try (RawHttp c = connect()) {
            RawHttp.Response r = c.request("GET", "/knob?close", null).read();
            assertEquals("close", r.header("Connection"), "the close knob");
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void http10ClosesUnlessAskedToKeepAlive() throws IOException {
        try (RawHttp c = connect()) {
            c.send("GET /old HTTP/1.0\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
        try (RawHttp c = connect()) {
            c.send("GET /old?chunked HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals("keep-alive", r.header("Connection"));
            assertNull(r.header("Transfer-Encoding"), "no chunks for an HTTP/1.0 client");
            c.send("GET /old HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            assertEquals(200, c.read().status());
        }
    }

    @Test
    void chunkedWhenAskedWithAnExtensionAndATrailer() throws IOException {
        try (RawHttp c = connect()) {
            RawHttp.Response r = c.request("GET", "/c?chunked=3&bytes=10", null).read();
            assertEquals("chunked", r.header("Transfer-Encoding"));
            assertNull(r.header("Content-Length"));
            assertArrayEquals(HttpReplies.generated(10), r.body());
            assertEquals("3;fluxperf=1|3|4|0|", r.rawChunkSizes());
            assertEquals("end", r.trailers().get("x-fluxperf-trailer"));
            c.request("PUT", "/stored", "stored value");
            c.read();
            assertEquals("stored value", c.request("GET", "/stored?chunked", null).read().text());
            assertEquals(503, c.request("GET", "/s?status=503", null).read().status(), "the status knob");
            assertEquals(400, c.request("GET", "/s?status=abc", null).read().status(), "a bad knob");
        }
    }

    @Test
    void expectContinueGetsAnInterimResponse() throws IOException {
        try (RawHttp c = connect()) {
            c.send("PUT /big HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
            assertEquals(100, c.read().status());
            c.send("body");
            assertEquals(201, c.read().status());
        }
        assertEquals(1, server.statusCounts().get("1xx"));
    }

    @Test
    void unparsableRequestGets400AndClose() throws IOException {
        try (RawHttp c = connect()) {
            c.send("THIS IS NOT HTTP AT ALL\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(400, r.status());
            assertTrue(c.closedByServer());
        }
        assertEquals(1, server.stats().command("error"));
    }

    @Test
    void memoryBoundRefusesRatherThanEvicts() throws IOException {
        try (HttpTargetServer small = HttpTargetServer.start(TargetOptions.builder().memoryLimitBytes(64 << 10).build());
             RawHttp c = new RawHttp(small.address())) {
            String third = "x".repeat(30_000);
            assertEquals(201, c.request("PUT", "/1", third).read().status());
            assertEquals(201, c.request("PUT", "/2", third).read().status());
            assertEquals(507, c.request("PUT", "/3", third).read().status(), "Insufficient Storage");
            assertEquals(2, small.stats().items());
            assertEquals(third, c.request("GET", "/1", null).read().text(), "nothing was evicted");
            assertEquals(413, c.request("PUT", "/4", "y".repeat(70_000)).read().status(), "above the per-request bound");
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void replyDelayKnobApplies() throws IOException {
        try (HttpTargetServer slow = HttpTargetServer.start(TargetOptions.builder().responseDelay(Duration.ofMillis(30)).build());
             RawHttp c = new RawHttp(slow.address())) {
            long start = System.nanoTime();
            assertEquals(200, c.request("GET", "/", null).read().status());
            assertTrue(System.nanoTime() - start >= 30_000_000L);
            assertTrue(slow.describe().contains("reply delay 30000 us"), slow.describe());
        }
    }

    @Test
    void connectionsAreCounted() throws IOException {
        try (RawHttp a = connect(); RawHttp b = connect()) {
            a.request("GET", "/", null).read();
            b.request("GET", "/", null).read();
            assertEquals(2, server.stats().currentConnections());
        }
        long deadline = System.currentTimeMillis() + 2000;
        while (server.stats().currentConnections() > 0 && System.currentTimeMillis() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(0, server.stats().currentConnections());
        assertEquals(2, server.stats().totalConnections());
    }

    @Test
    void badBodySizeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> HttpTargetServer.start(TargetOptions.defaults(), -1));
    }
}
