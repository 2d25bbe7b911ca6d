package io.fluxperf.engine.pool;

import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.Request;
import java.util.Arrays;
import java.util.List;

/**
 * A request's keys as they go on the wire, for placing it: its keys, or for a command template
 * the word that holds {@code __key__} with its literal parts ({@code SET {user1}.__key__ __data__}
 * is placed by {@code {user1}.0000000042}, not by the key alone). One per load thread: a
 * template's key word is built in a buffer it reuses, so placing allocates nothing.
 */
final class WireKeys {
    private byte[] scratch = new byte[64];
    private CommandTemplate lastTemplate;
    private int lastKeyWord = -1;
    private byte[] array;
    private int offset;
    private int length;

    /** How many keys {@code r} has on the wire. */
    int count(Request r) {
        if (r.keyCount() > 0 && keyWord(r.template()) >= 0) {
            return 1;
        }
        return r.keyCount();
    }

    /** Makes key {@code i} of {@code r} the one {@link #array()}, {@link #offset()}, {@link #length()} describe. */
    void select(Request r, int i) {
        CommandTemplate t = r.template();
        int word = r.keyCount() > 0 ? keyWord(t) : -1;
        if (word < 0) {
            array = r.keyBytes();
            offset = r.keyOffset(i);
            length = r.keyLength(i);
            return;
        }
        List<CommandTemplate.Part> parts = t.words().get(word);
        int n = 0;
        int size = parts.size();
        for (int p = 0; p < size; p++) {
            CommandTemplate.Part part = parts.get(p);
            if (part instanceof CommandTemplate.Literal l) {
                n = append(n, l.bytes(), 0, l.bytes().length);
            } else if (part instanceof CommandTemplate.Key) {
                n = append(n, r.keyBytes(), r.keyOffset(0), r.keyLength(0));
            }
        }
        array = scratch;
        offset = 0;
        length = n;
    }

    byte[] array() {
        return array;
    }

    int offset() {
        return offset;
    }

    int length() {
        return length;
    }

    private int append(int at, byte[] b, int from, int len) {
        if (scratch.length < at + len) {
            scratch = Arrays.copyOf(scratch, Math.max(at + len, scratch.length * 2));
        }
        System.arraycopy(b, from, scratch, at, len);
        return at + len;
    }

    /** The index of the template's first word that holds {@code __key__}, or -1 (remembered per template). */
    private int keyWord(CommandTemplate t) {
        if (t == null) {
            return -1;
        }
        if (t == lastTemplate) {
            return lastKeyWord;
        }
        int found = -1;
        List<List<CommandTemplate.Part>> words = t.words();
        for (int w = 0; w < words.size() && found < 0; w++) {
            for (CommandTemplate.Part p : words.get(w)) {
                if (p instanceof CommandTemplate.Key) {
                    found = w;
                    break;
                }
            }
        }
        lastTemplate = t;
        lastKeyWord = found;
        return found;
    }
}
