package io.fluxperf.engine.connection;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records what a wire reports. It takes bytes only once {@code wanted} of them are in, so a test
 * can see that what is left stays in the buffer for the next read.
 */
final class RecordingWireListener implements WireListener {
    private final int wanted;
    final ByteArrayOutputStream taken = new ByteArrayOutputStream();
    final AtomicInteger receivedCalls = new AtomicInteger();
    final AtomicInteger closedCalls = new AtomicInteger();
    final List<Throwable> failures = new CopyOnWriteArrayList<>();
    final CompletableFuture<Wire> closed = new CompletableFuture<>();
    volatile boolean ended;
    /** Set by a test around its own call of {@link Wire#close()}: a report inside it is a bug. */
    volatile boolean insideClose;
    volatile boolean closedInsideClose;

    RecordingWireListener() {
        this(1);
    }

    RecordingWireListener(int wanted) {
        this.wanted = wanted;
    }

    @Override
    public void received(Wire from, ByteBuf in) {
        receivedCalls.incrementAndGet();
        take(in);
    }

    private void take(ByteBuf in) {
        if (in.readableBytes() >= wanted) {
            byte[] b = new byte[in.readableBytes()];
            in.readBytes(b);
            taken.writeBytes(b);
        }
    }

    @Override
    public void ended(Wire from, ByteBuf in) {
        take(in);
        ended = true;
    }

    @Override
    public void readComplete() {
    }

    @Override
    public void failed(Wire from, Throwable cause) {
        failures.add(cause);
    }

    @Override
    public void closed(Wire from) {
        closedCalls.incrementAndGet();
        if (insideClose) {
            closedInsideClose = true;
        }
        closed.complete(from);
    }
}
