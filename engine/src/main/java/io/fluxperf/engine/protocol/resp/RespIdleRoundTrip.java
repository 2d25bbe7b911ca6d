package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.IdleRoundTrip;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.UnexpectedReply;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * redis' no-op for the latency floor: {@code PING}, answered by one line, {@code +PONG} (or
 * {@code -NOAUTH ...} on a server with a password, which is a round trip too: the floor connection
 * does not log in). Any other error line, or another protocol's reply, is no round trip to time: the
 * floor is then not measured.
 */
final class RespIdleRoundTrip implements IdleRoundTrip {
    private static final byte[] PING = "*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII);
    /** A reply line longer than this is no reply to PING. */
    static final int MAX_LINE = 1024;
    private static final byte[] NOAUTH = "-NOAUTH ".getBytes(StandardCharsets.US_ASCII);
    /** RESP2's and RESP3's type bytes. */
    private static final String TYPES = "+-:$*_,#!=(%~>|";

    /** Whether {@code start} begins as a RESP value: a type byte, then printable text up to the line's end. */
    static boolean isRespValue(byte[] start) {
        if (start.length < 2 || TYPES.indexOf(start[0]) < 0) {
            return false;
        }
        for (int i = 1; i < start.length && start[i] != '\r'; i++) {
            if (start[i] < 0x20 && start[i] != '\t') {
                return false;
            }
        }
        return start[1] != '\r';
    }

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
        int start = in.readerIndex();
        byte first = in.getByte(start);
        if (first != '+' && !UnexpectedReply.agreesSoFar(in, start, NOAUTH)) {
            throw new ProtocolException("the server answered PING with '" + UnexpectedReply.excerpt(in, start) + "'");
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
