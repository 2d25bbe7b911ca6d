package io.fluxperf.testkit;

import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.DatagramFraming;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.ReplyClasses;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetFactory;
import java.util.List;

/**
 * A protocol that forwards everything to another, for tests that watch a run: they override what
 * they look at and hand the wrapper to {@code new LoadRun(config, protocol, listener)}.
 */
public abstract class ForwardingProtocol implements Protocol {
    protected final Protocol inner;

    protected ForwardingProtocol(Protocol inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public int defaultPort() {
        return inner.defaultPort();
    }

    @Override
    public boolean supports(Command command) {
        return inner.supports(command);
    }

    @Override
    public List<ProtocolOption> options() {
        return inner.options();
    }

    @Override
    public CodecFactory codecs(ProtocolOptions options, String server) {
        return inner.codecs(options, server);
    }

    @Override
    public ProtocolOptions forEmbeddedTarget(ProtocolOptions given) {
        return inner.forEmbeddedTarget(given);
    }

    @Override
    public ReplyClasses replyClasses() {
        return inner.replyClasses();
    }

    @Override
    public DatagramFraming datagramFraming() {
        return inner.datagramFraming();
    }

    @Override
    public TargetFactory target() {
        return inner.target();
    }
}
