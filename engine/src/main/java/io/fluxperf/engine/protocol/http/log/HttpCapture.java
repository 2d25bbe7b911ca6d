package io.fluxperf.engine.protocol.http.log;

import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.capture.CaptureProtocol;
import io.fluxperf.engine.log.capture.ConnectionReader;
import java.util.List;

/**
 * HTTP/1.1 connections read from a packet capture ({@link HttpConnectionReader}). A client is told
 * by its first bytes: a request line's method (upper case, as RFC 9110 registers them) and a space.
 */
public final class HttpCapture implements CaptureProtocol {
    public static final HttpCapture INSTANCE = new HttpCapture();
    private static final String[] METHODS = {"GET ", "POST ", "PUT ", "DELETE ", "HEAD ", "OPTIONS ", "PATCH ", "TRACE ",
        "CONNECT "};

    private HttpCapture() {
    }

    @Override
    public List<String> protocols() {
        return List.of("http");
    }

    @Override
    public String recognize(byte[] b, int from, int to) {
        return startsRequest(b, from, to) ? "http" : null;
    }

    /** Whether {@code b[from, to)} starts with a request line's method and a space. */
    static boolean startsRequest(byte[] b, int from, int to) {
        for (String m : METHODS) {
            if (to - from > m.length() && HttpBytes.startsWith(b, from, m)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public ConnectionReader newReader(ReaderContext ctx) {
        return new HttpConnectionReader(ctx);
    }
}
