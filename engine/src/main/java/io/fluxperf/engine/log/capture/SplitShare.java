package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;

/**
 * A thread of a split read that reads the connections whose segments the file thread gives it: a
 * {@link CaptureReader} of its own (flow table, reassembly and the protocol's reading, the costly
 * part). What it does is written as events after each item, in order: a connection opened or ended, a
 * command released, counters, bad lines, new verbs, and in a sweep or the end which connection the
 * events that follow belong to; the merger puts them back in packet order.
 */
final class SplitShare implements CaptureReader.Tap {
    final Thread thread;
    volatile boolean waiting;
    private final int index;
    private final SplitRing ring;
    private final CaptureReader reader;
    private final LogStats stats = new LogStats();
    private final BadLines bad;
    private final VerbTable verbs;
    private int verbsSeen;
    private SplitEvents out;

    SplitShare(int index, SplitRing ring, ReaderContext ctx, CaptureSelection selection, String snapReason) {
        this.index = index;
        this.ring = ring;
        this.bad = new BadLines(ctx.bad.strict());
        ReaderContext own = ctx.share(stats, bad);
        this.verbs = own.verbs;
        this.reader = new CaptureReader(own, selection, snapReason, this);
        this.thread = new Thread(this::run, "capture-share-" + index);
        thread.setDaemon(true);
    }

    private void run() {
        for (long k = 0; ; k++) {
            SplitChunk c = ring.published(k, this);
            if (c == null) {
                return;
            }
            SplitItems in = c.in[index];
            out = c.out[index];
            out.recycle(reader);
            out.ensureItems(in.count);
            int i = 0;
            try {
                for (; i < in.count; i++) {
                    handle(in, i);
                    flush();
                    out.itemEnd[i] = out.count;
                }
            } catch (Throwable t) {
                out.failure = t;
                out.failedAt = i;
            }
            out.done = true;
            ring.wakeMerger();
            if (out.failure != null) {
                return;
            }
        }
    }

    private void handle(SplitItems in, int i) {
        CaptureReader r = reader;
        r.now = in.now[i];
        r.packetPosition = in.position[i];
        r.firstPacketNanos = in.first[i];
        switch (in.kind[i]) {
            case SplitItems.SEGMENT -> {
                in.fill(i, r.seg);
                r.segment(in.time[i], in.packet[i]);
            }
            case SplitItems.SWEEP -> r.sweep();
            default -> r.endAll();
        }
    }

    /** Counters, bad lines and new verbs since the last call, as events. */
    private void flush() {
        if (stats.anySkippedOrAdjusted()) {
            LogStats moved = new LogStats();
            moved.add(stats);
            out.add(SplitEvents.STATS, 0, null, moved);
        }
        if (bad.count() > 0) {
            BadLines moved = new BadLines(false);
            moved.take(bad);
            out.add(SplitEvents.BAD, 0, null, moved);
        }
        int n = verbs.size();
        while (verbsSeen < n) {
            out.add(SplitEvents.VERB, verbsSeen, null, verbs.name(verbsSeen));
            verbsSeen++;
        }
    }

    @Override
    public void opened(TcpConnection c) {
        flush();
        out.add(SplitEvents.OPEN, c.slot, null, null);
    }

    @Override
    public void ended(TcpConnection c) {
        flush();
        out.add(SplitEvents.END, c.slot, null, null);
    }

    @Override
    public void released(LogEntry e, TcpConnection c) {
        flush(); // a verb first read in this command is entered before it is given out
        out.add(SplitEvents.RELEASE, c.slot, e, null);
    }

    @Override
    public void group(TcpConnection c) {
        flush();
        out.add(SplitEvents.GROUP, c.slot, null, null);
    }
}
