package io.fluxperf.engine.log;

import java.util.Arrays;

/**
 * Original clients (a MONITOR address, a klog peer, a watch cfd, a trace connection) numbered
 * 0, 1, 2, … in the order they first appear, looked up from bytes without allocating after a
 * client's first sighting. Single-threaded (the reader's).
 *
 * <p>A log read in parts by several threads gives each thread a table in front of a shared one
 * ({@link #ClientTable(ClientTable)}): it asks the shared table, under its lock, only at a client's
 * first sighting in its thread, so that every part numbers a client alike (in the order the threads
 * first saw them; the reader that puts the parts back in order numbers them again in log order).
 */
public final class ClientTable {
    private byte[][] keys = new byte[1024][];
    private int[] ids = new int[1024];
    private int size;
    /** The table this one stands in front of, or null. */
    private final ClientTable shared;

    public ClientTable() {
        this.shared = null;
    }

    /** A table of one reader thread in front of {@code shared} (see the class comment). */
    public ClientTable(ClientTable shared) {
        this.shared = shared;
    }

    /** The index of the client named by {@code b[from, to)}. */
    public int id(byte[] b, int from, int to) {
        int mask = keys.length - 1;
        int h = hash(b, from, to);
        for (int i = h & mask; ; i = (i + 1) & mask) {
            byte[] k = keys[i];
            if (k == null) {
                int id;
                if (shared != null) {
                    synchronized (shared) {
                        id = shared.id(b, from, to);
                    }
                } else {
                    id = size;
                }
                keys[i] = Arrays.copyOfRange(b, from, to);
                ids[i] = id;
                size++;
                if (size * 2 > keys.length) {
                    grow();
                }
                return id;
            }
            if (Arrays.equals(k, 0, k.length, b, from, to)) {
                return ids[i];
            }
        }
    }

    /** The index of a client known by a number (watch's cfd, a trace's connection id). */
    public int id(long number) {
        byte[] scratch = this.scratch;
        for (int i = 0; i < 8; i++) {
            scratch[i] = (byte) (number >>> (8 * i));
        }
        return id(scratch, 0, 8);
    }

    private final byte[] scratch = new byte[8];

    public int size() {
        return size;
    }

    private void grow() {
        byte[][] oldKeys = keys;
        int[] oldIds = ids;
        keys = new byte[oldKeys.length * 2][];
        ids = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            byte[] k = oldKeys[j];
            if (k == null) {
                continue;
            }
            int i = hash(k, 0, k.length) & mask;
            while (keys[i] != null) {
                i = (i + 1) & mask;
            }
            keys[i] = k;
            ids[i] = oldIds[j];
        }
    }

    private static int hash(byte[] b, int from, int to) {
        int h = 1;
        for (int i = from; i < to; i++) {
            h = 31 * h + b[i];
        }
        return h ^ (h >>> 16);
    }
}
