package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.capture.CaptureProtocol;
import io.fluxperf.engine.protocol.resp.log.RespCapture;
import io.fluxperf.engine.protocol.ClusterProtocol;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.resp.log.RedisMonitorFormat;
import io.fluxperf.engine.protocol.resp.target.RespTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetFactory;
import java.util.List;

/**
 * Redis' RESP: RESP2, or RESP3 after {@code HELLO 3} ({@code --resp 3}); AUTH and SELECT from
 * {@link RespOptions}. What each command sends is described on {@link RespRequestEncoder}; the embedded
 * server is {@link RespTargetServer}.
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

    /** The embedded server runs no Lua and has no publish/subscribe: scripts and publishes need a real redis. */
    @Override
    public boolean targetAnswers(Command command) {
        return supports(command) && command != Command.EVAL && command != Command.EVALSHA && command != Command.PUBLISH;
    }

    @Override
    public List<ProtocolOption> options() {
        return RespOptions.DECLARED;
    }

    @Override
    public CodecFactory codecs(ProtocolOptions options, String server) {
        RespOptions resp = RespOptions.of(options);
        return () -> new RespCodec(resp);
    }

    /** The embedded server has no password: AUTH is left out, SELECT and HELLO 3 stay. */
    @Override
    public ProtocolOptions forEmbeddedTarget(ProtocolOptions given) {
        ProtocolOptions kept = ProtocolOptions.none();
        for (ProtocolOptions.Value v : given.values()) {
            if (!v.option().equals("user") && !v.option().equals("password")) {
                kept = kept.with(v.option(), v.text(), v.place());
            }
        }
        return kept;
    }

    /** Connections read from a packet capture: RESP commands and replies ({@link RespCapture}). */
    @Override
    public CaptureProtocol capture() {
        return RespCapture.INSTANCE;
    }

    @Override
    public List<LogFormat> logFormats() {
        return List.of(RedisMonitorFormat.INSTANCE);
    }

    /** A RESP value: a type byte ({@code + - : $ *}, RESP3's too) and no control character after it before the line's end. */
    @Override
    public boolean looksLikeItsReply(byte[] start) {
        return RespIdleRoundTrip.isRespValue(start);
    }

    /** {@code PING} ({@link RespIdleRoundTrip}). */
    @Override
    public io.fluxperf.engine.protocol.IdleRoundTrip idleRoundTrip(ProtocolOptions options, String server,
            List<io.fluxperf.engine.config.WorkloadConfig> workloads) {
        return new RespIdleRoundTrip();
    }

    /** redis' {@code TIME} ({@link RespServerClock}). */
    @Override
    public io.fluxperf.engine.protocol.ServerClock serverClock() {
        return new RespServerClock();
    }

    /** PUBLISH to subscribers (SSUBSCRIBE, sharded, on a cluster): {@link RespSubscriberCodec}. */
    @Override
    public io.fluxperf.engine.protocol.PubSubProtocol pubSub() {
        return RespSubscriberCodec::new;
    }

    /** redis Cluster ({@code --cluster}): {@link RespClusterProtocol}. */
    @Override
    public ClusterProtocol cluster() {
        return RespClusterProtocol.INSTANCE;
    }

    @Override
    public TargetFactory target() {
        return RespTargetServer::start;
    }
}
