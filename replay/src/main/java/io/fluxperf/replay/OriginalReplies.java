package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;

/**
 * What the original server answered the commands a replay sent, where the log holds its replies (a
 * packet capture, a fluxperf trace's outcomes): the fidelity block shows it beside what the replay got.
 *
 * @param ok         commands the original server answered with success (a read's hit)
 * @param miss       answered with a miss (a read that found nothing, a write whose condition failed)
 * @param error      answered with an error
 * @param unknown    whose reply the log does not hold (a noreply, a lost reply, a connection picked up mid-stream)
 * @param readHits   reads among {@code ok}
 * @param readMisses reads among {@code miss}
 */
public record OriginalReplies(long ok, long miss, long error, long unknown, long readHits, long readMisses) {

    /** Index of a read answered with a hit in the counts {@link #of} takes (0-3 are {@code LogEntry.REPLY_*}). */
    static final int READ_HIT = 4;
    /** Index of a read answered with a miss. */
    static final int READ_MISS = 5;
    /** Length of the counts {@link #of} takes. */
    static final int COUNTS = 6;

    /**
     * From counts of sent commands indexed by {@code LogEntry.REPLY_*}, reads answered ok or miss
     * counted apart at {@link #READ_HIT} and {@link #READ_MISS} ({@link LaneRecord#originalReply});
     * null when no reply is known (a log without replies).
     */
    static OriginalReplies of(long[] counts) {
        OriginalReplies r = new OriginalReplies(counts[LogEntry.REPLY_OK] + counts[READ_HIT],
                counts[LogEntry.REPLY_MISS] + counts[READ_MISS], counts[LogEntry.REPLY_ERROR],
                counts[LogEntry.REPLY_UNKNOWN], counts[READ_HIT], counts[READ_MISS]);
        return r.ok + r.miss + r.error == 0 ? null : r;
    }

    /** The original hit rate of reads, percent; null without answered reads. */
    Double hitRatePercent() {
        long answered = readHits + readMisses;
        return answered == 0 ? null : 100.0 * readHits / answered;
    }

    OriginalReplies plus(OriginalReplies o) {
        return o == null ? this : new OriginalReplies(ok + o.ok, miss + o.miss, error + o.error, unknown + o.unknown,
                readHits + o.readHits, readMisses + o.readMisses);
    }
}
