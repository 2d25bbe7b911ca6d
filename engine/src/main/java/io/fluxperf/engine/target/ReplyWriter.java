package io.fluxperf.engine.target;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Puts one connection's reply batches on the wire, in order: at once when there is no
 * {@link ReplyPacer}, otherwise at the time the pacer gives, by a timer on the connection's own
 * event loop (never by sleeping on it).
 *
 * <p>A server protocol handler collects the replies to one read batch into one buffer and hands it
 * here from {@code channelReadComplete}, so that a pipelining client costs one write syscall per
 * batch, not one per reply. Held batches are kept in arrival order and released by a single timer
 * armed for the oldest one; since release times are monotonic per connection, order is kept.
 *
 * <p>Precision: an idle event loop (and, in a VM, an idle vCPU) wakes up tens of microseconds
 * after its timer is due. The writer learns that lateness (a moving average), arms its timer that
 * much early and spins the rest of the way, at most {@value #MAX_SPIN_NANOS} ns, so replies go out
 * within a few microseconds of their due time and never before it. The spin costs at most that
 * much CPU per timer, and only when pacing, which is a test knob.
 *
 * <p>Confined to the connection's event loop; not thread-safe.
 */
public final class ReplyWriter {
    /** Held bytes above which the handler should stop reading until the backlog drains. */
    public static final int HELD_HIGH_WATER_MARK = 4 << 20;
    private static final int HELD_LOW_WATER_MARK = 1 << 20;
    /** Bound on the final busy-wait before a due time, and so on the learned timer lateness. */
    static final long MAX_SPIN_NANOS = 100_000;
    private static final long INITIAL_LATENESS_NANOS = 50_000;

    private final ChannelHandlerContext ctx;
    private final ReplyPacer pacer;
    private final Runnable onBacklogDrained;
    private final Runnable releaseTask = this::releaseDue;

    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();
    private long[] heldDue = new long[16];
    private int dueHead;
    private long heldBytes;
    private boolean timerArmed;
    /** When the armed timer was asked to fire (System.nanoTime()). */
    private long armedFor;
    /** Moving average of how late this connection's timers fire, in ns. */
    private long latenessNanos = INITIAL_LATENESS_NANOS;
    private boolean backlogReported;
    private boolean closeWhenWritten;
    private boolean closed;

    /**
     * @param pacer            null to write at once
     * @param onBacklogDrained called when held replies fall below the low-water mark again
     *                         (the handler resumes reading if it had paused)
     */
    public ReplyWriter(ChannelHandlerContext ctx, ReplyPacer pacer, Runnable onBacklogDrained) {
        this.ctx = ctx;
        this.pacer = pacer;
        this.onBacklogDrained = onBacklogDrained;
    }

    /**
     * Takes ownership of {@code batch} and writes it when due.
     *
     * @param arrivalNanos {@code System.nanoTime()} when the read batch that produced it began
     * @param flush        whether this ends the read batch (false for a partial batch written early
     *                     because it grew large)
     */
    public void write(ByteBuf batch, long arrivalNanos, boolean flush) {
        write(batch, arrivalNanos, flush, 1, false);
    }

    /** The same for the replies to {@code requests} requests, {@code slow} when their batch held a slow key. */
    public void write(ByteBuf batch, long arrivalNanos, boolean flush, int requests, boolean slow) {
        if (closed) {
            batch.release();
            return;
        }
        if (pacer == null) {
            if (flush) {
                ctx.writeAndFlush(batch, ctx.voidPromise());
            } else {
                ctx.write(batch, ctx.voidPromise());
            }
            return;
        }
        long now = System.nanoTime();
        long due = pacer.releaseTime(arrivalNanos, now, requests, slow);
        if (held.isEmpty() && due <= now) {
            ctx.writeAndFlush(batch, ctx.voidPromise());
            return;
        }
        hold(batch, due);
        if (!timerArmed) {
            arm(due, now);
        }
    }

    /** Flushes batches written with {@code flush == false}; a no-op when pacing (held batches flush on release). */
    public void flush() {
        if (pacer == null && !closed) {
            ctx.flush();
        }
    }

    /** Whether so much is held that the connection should stop reading for now. */
    public boolean backlogged() {
        if (heldBytes > HELD_HIGH_WATER_MARK) {
            backlogReported = true;
        }
        return backlogReported;
    }

    /** Closes the connection once everything written or held so far is on the wire (memcached's {@code quit}). */
    public void closeWhenWritten() {
        if (closed) {
            return;
        }
        if (held.isEmpty()) {
            closed = true;
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        } else {
            closeWhenWritten = true;
        }
    }

    /** Drops whatever is still held; for a connection that has closed. */
    public void discard() {
        closed = true;
        ByteBuf b;
        while ((b = held.poll()) != null) {
            b.release();
        }
        heldBytes = 0;
    }

    private void hold(ByteBuf batch, long due) {
        int size = held.size();
        if (size == heldDue.length) {
            long[] bigger = new long[size * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = heldDue[(dueHead + i) % size];
            }
            heldDue = bigger;
            dueHead = 0;
        }
        heldDue[(dueHead + size) % heldDue.length] = due;
        held.add(batch);
        heldBytes += batch.readableBytes();
    }

    private void arm(long due, long now) {
        timerArmed = true;
        armedFor = Math.max(now, due - latenessNanos);
        ctx.executor().schedule(releaseTask, armedFor - now, TimeUnit.NANOSECONDS);
    }

    private void releaseDue() {
        timerArmed = false;
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        long late = Math.min(MAX_SPIN_NANOS, Math.max(0, now - armedFor));
        latenessNanos += (late - latenessNanos) / 8;
        long headDue = held.isEmpty() ? now : heldDue[dueHead];
        if (headDue > now && headDue - now <= MAX_SPIN_NANOS) {
            while ((now = System.nanoTime()) < headDue) {
                Thread.onSpinWait();
            }
        }
        boolean wrote = false;
        while (!held.isEmpty() && heldDue[dueHead] <= now) {
            ByteBuf b = held.poll();
            dueHead = (dueHead + 1) % heldDue.length;
            heldBytes -= b.readableBytes();
            ctx.write(b, ctx.voidPromise());
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
        if (!held.isEmpty()) {
            arm(heldDue[dueHead], now);
        } else if (closeWhenWritten) {
            closeWhenWritten();
        }
        if (backlogReported && heldBytes < HELD_LOW_WATER_MARK) {
            backlogReported = false;
            onBacklogDrained.run();
        }
    }
}
