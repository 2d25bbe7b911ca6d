package io.fluxperf.engine.log.capture;

import java.util.Arrays;

/**
 * A run of packets: each share's segments (and the sweeps and end every share gets), and what the
 * shares made of them. A chunk is the unit handed from the file thread to the shares and on to the
 * merger, so its items in packet order are what lets the merger put the shares' events back in order.
 */
final class SplitChunk {
    /** Items (segments, sweeps) in a chunk. */
    static final int ITEMS = 2048;
    /** Payload bytes after which a chunk is handed over. */
    static final int BYTES = 1 << 19;

    /** The chunk's number once published, read by the shares and the merger; written last. */
    volatile long seq = -1;
    final SplitItems[] in;
    final SplitEvents[] out;
    int items;
    /** Per item in packet order: the share that handles it, or -1 - kind for an item of every share. */
    int[] itemShare = new int[ITEMS + 2];
    long position;
    long packets;
    private int bytes;

    SplitChunk(int threads) {
        in = new SplitItems[threads];
        out = new SplitEvents[threads];
        for (int i = 0; i < threads; i++) {
            in[i] = new SplitItems();
            out[i] = new SplitEvents();
        }
    }

    void clear() {
        items = 0;
        bytes = 0;
        for (SplitItems i : in) {
            i.clear();
        }
        for (SplitEvents o : out) {
            o.done = false;
        }
    }

    void add(int w, int payload) {
        if (items == itemShare.length) {
            itemShare = Arrays.copyOf(itemShare, items * 2);
        }
        itemShare[items++] = w;
        bytes += payload;
    }

    void addAll(byte kind, long now, long pos, long first) {
        if (items == itemShare.length) {
            itemShare = Arrays.copyOf(itemShare, items * 2);
        }
        itemShare[items++] = -1 - kind;
        for (SplitItems i : in) {
            i.mark(kind, now, pos, first);
        }
    }

    boolean full() {
        return items >= ITEMS || bytes >= BYTES;
    }

    boolean done() {
        for (SplitEvents o : out) {
            if (!o.done) {
                return false;
            }
        }
        return true;
    }
}
