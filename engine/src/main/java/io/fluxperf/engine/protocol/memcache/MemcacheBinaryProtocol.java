package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetFactory;

/**
 * memcached's binary protocol (protocol_binary.h and the "Memcache Binary Protocol" document in
 * memcached's repository): the same commands as {@link MemcacheProtocol},
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
    public CodecFactory codecs(ProtocolOptions options, String server) {
        return MemcacheBinaryCodec::new;
    }

    /** A binary protocol response: a header of 24 bytes or more that starts with the response magic. */
    @Override
    public boolean looksLikeItsReply(byte[] start) {
        return start.length >= MemcacheIdleRoundTrip.HEADER && (start[0] & 0xff) == MemcacheIdleRoundTrip.RESPONSE_MAGIC;
    }

    /** {@code version} ({@link MemcacheIdleRoundTrip}). */
    @Override
    public io.fluxperf.engine.protocol.IdleRoundTrip idleRoundTrip(ProtocolOptions options, String server,
            java.util.List<io.fluxperf.engine.config.WorkloadConfig> workloads) {
        return MemcacheIdleRoundTrip.binary();
    }

    /** The embedded memcache server, which tells the two protocols apart per connection. */
    @Override
    public TargetFactory target() {
        return MemcacheTargetServer::start;
    }
}
