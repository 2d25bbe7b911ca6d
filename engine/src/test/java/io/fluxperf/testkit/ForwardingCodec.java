package io.fluxperf.testkit;

import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;

/** A codec that forwards everything to a run's own, for tests that watch it: they override what they look at. */
public class ForwardingCodec implements ProtocolCodec {
    protected final ProtocolCodec inner;

    public ForwardingCodec(ProtocolCodec inner) {
        this.inner = inner;
    }

    @Override
    public boolean writeHandshake(ByteBuf out) {
        return inner.writeHandshake(out);
    }

    @Override
    public boolean hasHandshake() {
        return inner.hasHandshake();
    }

    @Override
    public boolean resetForNewConnection() {
        return inner.resetForNewConnection();
    }

    @Override
    public int decodeHandshake(ByteBuf in) throws ProtocolException {
        return inner.decodeHandshake(in);
    }

    @Override
    public void encode(Request request, ByteBuf out) {
        inner.encode(request, out);
    }

    @Override
    public int decode(ByteBuf in, Request request) throws ProtocolException {
        return inner.decode(in, request);
    }

    @Override
    public int replyClass() {
        return inner.replyClass();
    }

    @Override
    public int decodeAtEnd(ByteBuf in, Request request) throws ProtocolException {
        return inner.decodeAtEnd(in, request);
    }

    @Override
    public boolean closesConnection() {
        return inner.closesConnection();
    }
}
