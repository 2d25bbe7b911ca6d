package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The giving out of a split read, on the thread that calls {@link CaptureSplitReader#next}: it goes
 * through each chunk's items in packet order and takes each item's events from the share that handled
 * it. It numbers clients in the order connections open and verbs in the order they are first read, as
 * one reader does, and keeps the list of live connections as one reader keeps it (removal by swapping
 * the last in): a sweep, and the end, take the connections' events in that list's order, which is the
 * order one reader releases them in. Entries are the shares' own, handed back when their chunk is read
 * again: nothing is allocated per command.
 */
final class SplitMerger {
    private final ReaderContext ctx;
    private final SplitRing ring;
    private final int threads;
    private long expected;
    private SplitChunk current;
    private int item;
    private final int[] cursor;
    private LogEntry[] ready = new LogEntry[256];
    private int readyCount;
    private int readyIndex;
    /** Per share, by connection slot: the client number, and the place in {@link #liveShare}/{@link #liveSlot}. */
    private final int[][] clientOf;
    private final int[][] liveIndexOf;
    private final int[][] groupStamp;
    private final int[][] groupFrom;
    private final int[][] groupTo;
    private int stamp;
    /** Per share: its verb ids in the log's table. */
    private final int[][] verbOf;
    private int[] liveShare = new int[64];
    private int[] liveSlot = new int[64];
    private int liveCount;
    private int nextClient;
    /** The file position and packets read as of the last chunk given out whole. */
    long position;
    long lines;

    SplitMerger(ReaderContext ctx, SplitRing ring, int threads) {
        this.ctx = ctx;
        this.ring = ring;
        this.threads = threads;
        this.cursor = new int[threads];
        this.clientOf = new int[threads][64];
        this.liveIndexOf = new int[threads][64];
        this.groupStamp = new int[threads][64];
        this.groupFrom = new int[threads][64];
        this.groupTo = new int[threads][64];
        this.verbOf = new int[threads][16];
    }

    /** Moves the next command into {@code e}; false when every chunk is given out. */
    boolean next(LogEntry e) throws IOException {
        while (readyIndex == readyCount) {
            readyIndex = 0;
            readyCount = 0;
            if (!step()) {
                return false;
            }
        }
        LogEntry r = ready[readyIndex];
        ready[readyIndex++] = null;
        CaptureReader.moveTo(r, e);
        return true;
    }

    /** Takes the next item's events; false when every chunk is given out. */
    private boolean step() throws IOException {
        if (current == null) {
            SplitChunk c = ring.done(expected);
            if (c == null) {
                return false;
            }
            current = c;
            item = 0;
            Arrays.fill(cursor, 0);
        }
        SplitChunk c = current;
        if (item < c.items) {
            int w = c.itemShare[item++];
            if (w >= 0) {
                events(w, c.out[w], cursor[w]++);
            } else {
                groups(c, w == -1 - SplitItems.END);
            }
            return true;
        }
        position = c.position;
        lines = c.packets;
        current = null;
        ring.release(expected++);
        return true;
    }

    /** The events of share {@code w}'s {@code local}-th item of the chunk, in order. */
    private void events(int w, SplitEvents out, int local) throws IOException {
        out.throwIfFailedAt(local);
        apply(w, out, out.itemFrom(local), out.itemEnd[local]);
    }

    /**
     * A sweep or the end: every share's events grouped by connection, taken in the order of the live
     * connections as one reader keeps them.
     */
    private void groups(SplitChunk c, boolean end) throws IOException {
        stamp++;
        for (int w = 0; w < threads; w++) {
            SplitEvents out = c.out[w];
            int local = cursor[w]++;
            out.throwIfFailedAt(local);
            int from = out.itemFrom(local);
            int to = out.itemEnd[local];
            int open = -1;
            for (int i = from; i < to; i++) {
                if (out.kind[i] == SplitEvents.GROUP) {
                    if (open >= 0) {
                        groupTo[w][open] = i;
                    } else {
                        apply(w, out, from, i); // what came before the first group
                    }
                    open = out.slot[i];
                    grow(w, open);
                    groupStamp[w][open] = stamp;
                    groupFrom[w][open] = i + 1;
                }
            }
            if (open >= 0) {
                groupTo[w][open] = to;
            } else {
                apply(w, out, from, to);
            }
        }
        if (!end) {
            for (int i = 0; i < liveCount; i++) {
                group(c, liveShare[i], liveSlot[i]);
            }
            return;
        }
        while (liveCount > 0) {
            int w = liveShare[0];
            int slot = liveSlot[0];
            if (groupStamp[w][slot] != stamp) {
                throw new IllegalStateException("a connection live at the capture's end was not ended by its share");
            }
            group(c, w, slot);
            if (liveCount > 0 && liveShare[0] == w && liveSlot[0] == slot) {
                throw new IllegalStateException("a connection's end did not end it");
            }
        }
    }

    private void group(SplitChunk c, int w, int slot) {
        if (groupStamp[w][slot] == stamp) {
            groupStamp[w][slot] = 0;
            apply(w, c.out[w], groupFrom[w][slot], groupTo[w][slot]);
        }
    }

    private void apply(int w, SplitEvents out, int from, int to) {
        for (int i = from; i < to; i++) {
            int slot = out.slot[i];
            switch (out.kind[i]) {
                case SplitEvents.RELEASE -> {
                    LogEntry e = out.entry[i];
                    e.client = clientOf[w][slot];
                    if (e.verb != VerbTable.OVERFLOW) {
                        e.verb = verbOf[w][e.verb];
                    }
                    if (readyCount == ready.length) {
                        ready = Arrays.copyOf(ready, readyCount * 2);
                    }
                    ready[readyCount++] = e;
                }
                case SplitEvents.OPEN -> {
                    grow(w, slot);
                    clientOf[w][slot] = nextClient++;
                    if (liveCount == liveShare.length) {
                        liveShare = Arrays.copyOf(liveShare, liveCount * 2);
                        liveSlot = Arrays.copyOf(liveSlot, liveCount * 2);
                    }
                    liveIndexOf[w][slot] = liveCount;
                    liveShare[liveCount] = w;
                    liveSlot[liveCount++] = slot;
                }
                case SplitEvents.END -> {
                    int at = liveIndexOf[w][slot];
                    if (at >= 0) {
                        int lastShare = liveShare[--liveCount];
                        int lastSlot = liveSlot[liveCount];
                        liveShare[at] = lastShare;
                        liveSlot[at] = lastSlot;
                        liveIndexOf[lastShare][lastSlot] = at;
                        liveIndexOf[w][slot] = -1;
                    }
                }
                case SplitEvents.STATS -> ctx.stats.add((LogStats) out.ref[i]);
                case SplitEvents.BAD -> ctx.bad.take((BadLines) out.ref[i]);
                case SplitEvents.VERB -> {
                    byte[] name = ((String) out.ref[i]).getBytes(StandardCharsets.ISO_8859_1);
                    if (slot >= verbOf[w].length) {
                        verbOf[w] = Arrays.copyOf(verbOf[w], Math.max(slot + 1, verbOf[w].length * 2));
                    }
                    verbOf[w][slot] = ctx.verbs.id(name, 0, name.length);
                }
                case SplitEvents.GROUP -> {
                    // only in a sweep or the end, taken apart by groups()
                }
                default -> throw new IllegalStateException("event " + out.kind[i]);
            }
        }
    }

    private void grow(int w, int slot) {
        if (slot < clientOf[w].length) {
            return;
        }
        int n = Math.max(slot + 1, clientOf[w].length * 2);
        clientOf[w] = Arrays.copyOf(clientOf[w], n);
        liveIndexOf[w] = Arrays.copyOf(liveIndexOf[w], n);
        groupStamp[w] = Arrays.copyOf(groupStamp[w], n);
        groupFrom[w] = Arrays.copyOf(groupFrom[w], n);
        groupTo[w] = Arrays.copyOf(groupTo[w], n);
    }
}
