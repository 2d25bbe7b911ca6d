package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;
import java.io.IOException;
import java.util.Arrays;

/**
 * What one share made of its items of a {@link SplitChunk}: events, and where each item's end. It is
 * the only thing a share hands the merger, so a share's failure travels here too, thrown where the
 * merger reaches the item that failed.
 */
final class SplitEvents {
    static final byte RELEASE = 0;
    static final byte OPEN = 1;
    static final byte END = 2;
    static final byte GROUP = 3;
    static final byte STATS = 4;
    static final byte BAD = 5;
    static final byte VERB = 6;

    volatile boolean done;
    Throwable failure;
    int failedAt;
    int count;
    byte[] kind = new byte[1024];
    int[] slot = new int[1024];
    LogEntry[] entry = new LogEntry[1024];
    Object[] ref = new Object[1024];
    int[] itemEnd = new int[256];

    int itemFrom(int local) {
        return local == 0 ? 0 : itemEnd[local - 1];
    }

    void add(byte k, int s, LogEntry e, Object r) {
        if (count == kind.length) {
            int n = count * 2;
            kind = Arrays.copyOf(kind, n);
            slot = Arrays.copyOf(slot, n);
            entry = Arrays.copyOf(entry, n);
            ref = Arrays.copyOf(ref, n);
        }
        kind[count] = k;
        slot[count] = s;
        entry[count] = e;
        ref[count] = r;
        count++;
    }

    /** Hands the entries the merger has given out back to the share's reader, and empties the events. */
    void recycle(CaptureReader reader) {
        for (int i = 0; i < count; i++) {
            LogEntry e = entry[i];
            if (e != null) {
                reader.recycle(e);
                entry[i] = null;
            }
            ref[i] = null;
        }
        count = 0;
        failure = null;
    }

    void ensureItems(int n) {
        if (itemEnd.length < n) {
            itemEnd = Arrays.copyOf(itemEnd, Math.max(n, itemEnd.length * 2));
        }
    }

    /** Throws the share's failure once the merger reaches the {@code local}-th item, the one that failed. */
    void throwIfFailedAt(int local) throws IOException {
        if (failure != null && local >= failedAt) {
            throw SplitRing.rethrown(failure);
        }
    }
}
