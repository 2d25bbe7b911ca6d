package io.fluxperf.replay;

import java.util.Locale;

/**
 * Where a replay is in its log: the line (a trace's record) of the last command sent, how far
 * that is into the whole replay when the log's size is known, and the pass of {@code --loop}.
 * The progress line and each statistics block say it the same way.
 *
 * @param loop     the pass over the log, from 1
 * @param line     the last command's line (or record) number; 0 before the first
 * @param fraction how much of the replay (all passes) lies behind it, 0 to 1; NaN when the log's size is unknown
 */
record LogPosition(int loop, long line, double fraction) {

    /**
     * @param progress {loop, position, line} as {@link ReplaySource#progress()} gives them
     * @param size     the log's size in the unit of the position; 0 or less when unknown
     * @param loops    passes the replay makes
     */
    static LogPosition of(long[] progress, long size, int loops) {
        int loop = (int) Math.max(1, progress[0]);
        double fraction = size > 0 ? ((loop - 1) + Math.min(1.0, (double) progress[1] / size)) / loops : Double.NaN;
        return new LogPosition(loop, progress[2], fraction);
    }

    boolean sizeKnown() {
        return !Double.isNaN(fraction);
    }

    /** The share of the replay behind this position as a percentage with one decimal, e.g. "40.0". */
    String percent() {
        return String.format(Locale.ROOT, "%.1f", 100 * fraction);
    }
}
