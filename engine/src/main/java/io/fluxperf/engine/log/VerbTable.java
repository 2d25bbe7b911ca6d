package io.fluxperf.engine.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Command verbs seen in a log, each with a small id, looked up from bytes case-insensitively
 * without allocating (after the first sighting). At most {@link #MAX_VERBS} distinct verbs are
 * kept; later new ones share the id {@link #OVERFLOW}. Looked up by one thread (the reader's);
 * names may be read from any thread.
 *
 * <p>A log read in parts by several threads gives each thread a table in front of the log's own
 * ({@link #VerbTable(VerbTable)}): it knows the verbs its thread has seen, and asks the log's table,
 * under its lock, only at a verb's first sighting, so that every part numbers a verb alike.
 */
public final class VerbTable {
    public static final int MAX_VERBS = 1024;
    /** The id of every verb after the first {@link #MAX_VERBS}. */
    public static final int OVERFLOW = MAX_VERBS;

    /** Names by id, copied on each addition so that other threads read a whole array. */
    private volatile String[] names = new String[0];
    /** Lower-case bytes by id (null: an id this table has not seen, in front of a shared one). */
    private byte[][] lower = new byte[16][];
    private int[] table = new int[4096];
    private int count;
    /** The log's table this one stands in front of, or null. */
    private final VerbTable shared;

    public VerbTable() {
        Arrays.fill(table, -1);
        this.shared = null;
    }

    /** A table that knows {@code verbs} already, with ids 0, 1, … in that order. */
    public VerbTable(List<String> verbs) {
        this();
        for (String v : verbs) {
            byte[] b = v.getBytes(StandardCharsets.ISO_8859_1);
            id(b, 0, b.length);
        }
    }

    /** A table of one reader thread in front of {@code shared}, the log's (see the class comment). */
    public VerbTable(VerbTable shared) {
        Arrays.fill(table, -1);
        this.shared = shared;
    }

    /** The id of the verb in {@code b[from, to)}, adding it when new. */
    public int id(byte[] b, int from, int to) {
        int h = hash(b, from, to);
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int id = table[i];
            if (id < 0) {
                return add(i, b, from, to);
            }
            if (equalsLower(lower[id], b, from, to)) {
                return id;
            }
        }
    }

    private int add(int slot, byte[] b, int from, int to) {
        int newId;
        if (shared != null) {
            synchronized (shared) {
                newId = shared.id(b, from, to);
            }
            if (newId == OVERFLOW) {
                return OVERFLOW;
            }
        } else {
            if (count >= MAX_VERBS) {
                return OVERFLOW;
            }
            newId = count;
        }
        byte[] copy = new byte[to - from];
        for (int k = 0; k < copy.length; k++) {
            copy[k] = toLower(b[from + k]);
        }
        if (newId >= lower.length) {
            lower = Arrays.copyOf(lower, Math.max(newId + 1, lower.length * 2));
        }
        lower[newId] = copy;
        table[slot] = newId;
        count++;
        if (shared == null) {
            String[] next = Arrays.copyOf(names, newId + 1);
            next[newId] = new String(copy, StandardCharsets.ISO_8859_1);
            names = next;
        }
        if (count * 2 > table.length) {
            grow();
        }
        return newId;
    }

    private void grow() {
        int[] next = new int[table.length * 2];
        Arrays.fill(next, -1);
        int mask = next.length - 1;
        for (int id : table) {
            if (id < 0) {
                continue;
            }
            byte[] k = lower[id];
            int i = hash(k, 0, k.length) & mask;
            while (next[i] >= 0) {
                i = (i + 1) & mask;
            }
            next[i] = id;
        }
        table = next;
    }

    /** Lower-case name of an id; "(other)" for {@link #OVERFLOW}. */
    public String name(int id) {
        if (shared != null) {
            return shared.name(id);
        }
        String[] n = names;
        return id == OVERFLOW || id >= n.length ? "(other)" : n[id];
    }

    public int size() {
        return shared != null ? shared.size() : names.length;
    }

    public List<String> names() {
        return shared != null ? shared.names() : List.of(names);
    }

    private static boolean equalsLower(byte[] known, byte[] b, int from, int to) {
        if (known.length != to - from) {
            return false;
        }
        for (int k = 0; k < known.length; k++) {
            if (known[k] != toLower(b[from + k])) {
                return false;
            }
        }
        return true;
    }

    private static int hash(byte[] b, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + toLower(b[i]);
        }
        return h ^ (h >>> 16);
    }

    public static byte toLower(byte c) {
        return c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
    }
}
