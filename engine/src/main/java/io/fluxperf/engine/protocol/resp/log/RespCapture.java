package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.capture.CaptureProtocol;
import io.fluxperf.engine.log.capture.ConnectionReader;
import java.util.List;

/**
 * redis connections read from a packet capture ({@link RespConnectionReader}). A client is told
 * by its first bytes: a RESP array of bulk strings ({@code *N\r\n$L\r\n}). Inline commands are read
 * too, but a connection that starts with one is not claimed (memcache's text commands look alike):
 * name the protocol with {@code --protocol redis}.
 */
public final class RespCapture implements CaptureProtocol {
    public static final RespCapture INSTANCE = new RespCapture();

    private RespCapture() {
    }

    @Override
    public List<String> protocols() {
        return List.of("redis");
    }

    @Override
    public String recognize(byte[] b, int from, int to) {
        int p = from;
        if (p >= to || b[p++] != '*') {
            return null;
        }
        int digits = 0;
        while (p < to && b[p] >= '0' && b[p] <= '9') {
            p++;
            digits++;
        }
        if (digits == 0 || digits > 7 || to - p < 3) {
            return null;
        }
        return b[p] == '\r' && b[p + 1] == '\n' && b[p + 2] == '$' ? "redis" : null;
    }

    @Override
    public ConnectionReader newReader(ReaderContext ctx) {
        return new RespConnectionReader(ctx);
    }
}
