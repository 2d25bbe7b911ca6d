package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.IdleRoundTrip;
import io.fluxperf.engine.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * memcache's no-op for the latency floor: {@code version}, answered by one line
 * ({@code VERSION 1.6.18}) in the text protocol, and the binary protocol's Version command
 * (opcode 0x0b), answered by a 24-byte header and the version as its body.
 */
final class MemcacheIdleRoundTrip {
    /** A reply line longer than this is no reply to {@code version}. */
    static final int MAX_LINE = 1024;
    static final int HEADER = 24;

    private MemcacheIdleRoundTrip() {
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
                int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
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
                if (in.getUnsignedByte(start) != 0x81) {
                    throw new ProtocolException("version was answered by a packet that is no response (magic "
                            + in.getUnsignedByte(start) + ")");
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
