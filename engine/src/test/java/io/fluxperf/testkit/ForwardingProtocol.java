package io.fluxperf.testkit;

import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Command;
import java.lang.reflect.Field;
import java.util.function.Function;

/**
 * A protocol that forwards everything to a run's own, for tests that watch it: they override what
 * they look at. {@link #install} puts one in a {@link LoadRun} through its private {@code protocol}
 * field, since the engine has no hook for a test protocol.
 */
public abstract class ForwardingProtocol implements Protocol {
    protected final Protocol inner;

    protected ForwardingProtocol(Protocol inner) {
        this.inner = inner;
    }

    /** Replaces {@code run}'s protocol with {@code wrap} of it; call before {@link LoadRun#execute}. */
    public static <P extends Protocol> P install(LoadRun run, Function<Protocol, P> wrap) {
        try {
            Field field = LoadRun.class.getDeclaredField("protocol");
            field.setAccessible(true);
            P wrapped = wrap.apply((Protocol) field.get(run));
            field.set(run, wrapped);
            return wrapped;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("LoadRun has changed: no field 'protocol' to wrap", e);
        }
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
    public ProtocolCodec newCodec(ProtocolOptions options) {
        return inner.newCodec(options);
    }
}
