package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.testkit.HttpOptionsOf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Requests as bytes on the wire, and responses to outcomes, through the {@link ProtocolCodec} interface. */
class HttpClientCodecTest {
    private static final String UA = "User-Agent: " + HttpRequestHead.USER_AGENT + "\r\n";
    private static final byte[] VALUE = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII);

    static ProtocolCodec codec(List<String> headers, Set<Integer> ok) {
        return new HttpProtocol().codecs(HttpOptionsOf.of(headers, ok), null).newCodec();
    }

    static ProtocolCodec codec() {
        return codec(List.of(), Set.of(2));
    }

    private static String encode(ProtocolCodec codec, Request r) {
        ByteBuf out = Unpooled.buffer();
        codec.encode(r, out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static Request get(long key) {
        return new Request().command(Command.GET, 0).addKey(key, 4);
    }

    @Test
    void registeredAsHttp() {
        assertTrue(Protocols.find("http") instanceof HttpProtocol);
        HttpProtocol http = new HttpProtocol();
        assertEquals(80, http.defaultPort());
        for (Command c : Command.values()) {
            assertEquals(Set.of(Command.GET, Command.POST, Command.PUT, Command.DELETE).contains(c), http.supports(c), c.label());
        }
    }

    @Test
    void connectionsOfOneRunShareTheRequestHeadAndAnotherRunGetsItsOwn() {
        HttpProtocol http = new HttpProtocol();
        CodecFactory run1 = http.codecs(HttpOptionsOf.of(List.of("Host: one"), Set.of(2)), null);
        CodecFactory run2 = http.codecs(HttpOptionsOf.of(List.of("Host: two", "X-Run: 2"), Set.of(2)), null);
        assertEquals("GET / HTTP/1.1\r\nHost: one\r\n" + UA + "\r\n", encode(run1.newCodec(), get(42)));
        assertEquals("GET / HTTP/1.1\r\nHost: two\r\n" + UA + "X-Run: 2\r\n\r\n",
                encode(run2.newCodec(), get(42)));
        assertEquals("GET / HTTP/1.1\r\nHost: one\r\n" + UA + "\r\n", encode(run1.newCodec(), get(42)),
                "back to the first run's codecs: its own head again");
    }

    /** As wrk and dperf ask: without a template the path is /, which an ordinary web server serves (not /KEY, a 404). */
    @Test
    void getWithoutTemplateIsTheRoot() {
        assertEquals("GET / HTTP/1.1\r\nHost: localhost\r\n" + UA + "\r\n", encode(codec(), get(42)));
    }

    @Test
    void templateIsExpandedWhileWriting() {
        Request r = get(7).template(CommandTemplate.word("/items/__key__/x?n=__counter__")).numeric(99);
        assertEquals("GET /items/0007/x?n=99 HTTP/1.1\r\nHost: localhost\r\n" + UA + "\r\n", encode(codec(), r));
        Request fixed = get(7).template(CommandTemplate.word("/small.txt"));
        assertTrue(encode(codec(), fixed).startsWith("GET /small.txt HTTP/1.1\r\n"));
    }

    @Test
    void postAndPutCarryTheValueWithContentLength() {
        CommandTemplate keyed = CommandTemplate.word("/__key__");
        Request post = new Request().command(Command.POST, 0).addKey(3, 2).value(VALUE, 5, 10).template(keyed);
        assertEquals("POST /03 HTTP/1.1\r\nHost: localhost\r\n" + UA + "Content-Length: 10\r\n\r\n56789abcde",
                encode(codec(), post));
        Request put = new Request().command(Command.PUT, 0).addKey(3, 2).value(VALUE, 0, 0).template(keyed);
        assertEquals("PUT /03 HTTP/1.1\r\nHost: localhost\r\n" + UA + "Content-Length: 0\r\n\r\n", encode(codec(), put));
        Request preload = new Request().command(Command.SET, 0).addKey(3, 2).value(VALUE, 0, 3).template(keyed);
        assertTrue(encode(codec(), preload).startsWith("PUT /03 HTTP/1.1\r\n"), "--hit preloads with PUT");
        Request delete = new Request().command(Command.DELETE, 0).addKey(3, 2).template(keyed);
        assertEquals("DELETE /03 HTTP/1.1\r\nHost: localhost\r\n" + UA + "\r\n", encode(codec(), delete));
    }

    @Test
    void userHeadersReplaceDefaultsAndFramingHeadersAreLeftOut() {
        ProtocolCodec c = codec(List.of("Host: example.com:8080", "X-Test:  a b ", "content-length: 5",
                "Transfer-Encoding: chunked", "User-Agent: me"), Set.of(2));
        assertEquals("GET / HTTP/1.1\r\nHost: example.com:8080\r\nX-Test: a b\r\nUser-Agent: me\r\n\r\n", encode(c, get(1)));
    }

    @Test
    void keyBytesThatAPathCannotHoldArePercentEncoded() {
        byte[] key = "a b/%?é".getBytes(StandardCharsets.UTF_8);
        Request r = new Request().command(Command.GET, 0).addKey(key, 0, key.length).template(CommandTemplate.word("/__key__"));
        assertTrue(encode(codec(), r).startsWith("GET /a%20b/%25%3F%C3%A9 HTTP/1.1\r\n"), encode(codec(), r));
    }

    @Test
    void otherCommandsAreRefused() {
        Request r = new Request().command(Command.INCR, 0).addKey(1, 1);
        assertThrows(IllegalArgumentException.class, () -> codec().encode(r, Unpooled.buffer()));
    }

    @Test
    void statusClassDecidesTheOutcome() throws ProtocolException {
        String[] responses = {"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 301 Moved\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno\n", "HTTP/1.1 503 Busy\r\nContent-Length: 0\r\n\r\n"};
        Outcome[] byDefault = {Outcome.OK, Outcome.ERROR, Outcome.ERROR, Outcome.ERROR};
        Outcome[] with4xx = {Outcome.OK, Outcome.ERROR, Outcome.OK, Outcome.ERROR};
        ProtocolCodec strict = codec();
        ProtocolCodec lenient = codec(List.of(), Set.of(2, 4));
        for (int i = 0; i < responses.length; i++) {
            assertEquals(byDefault[i], Outcome.of(strict.decode(buf(responses[i]), get(1))), responses[i]);
            assertEquals(with4xx[i], Outcome.of(lenient.decode(buf(responses[i]), get(1))), responses[i]);
        }
        HttpClientCodec c = (HttpClientCodec) strict;
        assertArrayEquals(new long[] {0, 0, 1, 1, 1, 1}, c.statusClassCounts());
        assertEquals(503, c.lastStatus());
        assertEquals(5, c.replyClass());
    }

    @Test
    void aCodecResetForANewConnectionDecodesLikeANewOne() throws ProtocolException {
        HttpClientCodec c = (HttpClientCodec) codec();
        assertFalse(c.hasHandshake(), "no handshake: the engine takes no buffer for one on each connection");
        // a response that closes its connection: nothing more may come on that one
        assertEquals(Outcome.OK.ordinal(),
                c.decode(buf("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"), get(1)));
        assertTrue(c.closesConnection());
        assertThrows(ProtocolException.class, () -> c.decode(buf("HTTP/1.1 200 OK\r\n"), get(1)));
        assertTrue(c.resetForNewConnection());
        assertFalse(c.closesConnection());
        assertEquals(0, c.lastStatus());
        assertEquals(-1, c.replyClass());
        assertArrayEquals(new long[6], c.statusClassCounts());
        // a connection lost in the middle of a body, whose decoder waits for 10 bytes more
        assertEquals(ProtocolCodec.NEED_MORE,
                c.decode(buf("HTTP/1.1 404 Not Found\r\nContent-Length: 30\r\n\r\n01234"), get(1)));
        assertTrue(c.resetForNewConnection());
        String next = "HTTP/1.1 503 Busy\r\nContent-Length: 4\r\n\r\nbusyHTTP/1.1 204 No Content\r\n\r\n";
        ProtocolCodec fresh = codec();
        ByteBuf a = buf(next);
        ByteBuf b = buf(next);
        for (Outcome expected : new Outcome[] {Outcome.ERROR, Outcome.OK}) {
            assertEquals(expected.ordinal(), fresh.decode(a, get(1)));
            assertEquals(expected.ordinal(), c.decode(b, get(1)), "as the new codec decodes it");
        }
        assertFalse(b.isReadable());
        assertArrayEquals(new long[] {0, 0, 1, 0, 0, 1}, c.statusClassCounts());
    }

    @Test
    void incompleteResponseConsumesNothing() throws ProtocolException {
        ByteBuf in = buf("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234");
        assertEquals(ProtocolCodec.NEED_MORE, codec().decode(in, get(1)));
        assertEquals(0, in.readerIndex());
    }

    @Test
    void closeDelimitedBodyEndsAtTheEndOfTheStream() throws ProtocolException {
        HttpClientCodec c = (HttpClientCodec) codec();
        ByteBuf in = buf("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nsome body");
        assertEquals(ProtocolCodec.NEED_MORE, c.decode(in, get(1)));
        assertEquals(0, in.readerIndex());
        assertEquals(Outcome.OK.ordinal(), c.decodeAtEnd(in, get(1)));
        assertFalse(in.isReadable());
        assertTrue(c.closesConnection());
    }

    @Test
    void encodingAndDecodingAllocateNothingPerRequest() throws ProtocolException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ProtocolCodec c = codec(List.of("Accept: */*"), Set.of(2));
        Request r = new Request().command(Command.GET, 0).addKey(12345, 8).template(CommandTemplate.word("/items/__key__?n=__counter__"));
        Request post = new Request().command(Command.POST, 0).addKey(12345, 8).value(VALUE, 0, 20);
        ByteBuf out = Unpooled.directBuffer(4096);
        ByteBuf in = buf("HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Sun, 29 Nov 2026 20:07:43 GMT\r\n"
                + "Content-Type: text/plain\r\nContent-Length: 100\r\nConnection: keep-alive\r\n\r\n" + "a".repeat(100)
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n");
        int rounds = 200_000;
        long before = 0;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 1) {
                before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
            }
            for (int i = 0; i < rounds; i++) {
                out.clear();
                r.numeric(i);
                c.encode(r, out);
                c.encode(post, out);
                in.readerIndex(0);
                if (c.decode(in, r) != 0 || c.decode(in, r) != 0) {
                    throw new AssertionError("not OK");
                }
            }
        }
        long allocated = threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertTrue(allocated < rounds / 10, "allocated " + allocated + " bytes for " + rounds + " rounds");
    }

    static ByteBuf buf(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }
}
