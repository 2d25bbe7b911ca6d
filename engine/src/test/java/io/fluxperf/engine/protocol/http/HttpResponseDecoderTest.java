package io.fluxperf.engine.protocol.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Framing (RFC 9112 §6.3) and the resumable decoder's contract: split at every byte, the reader
 * index checked after every call, pipelined responses, bad bytes, and a fuzz run in which only
 * {@link ProtocolException} may come out.
 */
class HttpResponseDecoderTest {
    private static final int NEED_MORE = HttpResponseDecoder.NEED_MORE;

    /** A response, its status and whether it ends the connection. */
    record Sample(String name, String text, int status, boolean closes) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Sample> samples() {
        return List.of(
                new Sample("content-length", "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nContent-Type: text/plain\r\n"
                        + "Content-Length: 5\r\nConnection: keep-alive\r\n\r\nhello", 200, false),
                new Sample("empty body", "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 200, false),
                new Sample("no reason phrase", "HTTP/1.1 404\r\nContent-Length: 2\r\n\r\nno", 404, false),
                new Sample("header name case", "HTTP/1.1 200 OK\r\ncontent-LENGTH:3\r\n\r\nabc", 200, false),
                new Sample("content-length list", "HTTP/1.1 200 OK\r\nContent-Length: 3 , 3\r\n\r\nabc", 200, false),
                new Sample("chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5;name=value\r\nhello\r\nA \r\n0123456789\r\n0\r\n\r\n", 200, false),
                new Sample("chunked with trailers", "HTTP/1.1 201 Created\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n"
                        + "1\r\nx\r\n00\r\nExpires: never\r\nX-Checksum: 1\r\n\r\n", 201, false),
                new Sample("chunked wins over content-length", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n", 200, false),
                new Sample("204 without body", "HTTP/1.1 204 No Content\r\nServer: x\r\n\r\n", 204, false),
                new Sample("304 ignores content-length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n", 304, false),
                new Sample("interim responses skipped", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\n"
                        + "Link: </a.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", 200, false),
                new Sample("connection close", "HTTP/1.1 503 Busy\r\nConnection: keep-alive, CLOSE\r\nContent-Length: 1\r\n\r\nx",
                        503, true),
                new Sample("http/1.0 closes", "HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", 200, true),
                new Sample("http/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx",
                        200, false),
                new Sample("bare LF lines", "HTTP/1.1 200 OK\nContent-Length: 2\n\nhi", 200, false),
                new Sample("obs-fold ignored", "HTTP/1.1 200 OK\r\nX-Long: a\r\n b\r\nContent-Length: 1\r\n\r\nz", 200, false),
                new Sample("chunk data ended by bare LF", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\n0\n\n",
                        200, false),
                new Sample("big body", "HTTP/1.1 200 OK\r\nContent-Length: 20000\r\n\r\n" + "b".repeat(20000), 200, false));
    }

    static Stream<Arguments> everySample() {
        return samples().stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everySample")
    void wholeResponse(Sample s) throws ProtocolException {
        HttpResponseDecoder d = new HttpResponseDecoder();
        ByteBuf in = buf(s.text + "trailing");
        assertEquals(s.status, d.decode(in));
        assertEquals(s.text.length(), in.readerIndex(), "consumes exactly the response");
        assertEquals(s.closes, d.closesConnection());
        assertFalse(d.inResponse());
    }

    /** Fed one byte more at a time to the same decoder: NEED_MORE and nothing consumed until the last byte. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everySample")
    void byteByByte(Sample s) throws ProtocolException {
        HttpResponseDecoder d = new HttpResponseDecoder();
        byte[] bytes = s.text.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuf in = Unpooled.buffer(bytes.length);
        for (int i = 0; i < bytes.length - 1; i++) {
            in.writeByte(bytes[i]);
            assertEquals(NEED_MORE, d.decode(in), "after " + (i + 1) + " bytes");
            assertEquals(0, in.readerIndex());
        }
        in.writeByte(bytes[bytes.length - 1]);
        assertEquals(s.status, d.decode(in));
        assertEquals(bytes.length, in.readerIndex());
    }

    /**
     * Split in two at every byte, with the unread bytes moved to another offset between the calls
     * (as Netty's cumulator does): the decoder keeps positions relative to the reader index.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("everySample")
    void splitAtEveryByte(Sample s) throws ProtocolException {
        byte[] bytes = s.text.getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 0; split < bytes.length; split++) {
            HttpResponseDecoder d = new HttpResponseDecoder();
            ByteBuf first = Unpooled.buffer();
            first.writeBytes(bytes, 0, split);
            assertEquals(NEED_MORE, d.decode(first), "split at " + split);
            assertEquals(0, first.readerIndex());
            ByteBuf moved = Unpooled.buffer();
            moved.writeZero(7).readerIndex(7);
            moved.writeBytes(bytes);
            assertEquals(s.status, d.decode(moved), "split at " + split);
            assertEquals(7 + bytes.length, moved.readerIndex(), "split at " + split);
        }
    }

    /** Every sample after every other on one connection, split at every byte of the pair. */
    @Test
    void pipelinedPairsSplitAtEveryByte() throws ProtocolException {
        List<Sample> keepAlive = samples().stream().filter(s -> !s.closes && s.text.length() < 2000).toList();
        for (Sample a : keepAlive) {
            for (Sample b : keepAlive) {
                byte[] bytes = (a.text + b.text).getBytes(StandardCharsets.ISO_8859_1);
                for (int split = 0; split <= bytes.length; split += 3) {
                    HttpResponseDecoder d = new HttpResponseDecoder();
                    ByteBuf in = Unpooled.buffer();
                    in.writeBytes(bytes, 0, split);
                    List<Integer> statuses = new ArrayList<>();
                    drain(d, in, statuses);
                    in.writeBytes(bytes, split, bytes.length - split);
                    drain(d, in, statuses);
                    assertEquals(List.of(a.status, b.status), statuses, a + " then " + b + " split at " + split);
                    assertFalse(in.isReadable());
                }
            }
        }
    }

    private static void drain(HttpResponseDecoder d, ByteBuf in, List<Integer> statuses) throws ProtocolException {
        int status;
        while (in.isReadable() && (status = d.decode(in)) != NEED_MORE) {
            statuses.add(status);
        }
    }

    @Test
    void closeDelimitedBodyWaitsForTheEnd() throws ProtocolException {
        for (String text : List.of("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nbody until close",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nnot chunked",
                "HTTP/1.0 200 OK\r\n\r\n")) {
            HttpResponseDecoder d = new HttpResponseDecoder();
            ByteBuf in = buf(text);
            assertEquals(NEED_MORE, d.decode(in));
            in.writeBytes("more".getBytes(StandardCharsets.US_ASCII));
            assertEquals(NEED_MORE, d.decode(in));
            assertEquals(0, in.readerIndex());
            assertEquals(200, d.decodeAtEnd(in));
            assertFalse(in.isReadable());
            assertTrue(d.closesConnection());
        }
        HttpResponseDecoder cut = new HttpResponseDecoder();
        ByteBuf partial = buf("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
        assertEquals(NEED_MORE, cut.decodeAtEnd(partial), "a response cut short is not complete at the end");
        assertEquals(0, partial.readerIndex());
    }

    @Test
    void nothingMayFollowAResponseThatCloses() throws ProtocolException {
        HttpResponseDecoder d = new HttpResponseDecoder();
        ByteBuf in = buf("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
        assertEquals(200, d.decode(in));
        assertTrue(d.closesConnection());
        assertEquals(NEED_MORE, d.decode(in));
        in.writeBytes("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThrows(ProtocolException.class, () -> d.decode(in));
    }

    static Stream<Arguments> badResponses() {
        return Stream.of(
                "HTTP/2 200 OK\r\n\r\n",
                "HTTX/1.1 200 OK\r\n\r\n",
                "HTTP/1.1 20 OK\r\n\r\n",
                "HTTP/1.1 2000 OK\r\n\r\n",
                "HTTP/1.1 099 Low\r\n\r\n",
                "HTTP/1.1 600 High\r\n\r\n",
                "HTTP/1.1 200OK\r\n\r\n",
                "HTTP/1.x 200 OK\r\n\r\n",
                "\r\nHTTP/1.1 200 OK\r\n\r\n",
                "VALUE 0001 0 5\r\nhello\r\nEND\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n",
                "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
                "HTTP/1.1 200 OK\r\n: empty name\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5 x\r\nhello\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\rX",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n",
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n",
                "HTTP/1.1 200 OK\r\nX: " + "y".repeat(HttpResponseDecoder.MAX_LINE) + "\r\n\r\n",
                "HTTP/1.1 200 OK\r\n" + "X-Many: header line\r\n".repeat(4000) + "\r\n").map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("badResponses")
    void badBytesAreAProtocolError(String text) {
        assertThrows(ProtocolException.class, () -> new HttpResponseDecoder().decode(buf(text)));
        // fed a byte at a time, the error still comes (no endless NEED_MORE)
        HttpResponseDecoder d = new HttpResponseDecoder();
        ByteBuf in = Unpooled.buffer();
        assertThrows(ProtocolException.class, () -> {
            for (byte b : text.getBytes(StandardCharsets.ISO_8859_1)) {
                in.writeByte(b);
                d.decode(in);
            }
        });
    }

    @Test
    void aLineWithoutEndIsAnErrorOnceTooLong() {
        HttpResponseDecoder d = new HttpResponseDecoder();
        ByteBuf in = buf("HTTP/1.1 200 OK\r\nX: ");
        assertThrows(ProtocolException.class, () -> {
            for (int i = 0; i < 10_000; i++) {
                in.writeByte('y');
                assertEquals(NEED_MORE, d.decode(in));
            }
        });
    }

    /**
     * Mutated and random responses, fed in random pieces with the unread bytes moved now and then:
     * each call returns a status (having consumed), NEED_MORE (having consumed nothing) or throws
     * ProtocolException; nothing else, and every call returns.
     */
    @Test
    void fuzz() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            Random random = new Random(20261129);
            List<Sample> samples = samples();
            byte[] alphabet = "HTTP/1.01 2003450 OK\r\n\r\n:;, \tchunkedContent-LengthTransfer-EncodingConnection: close0123456789abcdefABCDEF"
                    .getBytes(StandardCharsets.US_ASCII);
            int errors = 0;
            int statuses = 0;
            for (int round = 0; round < 20_000; round++) {
                byte[] input = mutate(random, samples, alphabet);
                HttpResponseDecoder d = new HttpResponseDecoder();
                ByteBuf in = Unpooled.buffer();
                int fed = 0;
                try {
                    while (fed < input.length) {
                        int n = 1 + random.nextInt(Math.min(64, input.length - fed));
                        in.writeBytes(input, fed, n);
                        fed += n;
                        if (random.nextInt(8) == 0) {
                            ByteBuf moved = Unpooled.buffer();
                            moved.writeZero(random.nextInt(5));
                            moved.readerIndex(moved.writerIndex());
                            moved.writeBytes(in);
                            in = moved;
                        }
                        while (in.isReadable()) {
                            int before = in.readerIndex();
                            int status = d.decode(in);
                            if (status == NEED_MORE) {
                                assertEquals(before, in.readerIndex(), "NEED_MORE consumed bytes");
                                break;
                            }
                            assertTrue(status >= 200 && status <= 599, "status " + status);
                            assertTrue(in.readerIndex() > before, "a response consumed nothing");
                            statuses++;
                        }
                    }
                    d.decodeAtEnd(in);
                } catch (ProtocolException expected) {
                    errors++;
                }
            }
            assertTrue(errors > 1000 && statuses > 1000, "errors " + errors + ", statuses " + statuses);
        });
    }

    private static byte[] mutate(Random random, List<Sample> samples, byte[] alphabet) {
        if (random.nextInt(10) == 0) {
            byte[] noise = new byte[random.nextInt(300)];
            for (int i = 0; i < noise.length; i++) {
                noise[i] = random.nextBoolean() ? alphabet[random.nextInt(alphabet.length)] : (byte) random.nextInt(256);
            }
            return noise;
        }
        StringBuilder text = new StringBuilder();
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
            Sample s = samples.get(random.nextInt(samples.size()));
            text.append(s.text.length() > 2000 ? s.text.substring(0, 2000) : s.text);
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.ISO_8859_1);
        List<Byte> out = new ArrayList<>(bytes.length + 16);
        for (byte b : bytes) {
            out.add(b);
        }
        int edits = random.nextInt(4);
        for (int e = 0; e < edits && !out.isEmpty(); e++) {
            int at = random.nextInt(out.size());
            switch (random.nextInt(4)) {
                case 0 -> out.set(at, (byte) random.nextInt(256));
                case 1 -> out.set(at, alphabet[random.nextInt(alphabet.length)]);
                case 2 -> out.remove(at);
                default -> out.add(at, alphabet[random.nextInt(alphabet.length)]);
            }
        }
        if (random.nextInt(4) == 0 && !out.isEmpty()) {
            out = out.subList(0, random.nextInt(out.size()));
        }
        byte[] result = new byte[out.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = out.get(i);
        }
        return result;
    }

    static ByteBuf buf(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }
}
