package io.fluxperf.engine.protocol.memcachebinary;

import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Command;

/**
 * memcached's binary protocol (protocol_binary.h and the "Memcache Binary Protocol" document in
 * memcached's repository): the same commands as {@link io.fluxperf.engine.protocol.memcache.MemcacheProtocol},
 * framed by 24-byte headers.
 */
public final class MemcacheBinaryProtocol implements Protocol {
    public static final String NAME = "memcache-binary";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int defaultPort() {
        return 11211;
    }

    @Override
    public boolean supports(Command command) {
        return switch (command) {
            case GET, GETS, SET, ADD, REPLACE, APPEND, PREPEND, CAS, DELETE, INCR, DECR, TOUCH, FLUSH -> true;
            default -> false;
        };
    }

    @Override
    public ProtocolCodec newCodec(ProtocolOptions options) {
        return new MemcacheBinaryCodec();
    }
}
