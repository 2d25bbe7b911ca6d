package io.fluxperf.engine.protocol;

import io.fluxperf.engine.request.Command;

/**
 * A wire protocol the engine can load a server with. The engine knows protocols only through
 * this interface; each lives in its own package and is registered in {@link Protocols}.
 */
public interface Protocol {
    /** The name users type ({@code --protocol memcache}). */
    String name();

    /** The port its servers usually listen on. */
    int defaultPort();

    boolean supports(Command command);

    /** A new codec for one connection: codecs keep per-connection decoding state. */
    ProtocolCodec newCodec(ProtocolOptions options);
}
