package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.IdleRoundTrip;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.UnexpectedReply;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * memcache's no-op for the latency floor: {@code version}, answered by one line
 * ({@code VERSION 1.6.18}) in the text protocol, and the binary protocol's Version command
 * (opcode 0x0b), answered by a 24-byte header and the version as its body. Any other answer (an
 * error line, a status other than success, another protocol's reply) is no round trip to time: the
 * floor is then not measured.
 */
final class MemcacheIdleRoundTrip {
    /** A reply line longer than this is no reply to {@code version}. */
    static final int MAX_LINE = 1024;
    static final int HEADER = 24;
    static final int RESPONSE_MAGIC = 0x81;
    private static final byte[] VERSION = "VERSION ".getBytes(StandardCharsets.US_ASCII);
    /** The first words of the text protocol's reply lines. */
    private static final byte[][] TEXT_REPLIES = java.util.stream.Stream.of("VERSION ", "VALUE ", "END\r", "STORED\r",
            "NOT_STORED\r", "EXISTS\r", "NOT_FOUND\r", "DELETED\r", "TOUCHED\r", "OK\r", "ERROR\r", "CLIENT_ERROR ",
            "SERVER_ERROR ").map(w -> w.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);

    private MemcacheIdleRoundTrip() {
    }

    /** Whether {@code start} begins with a reply line of the text protocol. */
    static boolean isTextReply(byte[] start) {
        for (byte[] word : TEXT_REPLIES) {
            if (UnexpectedReply.startsWith(start, word)) {
                return true;
            }
        }
        return false;
    }

    static IdleRoundTrip text() {
        byte[] request = "version\r\n".getBytes(StandardCharsets.US_ASCII);
        return new IdleRoundTrip() {
            @Override
            public String describe() {
                return "version";
            }

            @Override
            public byte[] request() {
                return request.clone();
            }

            @Override
            public boolean replied(ByteBuf in) throws ProtocolException {
                int start = in.readerIndex();
                if (!UnexpectedReply.agreesSoFar(in, start, VERSION)) {
                    throw new ProtocolException("the server answered version with '" + UnexpectedReply.excerpt(in, start) + "'");
                }
                int end = in.indexOf(start, in.writerIndex(), (byte) '\n');
                if (end < 0) {
                    if (in.readableBytes() > MAX_LINE) {
                        throw new ProtocolException("version was answered by a line of over " + MAX_LINE + " bytes");
                    }
                    return false;
                }
                in.readerIndex(end + 1);
                return true;
            }
        };
    }

    static IdleRoundTrip binary() {
        byte[] request = new byte[HEADER];
        request[0] = (byte) 0x80; // request magic
        request[1] = 0x0b; // Version; no key, extras or body
        return new IdleRoundTrip() {
            @Override
            public String describe() {
                return "version (binary)";
            }

            @Override
            public byte[] request() {
                return request.clone();
            }

            @Override
            public boolean replied(ByteBuf in) throws ProtocolException {
                if (in.readableBytes() < HEADER) {
                    return false;
                }
                int start = in.readerIndex();
                if (in.getUnsignedByte(start) != RESPONSE_MAGIC) {
                    throw new ProtocolException("the server answered version (binary) with '"
                            + UnexpectedReply.excerpt(in, start) + "', no response (magic " + in.getUnsignedByte(start) + ")");
                }
                int status = in.getUnsignedShort(start + 6);
                if (status != 0) {
                    throw new ProtocolException("the server answered version (binary) with status " + status);
                }
                long body = in.getUnsignedInt(start + 8);
                if (body > MAX_LINE) {
                    throw new ProtocolException("version was answered by a body of " + body + " bytes");
                }
                if (in.readableBytes() < HEADER + body) {
                    return false;
                }
                in.readerIndex(start + HEADER + (int) body);
                return true;
            }
        };
    }
}
