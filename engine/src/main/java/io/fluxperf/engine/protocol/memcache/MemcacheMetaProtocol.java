package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.memcache.log.MemcacheLogFormats;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetFactory;
import java.util.List;

/**
 * memcached's meta protocol ({@code mg}, {@code ms}, {@code md}, {@code ma}, {@code mn},
 * {@code me}; protocol.txt, "Meta Commands"), the dialect of the text protocol that memcached
 * recommends since 1.6: the same commands as {@link MemcacheProtocol} (and exists, as {@code me}),
 * written as {@link MemcacheMetaCodec} describes, with the flags of {@link MetaOptions}. The embedded
 * server answers it on the same port as text and binary, as memcached does; a raw stream whose
 * first command is a meta one replays with it ({@link MemcacheLogFormats#META}).
 */
public final class MemcacheMetaProtocol implements Protocol {
    public static final String NAME = "memcache-meta";

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
            case GET, GETS, SET, ADD, REPLACE, APPEND, PREPEND, CAS, DELETE, INCR, DECR, TOUCH, EXISTS, FLUSH -> true;
            default -> false;
        };
    }

    @Override
    public List<ProtocolOption> options() {
        return MetaOptions.DECLARED;
    }

    @Override
    public CodecFactory codecs(ProtocolOptions options, String server) {
        MetaOptions meta = MetaOptions.of(options);
        return () -> new MemcacheMetaCodec(meta);
    }

    @Override
    public List<LogFormat> logFormats() {
        return List.of(MemcacheLogFormats.META);
    }

    /** The embedded memcache server, which answers meta commands beside text and binary ones. */
    @Override
    public TargetFactory target() {
        return MemcacheTargetServer::start;
    }
}
