package io.fluxperf.engine.protocol.resp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * A sink for the replies to commands the client sends for itself (the handshake's, a SCRIPT
 * LOAD's, a follow-up's): it keeps the text of a top-level error and ignores everything else,
 * since only whether such a command failed, and why, counts. The text is made only for an error.
 */
final class RespErrorReply implements RespSink {
    private int depth;
    private String error;

    /** The error text of the reply just read, or null when it was no error; forgets it. */
    String take() {
        String e = error;
        error = null;
        return e;
    }

    /** Whether the reply just read was an error; forgets it. */
    boolean takeFailed() {
        return take() != null;
    }

    @Override
    public void scalar(byte type, ByteBuf in, int start, int end) {
        if (depth == 0 && (type == '-' || type == '!')) {
            error = in.toString(start, end - start, StandardCharsets.UTF_8).trim();
        }
    }

    @Override
    public void nil(byte type) {
    }

    @Override
    public void aggregateStart(byte type, long count) {
        depth++;
    }

    @Override
    public void aggregateEnd(byte type) {
        depth--;
    }
}
