package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Command;

/** memcached's text protocol (protocol.txt in memcached's repository). */
public final class MemcacheProtocol implements Protocol {
    public static final String NAME = "memcache";

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
        return true;
    }

    @Override
    public ProtocolCodec newCodec(ProtocolOptions options) {
        return new MemcacheTextCodec();
    }
}
