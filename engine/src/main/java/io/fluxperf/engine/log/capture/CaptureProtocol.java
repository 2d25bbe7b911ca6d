package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.ReaderContext;
import java.util.List;
import java.util.Set;

/**
 * A protocol's reading of packet captures: how its clients' first bytes look, and a reader of one
 * connection's two byte streams. A protocol offers one through
 * {@link io.fluxperf.engine.protocol.Protocol#capture()}; its implementation lives in the
 * protocol's {@code log} package, while the capture layer (this package) knows no protocol.
 */
public interface CaptureProtocol {
    /**
     * The protocols a replay of such connections may go out with, the usual one first (memcache
     * reads its text and binary protocols: {@code memcache}, {@code memcache-binary}).
     */
    List<String> protocols();

    /**
     * The protocol of a connection whose client sent {@code b[from, to)} first (the start of its
     * first segment, at most a few hundred bytes): one of {@link #protocols()}, or null when the bytes
     * are not this protocol's.
     */
    String recognize(byte[] b, int from, int to);

    /**
     * The protocol to replay a server's connections with, given the ones {@link #recognize} named
     * for them: the one they agree on, else the first of {@link #protocols()} (memcache's text
     * protocol sends what a mix of text and binary clients sent).
     */
    default String replayProtocol(Set<String> recognized) {
        return recognized.size() == 1 ? recognized.iterator().next() : protocols().get(0);
    }

    /**
     * A reader of one connection; the capture resets it ({@link ConnectionReader#reset}) for each
     * new connection and keeps it as long as the connection lasts.
     */
    ConnectionReader newReader(ReaderContext ctx);
}
