package io.fluxperf.replay;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Where a timed replay is on its own schedule, for the progress line: how long the schedule has
 * left, and how long the replay waits across a long gap of the log for its next command. A
 * replay's pace is its log's clock, not how fast it gets through the log's bytes: a log that idles
 * for hours between two commands has read to its end long before its last command is due.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 * <li>One writer, the reader thread, which calls {@link #scheduled} for each command it has given a
 *     send time, in the order it deals them (send times never decrease, {@link Pacer}), and
 *     {@link #readAll()} once every pass is read. One other thread reads it ({@link #at}).</li>
 * <li>The reader's figures are written with release order and read with acquire order: the reader
 *     thread writes no volatile field per command.</li>
 * <li>Gaps longer than {@link #LONG_WAIT_NANOS} are kept, at most {@link #GAPS} of them ahead of the
 *     reporter (the read-ahead's worth); one beyond that is not told, never blocks the reader.</li>
 * </ul>
 */
final class ScheduleProgress {
    /** A wait for the log's next command longer than this is told on the progress line: longer than a person waits unworried. */
    static final long LONG_WAIT_NANOS = 10_000_000_000L;
    /** Long gaps the reader may have read ahead of the reporter. */
    static final int GAPS = 4096;
    private static final VarHandle LAST_OFFSET;
    private static final VarHandle READ_MARK;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LAST_OFFSET = l.findVarHandle(ScheduleProgress.class, "lastOffset", long.class);
            READ_MARK = l.findVarHandle(ScheduleProgress.class, "readMark", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What the progress line says of the schedule at one moment. */
    record At(long leftNanos, long waitNanos) {
        /** Neither is known: no schedule, or it has not started. */
        static final At UNKNOWN = new At(-1, 0);
    }

    /** When the schedule starts, {@link System#nanoTime()}; {@code Long.MIN_VALUE} until the load threads start. */
    private volatile long startNanos = Long.MIN_VALUE;
    private volatile boolean readAll;
    /** The send time of the last command scheduled, ns after the start (all passes). */
    @SuppressWarnings("unused")
    private long lastOffset = -1;
    /** Its pass and place in the log: loop << 44 | position, as a lane's mark. */
    @SuppressWarnings("unused")
    private long readMark;
    /** The reader's own: the send time before, to see a gap. */
    private long previousOffset = -1;
    /** Gaps longer than {@link #LONG_WAIT_NANOS}, {from, to} in ns after the start, in order. */
    private final ArrayBlockingQueue<long[]> gaps = new ArrayBlockingQueue<>(GAPS);

    /** The load threads' schedule starts at {@code nanos} ({@link System#nanoTime()}). */
    void started(long nanos) {
        startNanos = nanos;
    }

    /**
     * The reader gave a command its send time. On the reader thread.
     *
     * @param offsetNanos its send time, ns after the schedule's start
     * @param loop        its pass, from 1
     * @param position    its place in the log, in the unit of the log's size
     */
    void scheduled(long offsetNanos, int loop, long position) {
        if (previousOffset >= 0 && offsetNanos - previousOffset > LONG_WAIT_NANOS) {
            gaps.offer(new long[] {previousOffset, offsetNanos}); // full: this gap goes untold, the reader goes on
        }
        previousOffset = offsetNanos;
        READ_MARK.setRelease(this, (long) loop << 44 | position);
        LAST_OFFSET.setRelease(this, offsetNanos);
    }

    /** Every pass of the log was read: the last send time is the schedule's end. */
    void readAll() {
        readAll = true;
    }

    /**
     * The schedule at {@code nowNanos}: how long it has left (the end's send time when the log was
     * read to its end, else the send times read so far scaled by how much of the log they cover), and
     * the wait for the next command when a long gap of the log lies across now.
     *
     * @param size  the log's size in the unit of its positions; 0 or less when unknown
     * @param loops passes the replay makes
     */
    At at(long nowNanos, long size, int loops) {
        long start = startNanos;
        long last = (long) LAST_OFFSET.getAcquire(this);
        if (start == Long.MIN_VALUE || last < 0) {
            return At.UNKNOWN;
        }
        long now = nowNanos - start;
        long end;
        if (readAll) {
            end = last;
        } else {
            long mark = (long) READ_MARK.getAcquire(this);
            double read = size > 0 ? ((mark >>> 44) - 1 + Math.min(1.0, (double) (mark & ((1L << 44) - 1)) / size)) / loops : 0;
            end = read > 0 ? (long) (last / read) : -1;
        }
        long left = end < 0 ? -1 : Math.max(0, end - now);
        return new At(left, waitAt(now));
    }

    /** The wait until the first command after the long gap that {@code now} lies in; 0 when it lies in none. */
    private long waitAt(long now) {
        long[] g;
        while ((g = gaps.peek()) != null && g[1] <= now) {
            gaps.poll(); // behind the replay: only the reporter takes them
        }
        return g != null && g[0] <= now ? g[1] - now : 0;
    }
}
