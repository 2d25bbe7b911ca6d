package io.fluxperf.engine.target;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.function.Consumer;

/**
 * What every protocol's command processor shares: the reply batch of the current read (one buffer
 * that the commands append their replies to, taken by the connection handler once the read batch
 * ends) and the clock of that batch.
 *
 * <p>A batch that grows past {@link #EARLY_WRITE_BYTES} is handed to the early writer mid-read
 * ({@link #writeEarlyIfLarge}), so that a client pipelining large replies cannot make it grow
 * without bound. Confined to the connection's event loop; not thread-safe.
 */
public abstract class CommandProcessorBase {
    /** A reply batch that grows past this is written before the read batch ends, to bound memory. */
    public static final int EARLY_WRITE_BYTES = 256 << 10;

    private final ByteBufAllocator alloc;
    private final int initialCapacity;
    private final Consumer<ByteBuf> earlyWriter;
    private ByteBuf out;
    /** The wall-clock time of the current read batch, in milliseconds (expiry times are wall-clock). */
    protected long now;

    /**
     * @param initialCapacity bytes of a new reply batch buffer
     * @param earlyWriter     takes a reply batch that grew past {@link #EARLY_WRITE_BYTES} mid-read
     */
    protected CommandProcessorBase(ByteBufAllocator alloc, int initialCapacity, Consumer<ByteBuf> earlyWriter) {
        this.alloc = alloc;
        this.initialCapacity = initialCapacity;
        this.earlyWriter = earlyWriter;
    }

    /** The clock for the commands of the next read (wall-clock ms). */
    public final void now(long nowMillis) {
        this.now = nowMillis;
    }

    /** The replies collected since the last call, or null if none; the caller owns the buffer. */
    public final ByteBuf takeReplies() {
        ByteBuf b = out;
        out = null;
        if (b != null && !b.isReadable()) {
            b.release();
            return null;
        }
        return b;
    }

    /** Releases the buffers of a connection that closed. */
    public void release() {
        if (out != null) {
            out.release();
            out = null;
        }
    }

    /** The current reply batch, allocated on first use. */
    protected final ByteBuf out() {
        if (out == null) {
            out = alloc.ioBuffer(initialCapacity);
        }
        return out;
    }

    /** Hands the reply batch to the early writer if it grew past {@link #EARLY_WRITE_BYTES}. */
    protected final void writeEarlyIfLarge() {
        if (out != null && out.readableBytes() >= EARLY_WRITE_BYTES) {
            ByteBuf b = out;
            out = null;
            earlyWriter.accept(b);
        }
    }
}
