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
    /** The test knobs' pacer, told of each request by {@link #served}; null: none. */
    private ReplyPacer pacer;
    /** Requests served since the replies were last taken, and whether one had a slow key (this batch). */
    private int batchRequests;
    private boolean batchSlow;

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

    /** The test knobs' pacer that {@link #served} tells (null: none); a new read batch begins. */
    public final void startBatch(ReplyPacer p) {
        pacer = p;
        batchRequests = 0;
        batchSlow = false;
    }

    /**
     * A request for the key {@code b[off, off + len)} (len 0: none) was answered in this batch:
     * the test knobs count it (a capacity) and look at its key (a slow key prefix).
     */
    protected final void served(byte[] b, int off, int len) {
        ReplyPacer p = pacer;
        if (p != null) {
            batchRequests++;
            if (!batchSlow && len > 0 && p.slowKey(b, off, len)) {
                batchSlow = true;
            }
        }
    }

    /** Requests served since the last call (the replies taken with it); at least the knobs count one per batch. */
    public final int takeBatchRequests() {
        int n = batchRequests;
        batchRequests = 0;
        return n;
    }

    /** Whether this read batch held a request for a slow key. */
    public final boolean batchSlow() {
        return batchSlow;
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
