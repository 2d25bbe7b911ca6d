package io.fluxperf.engine.log;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Command verbs seen in a log, each with a small id, looked up from bytes case-insensitively
 * without allocating (after the first sighting). At most {@link #MAX_VERBS} distinct verbs are
 * kept; later new ones share the id {@link #OVERFLOW}. Single-threaded (the reader's).
 */
public final class VerbTable {
    public static final int MAX_VERBS = 1024;
    /** The id of every verb after the first {@link #MAX_VERBS}. */
    public static final int OVERFLOW = MAX_VERBS;

    private final List<String> names = new ArrayList<>();
    private final List<byte[]> lower = new ArrayList<>();
    private int[] table = new int[4096];

    public VerbTable() {
        Arrays.fill(table, -1);
    }

    /** A table that knows {@code verbs} already, with ids 0, 1, … in that order. */
    public VerbTable(List<String> verbs) {
        this();
        for (String v : verbs) {
            byte[] b = v.getBytes(StandardCharsets.ISO_8859_1);
            id(b, 0, b.length);
        }
    }

    /** The id of the verb in {@code b[from, to)}, adding it when new. */
    public int id(byte[] b, int from, int to) {
        int h = hash(b, from, to);
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int id = table[i];
            if (id < 0) {
                if (names.size() >= MAX_VERBS) {
                    return OVERFLOW;
                }
                byte[] copy = new byte[to - from];
                for (int k = 0; k < copy.length; k++) {
                    copy[k] = toLower(b[from + k]);
                }
                int newId = names.size();
                names.add(new String(copy, StandardCharsets.ISO_8859_1));
                lower.add(copy);
                table[i] = newId;
                return newId;
            }
            if (equalsLower(lower.get(id), b, from, to)) {
                return id;
            }
        }
    }

    /** Lower-case name of an id; "(other)" for {@link #OVERFLOW}. */
    public String name(int id) {
        return id == OVERFLOW || id >= names.size() ? "(other)" : names.get(id);
    }

    public int size() {
        return names.size();
    }

    public List<String> names() {
        return List.copyOf(names);
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
