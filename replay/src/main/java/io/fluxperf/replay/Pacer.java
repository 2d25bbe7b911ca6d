package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;

/**
 * Gives each command its send time, in log order: the log's own time since the first command,
 * divided by the speed, with idle gaps longer than {@code --max-wait} (in replay time) cut to it,
 * at most {@code --rate-cap} commands per second, and each pass of {@code --loop} starting where
 * the previous ended. A command whose log time is earlier than one already scheduled (later than
 * the read-ahead could sort) goes at once, never before its predecessors: send times never
 * decrease. Offsets are computed from the loop's start, not summed gap by gap, so rounding never
 * accumulates. Beside the send time, each command gets its time since the pass's first command on
 * the log's own clock, by which a report names a place in the log. Used by the reader thread only.
 */
final class Pacer {
    private final double speed;
    private final long maxWaitNanos;
    private final double capIntervalNanos;
    private long loopBase;
    private long loopStart = LogEntry.NO_TIME;
    /** The log time of the pass's first command with a time, at any speed (for {@code sourceNanos}). */
    private long passStart = LogEntry.NO_TIME;
    private long latest = LogEntry.NO_TIME;
    private long cut;
    private long lastOffset;
    private double capNext;

    /**
     * @param speed        log time / replay time; 0 = as fast as possible (no schedule)
     * @param maxWaitNanos longest idle gap in replay time, ns; 0 = no limit
     * @param rateCap      most commands per second in total; 0 = no limit
     */
    Pacer(double speed, long maxWaitNanos, double rateCap) {
        this.speed = speed;
        this.maxWaitNanos = maxWaitNanos;
        this.capIntervalNanos = rateCap > 0 ? 1e9 / rateCap : 0;
    }

    /** A new pass over the log starts at the last send time of the previous one. */
    void newLoop() {
        loopBase = lastOffset;
        loopStart = LogEntry.NO_TIME;
        passStart = LogEntry.NO_TIME;
        latest = LogEntry.NO_TIME;
        cut = 0;
    }

    /** Sets {@code e.scheduled}, {@code e.offsetNanos} and {@code e.sourceNanos}. */
    void schedule(LogEntry e) {
        long t = e.timeNanos;
        if (t != LogEntry.NO_TIME) {
            if (passStart == LogEntry.NO_TIME) {
                passStart = t;
            }
            e.sourceNanos = Math.max(0, t - passStart); // one earlier than the first, beyond the read-ahead: at 0
        } else {
            e.sourceNanos = -1;
        }
        boolean timed = speed > 0 && t != LogEntry.NO_TIME;
        long offset = lastOffset;
        if (timed) {
            if (loopStart == LogEntry.NO_TIME) {
                loopStart = t;
                latest = t;
            }
            if (t > latest) {
                long gap = t - latest;
                if (maxWaitNanos > 0 && gap / speed > maxWaitNanos) {
                    cut += gap - (long) (maxWaitNanos * speed);
                }
                latest = t;
            }
            offset = Math.max(lastOffset, loopBase + (long) ((latest - loopStart - cut) / speed));
        }
        if (capIntervalNanos > 0) {
            offset = Math.max(offset, (long) capNext);
            capNext = offset + capIntervalNanos;
        }
        e.scheduled = timed || capIntervalNanos > 0;
        if (e.scheduled) {
            e.offsetNanos = offset;
            lastOffset = offset;
        }
    }

    /** The last send time given, ns after the start. */
    long lastOffset() {
        return lastOffset;
    }

    boolean paced() {
        return speed > 0 || capIntervalNanos > 0;
    }
}
