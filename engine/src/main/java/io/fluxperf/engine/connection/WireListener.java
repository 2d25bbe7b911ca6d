package io.fluxperf.engine.connection;

import io.netty.buffer.ByteBuf;

/** Hears what a {@link Wire} receives, on the event loop: a {@link TargetConnection}. */
interface WireListener {
    /** Bytes arrived; what is not consumed stays in {@code in} for the next call. */
    void received(Wire from, ByteBuf in);

    /** The peer closed its side with {@code in} still undecoded. */
    void ended(Wire from, ByteBuf in);

    /** A read turn is over. */
    void readComplete();

    /** A reset or broken pipe; {@link #closed} follows. */
    void failed(Wire from, Throwable cause);

    /** The wire is closed, by either side; reported once, never from inside {@link Wire#close()}. */
    void closed(Wire from);
}
