package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Command;

/**
 * Redis' RESP: RESP2, or RESP3 after {@code HELLO 3} ({@code --resp 3}); AUTH and SELECT from the
 * {@link ProtocolOptions}. What each command sends is described on {@link RespCodec}.
 */
public final class RespProtocol implements Protocol {
    public static final String NAME = "redis";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int defaultPort() {
        return 6379;
    }

    @Override
    public boolean supports(Command command) {
        return RespCommands.SUPPORTED.contains(command);
    }

    @Override
    public ProtocolCodec newCodec(ProtocolOptions options) {
        return new RespCodec(options);
    }
}
