package io.fluxperf.engine.protocol;

import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;

/** Which of a request's keys a reply names: replies to multi-key gets come in any subset, in order. */
public final class RequestKeys {
    private RequestKeys() {
    }

    /** The index of the requested key (from {@code from} on) that equals in[start, start + length), or -1. */
    public static int indexOf(ByteBuf in, int start, int length, Request r, int from) {
        byte[] keys = r.keyBytes();
        for (int k = from; k < r.keyCount(); k++) {
            if (r.keyLength(k) != length) {
                continue;
            }
            int offset = r.keyOffset(k);
            boolean same = true;
            for (int i = 0; i < length && same; i++) {
                same = in.getByte(start + i) == keys[offset + i];
            }
            if (same) {
                return k;
            }
        }
        return -1;
    }
}
