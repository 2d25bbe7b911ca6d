package io.fluxperf.engine.protocol.http.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.capture.RecordingSink;
import io.fluxperf.engine.request.Command;
import java.util.List;
import org.junit.jupiter.api.Test;
import static io.fluxperf.engine.log.capture.RecordingSink.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The HTTP/1.1 reader of captured connections: pipelined requests with Content-Length and chunked
 * bodies into entries (request-target, body), responses (interim, chunked, bodiless for HEAD, 204
 * and 304) into outcomes; every split at every byte reads the same; gaps inside a body cut one
 * request, elsewhere they lose the stream.
 */
class HttpConnectionReaderTest {
    private static final String REQUESTS = "GET /items/1?x=%20y HTTP/1.1\r\nHost: a\r\nUser-Agent: t\r\n\r\n"
            + "POST /items HTTP/1.1\r\nHost: a\r\ncontent-length: 11\r\n\r\nhello world"
            + "PUT /c HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-T: t\r\n\r\n"
            + "HEAD /h HTTP/1.1\r\n\r\n"
            + "DELETE /items/1 HTTP/1.1\r\nContent-Length: 0\r\n\r\n"
            + "\r\n"
            + "GET http://example.com/abs HTTP/1.0\r\n\r\n";
    private static final String RESPONSES = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nabcde"
            + "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" // to the HEAD: no body follows
            + "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno!"
            + "HTTP/1.1 304 Not Modified\r\n\r\n";

    private static RecordingSink read(String prefix, int requestCut, int replyCut) {
        RecordingSink sink = new RecordingSink("http", prefix, false);
        HttpConnectionReader r = new HttpConnectionReader(sink.ctx);
        r.reset(true);
        RecordingSink.requests(r, bytes(REQUESTS), sink, requestCut);
        RecordingSink.replies(r, bytes(RESPONSES), sink, replyCut);
        return sink;
    }

    private static void assertTheStream(RecordingSink s, String where) {
        List<RecordingSink.Command> c = s.commands;
        assertEquals(List.of("get", "post", "put", "delete", "get"), c.stream().map(RecordingSink.Command::verb).toList(), where);
        assertEquals(List.of("/items/1?x=%20y"), c.get(0).args(), where);
        assertEquals(List.of("/items/1?x=%20y"), c.get(0).keys(), where);
        assertEquals(List.of("/items", "hello world"), c.get(1).args(), where);
        assertEquals(Command.POST, c.get(1).command(), where);
        assertEquals(List.of("/c", "hello world"), c.get(2).args(), where);
        assertEquals(List.of("/items/1"), c.get(3).args(), where);
        assertEquals(List.of("http://example.com/abs"), c.get(4).args(), where);
        byte[] expected = {LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_ERROR, LogEntry.REPLY_ERROR};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], s.reply(i), where + ": reply of request " + i);
        }
        assertEquals(List.of("skip HTTP HEAD requests (the http protocol sends GET, POST, PUT and DELETE)"), s.others(), where);
        assertFalse(s.repliesLost, where);
    }

    @Test
    void pipelinedRequestsAndResponsesReadTheSameSplitAtEveryByte() {
        for (int cut = 0; cut <= REQUESTS.length(); cut++) {
            assertTheStream(read(null, cut, cut % RESPONSES.length()), "requests split at " + cut);
        }
        for (int cut = 0; cut <= RESPONSES.length(); cut++) {
            assertTheStream(read(null, 0, cut), "responses split at " + cut);
        }
    }

    @Test
    void theKeyPrefixGoesAtThePathsStart() {
        RecordingSink s = read("r:", 0, 0);
        assertEquals("/r:items/1?x=%20y", s.commands.get(0).args().get(0));
        assertEquals("http://example.com/r:abs", s.commands.get(4).args().get(0));
    }

    @Test
    void aGapInsideABodyCutsOneRequestAndOneInTheHeadLosesTheStream() {
        byte[] req = bytes("POST /a HTTP/1.1\r\nContent-Length: 100\r\n\r\n" + "b".repeat(100) + "GET /b HTTP/1.1\r\n\r\n");
        int body = req.length - 100 - "GET /b HTTP/1.1\r\n\r\n".length();
        RecordingSink s = new RecordingSink("http", null, false);
        HttpConnectionReader r = new HttpConnectionReader(s.ctx);
        r.reset(true);
        r.request(req, 0, body + 10, s);
        r.requestGap(50, s);
        r.request(req, body + 60, req.length, s);
        assertEquals(List.of("cut", "command get"), s.events);

        RecordingSink t = new RecordingSink("http", null, false);
        HttpConnectionReader q = new HttpConnectionReader(t.ctx);
        q.reset(true);
        q.request(req, 0, 10, t);
        q.requestGap(5, t);
        assertEquals(List.of("lost gap"), t.events);
        byte[] rep = bytes("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        q.reply(rep, 0, rep.length, t);
        assertEquals(2, t.unreadAnswered);
    }

    @Test
    void aConnectionPickedUpMidStreamStartsAtItsFirstRequestLine() {
        RecordingSink s = new RecordingSink("http", null, false);
        HttpConnectionReader r = new HttpConnectionReader(s.ctx);
        r.reset(false);
        byte[] tail = bytes("ody\"}");
        byte[] whole = bytes("GET /x HTTP/1.1\r\n\r\n");
        r.request(tail, 0, tail.length, s);
        r.request(whole, 0, whole.length, s);
        assertEquals(List.of("picked up after 5", "command get"), s.events);
        assertNull(s.reply(0));
        assertEquals("http", HttpCapture.INSTANCE.recognize(whole, 0, whole.length));
        byte[] memcache = bytes("get k\r\n");
        assertNull(HttpCapture.INSTANCE.recognize(memcache, 0, memcache.length));
    }
}
