package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.IdleRoundTrip;
import io.fluxperf.engine.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * redis' no-op for the latency floor: {@code PING}, answered by one line, {@code +PONG} (or an
 * error line, {@code -NOAUTH ...} on a server with a password, which is a round trip too: the floor
 * connection does not log in).
 */
final class RespIdleRoundTrip implements IdleRoundTrip {
    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A reply line longer than this is no reply to PING. */
    static final int MAX_LINE = 1024;

    @Override
    public String describe() {
        return "PING";
    }

    @Override
    public byte[] request() {
        return PING.clone();
    }

    @Override
    public boolean replied(ByteBuf in) throws ProtocolException {
        if (!in.isReadable()) {
            return false;
        }
        byte first = in.getByte(in.readerIndex());
        if (first != '+' && first != '-') {
            throw new ProtocolException("PING was answered by a reply of type '" + (char) first + "', not a line");
        }
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        if (end < 0) {
            if (in.readableBytes() > MAX_LINE) {
                throw new ProtocolException("PING was answered by a line of over " + MAX_LINE + " bytes");
            }
            return false;
        }
        in.readerIndex(end + 1);
        return true;
    }
}
