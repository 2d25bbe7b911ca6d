package io.fluxperf.bench;

import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.workload.ValuePattern;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Each protocol codec's per-request work: {@code encode} writes one request into a reused buffer
 * (cleared each time, as a connection's batch buffer starts empty), {@code decode} reads one
 * reply (the reader index is put back each time; a memcache-binary reply gets the next opaque
 * written into its header first, as each reply of a connection's stream carries the opaque of
 * its request, and the codec checks it; memcache-meta's decode includes writing its request, and
 * its encode forgetting it again, since the codec keeps each request it wrote until its reply).
 * Codecs come from the registry ({@code Protocols.find(name).newCodec(ProtocolOptions.defaults())}),
 * as a connection gets them.
 *
 * <p>Requests: a 16-byte key; {@code set} carries a {@code valueBytes} value (HTTP sends it as PUT
 * with a body). Replies: memcache {@code VALUE … END} / {@code STORED}; memcache-binary a Get
 * response with 4 bytes of flags and the value / a Set response with a CAS; memcache-meta
 * {@code VA … } / {@code HD} (its default flags: no quiet mode, no tokens); redis a bulk string /
 * {@code +OK}; HTTP nginx's 200 head with the body / a 204. {@code pooled-direct} is what an
 * epoll channel hands the codec, {@code unpooled-heap} a plain array.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar CodecBench -prof gc}
 * (one protocol: {@code … CodecBench -p protocol=redis -prof gc}). {@code gc.alloc.rate.norm}
 * must read ≈0 B/op: a codec allocates nothing per request.
 */
@State(Scope.Thread)
public class CodecBench extends HotPathBenchmark {
    /** Where a memcache binary header holds its opaque. */
    private static final int BINARY_OPAQUE_OFFSET = 12;

    @Param({"memcache", "memcache-binary", "memcache-meta", "redis", "http"})
    public String protocol;

    @Param({"get", "set"})
    public String command;

    @Param({"pooled-direct", "unpooled-heap"})
    public String buffer;

    @Param({"64"})
    public int valueBytes;

    /** value: a get checks the value read against the run's (a --hit read does); none: it does not. */
    @Param({"value", "none"})
    public String check;

    private ProtocolCodec codec;
    private Request request;
    private ByteBuf out;
    private ByteBuf reply;
    /** memcache-binary: the opaque the codec expects in its next reply. */
    private boolean binary;
    /** memcache-meta: the codec remembers each request it wrote until its reply. */
    private boolean meta;
    private ByteBuf scratch;
    private int opaque;

    @Setup
    public void setup() throws ProtocolException {
        Protocol p = Protocols.find(protocol);
        if (p == null) {
            throw new IllegalArgumentException("no protocol " + protocol + "; there are " + Protocols.names());
        }
        codec = p.codecs(ProtocolOptions.none(), null).newCodec();
        Command c = Command.parse(command);
        long keyIndex = 4242;
        ValuePattern pattern = new ValuePattern(42, valueBytes);
        request = new Request().command(c, 0).addKey(keyIndex, 16);
        if (c.carriesValue()) {
            request.value(pattern.array(), pattern.offset(keyIndex), valueBytes);
        } else if (check.equals("value")) {
            request.valueCheck(pattern);
        }
        byte[] replyBytes = reply(protocol, c, request.keyString(0), pattern.expected(keyIndex, valueBytes));
        boolean pooled = buffer.equals("pooled-direct");
        out = pooled ? PooledByteBufAllocator.DEFAULT.directBuffer(4096) : Unpooled.buffer(4096);
        reply = pooled ? PooledByteBufAllocator.DEFAULT.directBuffer(replyBytes.length) : Unpooled.buffer(replyBytes.length);
        reply.writeBytes(replyBytes);
        binary = protocol.equals("memcache-binary");
        meta = protocol.equals("memcache-meta");
        scratch = Unpooled.buffer(4096);
        int outcome = decode();
        if (outcome != Outcome.OK.ordinal() || reply.isReadable()) {
            throw new IllegalStateException(protocol + " " + command + ": the reply decoded as " + outcome
                    + " with " + reply.readableBytes() + " bytes left");
        }
    }

    @TearDown
    public void tearDown() {
        out.release();
        reply.release();
        scratch.release();
    }

    @Benchmark
    public int encode() {
        out.clear();
        codec.encode(request, out);
        if (meta) {
            codec.resetForNewConnection(); // forgets the request, as its reply would (a few field stores)
        }
        return out.writerIndex();
    }

    @Benchmark
    public int decode() throws ProtocolException {
        reply.readerIndex(0);
        if (binary) {
            reply.setInt(BINARY_OPAQUE_OFFSET, opaque++);
        } else if (meta) {
            scratch.clear();
            codec.encode(request, scratch); // a reply is decoded only for a request the codec wrote
        }
        return codec.decode(reply, request);
    }

    /** The server's reply to the request: a hit for get, a success for set. */
    static byte[] reply(String protocol, Command c, String key, byte[] value) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        boolean get = c == Command.GET;
        switch (protocol) {
            case "memcache" -> {
                if (get) {
                    b.writeBytes(ascii("VALUE " + key + " 0 " + value.length + "\r\n"));
                    b.writeBytes(value);
                    b.writeBytes(ascii("\r\nEND\r\n"));
                } else {
                    b.writeBytes(ascii("STORED\r\n"));
                }
            }
            case "memcache-meta" -> {
                if (get) {
                    b.writeBytes(ascii("VA " + value.length + "\r\n"));
                    b.writeBytes(value);
                    b.writeBytes(ascii("\r\n"));
                } else {
                    b.writeBytes(ascii("HD\r\n"));
                }
            }
            case "memcache-binary" -> {
                // the 24-byte response header (magic 0x81; opcode; key length 0; extras length;
                // data type; status 0; body length; opaque 0, the first request's; CAS), then
                // a Get's 4 bytes of flags and its value
                ByteBuffer h = ByteBuffer.allocate(24);
                int extras = get ? 4 : 0;
                h.put((byte) 0x81).put((byte) (get ? 0x00 : 0x01)).putShort((short) 0).put((byte) extras).put((byte) 0)
                        .putShort((short) 0).putInt(extras + (get ? value.length : 0)).putInt(0).putLong(get ? 0 : 4242);
                b.writeBytes(h.array());
                if (get) {
                    b.writeBytes(new byte[4]);
                    b.writeBytes(value);
                }
            }
            case "redis" -> {
                if (get) {
                    b.writeBytes(ascii("$" + value.length + "\r\n"));
                    b.writeBytes(value);
                    b.writeBytes(ascii("\r\n"));
                } else {
                    b.writeBytes(ascii("+OK\r\n"));
                }
            }
            case "http" -> {
                // nginx 1.22's head for a static file; for PUT, a WebDAV-style 204
                if (get) {
                    b.writeBytes(ascii("HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Sun, 29 Nov 2026 20:00:00 GMT\r\n"
                            + "Content-Type: application/octet-stream\r\nContent-Length: " + value.length + "\r\n"
                            + "Last-Modified: Sun, 29 Nov 2026 19:00:00 GMT\r\nConnection: keep-alive\r\n"
                            + "ETag: \"6929e1b0-40\"\r\nAccept-Ranges: bytes\r\n\r\n"));
                    b.writeBytes(value);
                } else {
                    b.writeBytes(ascii("HTTP/1.1 204 No Content\r\nServer: nginx/1.22.1\r\n"
                            + "Date: Sun, 29 Nov 2026 20:00:00 GMT\r\nConnection: keep-alive\r\n\r\n"));
                }
            }
            default -> throw new IllegalArgumentException("no reply fixture for " + protocol);
        }
        return b.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
