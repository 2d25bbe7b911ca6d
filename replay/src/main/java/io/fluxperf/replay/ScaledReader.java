package io.fluxperf.replay;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import java.io.IOException;

/**
 * One pass of {@code --scale N}: N readers over the same log, taken in turn, so that each command
 * comes N times in a row at the same log time. Copy k (from 1) reads with its keys in the namespace
 * {@code sk:} (before any --key-prefix), through the log reader's own key rewrite, and its original
 * clients numbered apart from the other copies' (client c of copy k is client {@code c·N + k−1}),
 * so each copy of a client keeps a connection of its own and, sharded, may be another agent's.
 *
 * <p>The first copy reports the log's bad lines and skipped lines; the others read the same lines
 * and keep theirs to themselves. The copies share the verb table, so a verb has one id in all.
 */
final class ScaledReader implements LogReader {
    private final LogReader[] copies;
    private int turn;

    private ScaledReader(LogReader[] copies) {
        this.copies = copies;
    }

    /** The namespace of copy {@code k} (from 1): {@code sk:}. */
    static String namespace(int k) {
        return "s" + k + ":";
    }

    /** A pass of {@code scale} copies over {@code plan}'s log, reporting through {@code ctx}. */
    static LogReader open(ReplayPlan plan, ReaderContext ctx, int scale) {
        LogReader[] copies = new LogReader[scale];
        try {
            for (int k = 0; k < scale; k++) {
                ReaderContext c = k == 0 ? plan.context(ctx.bad, ctx.verbs, ctx.stats, namespace(1))
                        : plan.context(new BadLines(false), ctx.verbs, new LogStats(), namespace(k + 1));
                copies[k] = plan.open(c);
            }
        } catch (RuntimeException e) {
            for (LogReader r : copies) {
                if (r != null) {
                    r.close();
                }
            }
            throw e;
        }
        return new ScaledReader(copies);
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        int k = turn;
        if (!copies[k].next(e)) {
            return false; // the copies read the same log: they end together
        }
        if (e.client >= 0) {
            e.client = e.client * copies.length + k;
        }
        turn = k + 1 == copies.length ? 0 : k + 1;
        return true;
    }

    @Override
    public long position() {
        return copies[0].position();
    }

    @Override
    public long size() {
        return copies[0].size();
    }

    @Override
    public long lines() {
        return copies[0].lines();
    }

    @Override
    public void close() {
        for (LogReader r : copies) {
            r.close();
        }
    }
}
