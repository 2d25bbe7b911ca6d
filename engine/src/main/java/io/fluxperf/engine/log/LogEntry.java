package io.fluxperf.engine.log;

import io.fluxperf.engine.request.Command;
import java.util.Arrays;

/**
 * One command read from a log, reusable: a reader fills it, the reorder window sorts it, the
 * pacer gives it a send time, a lane copies it into a pooled request and hands it back. Keys and
 * literal arguments (redis) are copied in; a value is either logged bytes (raw protocol streams)
 * or only a size (the value is then synthesised from a shared pattern).
 */
public final class LogEntry {
    /** {@link #timeNanos} of a command whose log says nothing about when it was sent. */
    public static final long NO_TIME = Long.MIN_VALUE;

    // ---- as read ----
    /** Order in the log: the time, or watch's gid, or the position in a stream without times. */
    public long sortKey;
    /** When the command was sent, ns on the log's own clock (epoch or trace origin); {@link #NO_TIME} if unknown. */
    public long timeNanos = NO_TIME;
    /** 1-based line (or record) number, for messages. */
    public long line;
    /** Progress: bytes of the log file consumed when this entry was read. */
    public long position;
    /** The original client, a small index, or -1 when the log does not say. */
    public int client = -1;
    /** Id of the verb in the reader's {@link VerbTable}. */
    public int verb;
    public Command command;
    public int ttlSeconds;
    public long numeric;

    public byte[] keys = new byte[64];
    public int[] keyEnds = new int[2];
    public int keyCount;

    public byte[] args = new byte[0];
    public int[] argEnds = new int[0];
    public int argCount;
    /** The argument that is the value of a write (counted as the request's value), or -1. */
    public int valueArg = -1;

    /** Logged value bytes ([0, valueLength)), when {@link #valueLogged}. */
    public byte[] value = new byte[0];
    public int valueLength;
    public boolean valueLogged;
    /** Size of a value synthesised for a write whose bytes the log does not hold; -1 for none. */
    public int synthSize = -1;
    /**
     * Size of the value a read returned in the original traffic, where the log says (a cache
     * trace's value size of a get); -1 when unknown. Only {@code profile} reads it.
     */
    public int readSize = -1;
    /**
     * What the original server answered, where the log holds its replies (a packet capture): one
     * of the {@code REPLY_} constants; {@link #REPLY_UNKNOWN} for logs without replies.
     */
    public byte originalReply;

    /** {@link #originalReply}: the log does not say. */
    public static final byte REPLY_UNKNOWN = 0;
    /** {@link #originalReply}: a read that found its key(s), or a write or command that succeeded. */
    public static final byte REPLY_OK = 1;
    /** {@link #originalReply}: a read that found nothing, or a write that was not stored. */
    public static final byte REPLY_MISS = 2;
    /** {@link #originalReply}: an error reply. */
    public static final byte REPLY_ERROR = 3;

    // ---- set on the way through ----
    /** Replaced by a later line (watch: the fetch memcached does inside a store). */
    public boolean dropped;
    /** In the reorder window (not yet released to a lane). */
    public boolean inWindow;
    /** Incremented each time the entry is reused, so that a remembered reference can tell. */
    public int generation;
    /** Send time relative to the run's start, ns; meaningful when {@link #scheduled}. */
    public long offsetNanos;
    /**
     * Time since the first command of this pass over the log, ns on the log's clock (what a
     * report calls "seconds into the log"); -1 when the log has no times.
     */
    public long sourceNanos = -1;
    public boolean scheduled;
    public int affinity = -1;
    public int workload;
    /** Read order, to keep equal sort keys in log order. */
    public long sequence;
    /** The pass over the log (--loop) this entry belongs to, from 1. */
    public int loop;

    /**
     * Sets the command, storing only a change: the reader's thousands of pooled entries are
     * long-lived, and each reference stored into one dirties a card for G1 to refine, once per
     * command (why {@link #reset()} leaves the command as it was).
     */
    public void command(Command c) {
        if (command != c) {
            command = c;
        }
    }

    public LogEntry reset() {
        sortKey = 0;
        timeNanos = NO_TIME;
        line = 0;
        position = 0;
        client = -1;
        verb = 0;
        ttlSeconds = 0;
        numeric = 0;
        keyCount = 0;
        argCount = 0;
        valueArg = -1;
        valueLength = 0;
        valueLogged = false;
        synthSize = -1;
        readSize = -1;
        originalReply = REPLY_UNKNOWN;
        dropped = false;
        inWindow = false;
        generation++;
        offsetNanos = 0;
        sourceNanos = -1;
        scheduled = false;
        affinity = -1;
        workload = 0;
        sequence = 0;
        loop = 0;
        return this;
    }

    /**
     * Makes this entry (already reset) a copy of what {@code o} was read as: its command, keys,
     * arguments and value, and where it came from. Copies into this entry's own arrays, which grow
     * only while they are smaller than what they receive.
     */
    public void copyFrom(LogEntry o) {
        sortKey = o.sortKey;
        timeNanos = o.timeNanos;
        line = o.line;
        position = o.position;
        client = o.client;
        verb = o.verb;
        command(o.command);
        ttlSeconds = o.ttlSeconds;
        numeric = o.numeric;
        int kb = o.keyStart(o.keyCount);
        ensureKeys(kb);
        System.arraycopy(o.keys, 0, keys, 0, kb);
        if (keyEnds.length < o.keyCount) {
            keyEnds = new int[o.keyEnds.length];
        }
        System.arraycopy(o.keyEnds, 0, keyEnds, 0, o.keyCount);
        keyCount = o.keyCount;
        int ab = o.argStart(o.argCount);
        if (args.length < ab) {
            args = new byte[o.args.length];
        }
        System.arraycopy(o.args, 0, args, 0, ab);
        if (argEnds.length < o.argCount) {
            argEnds = new int[o.argEnds.length];
        }
        System.arraycopy(o.argEnds, 0, argEnds, 0, o.argCount);
        argCount = o.argCount;
        valueArg = o.valueArg;
        if (o.valueLogged) {
            System.arraycopy(o.value, 0, valueBuffer(o.valueLength), 0, o.valueLength);
        }
        synthSize = o.synthSize;
        readSize = o.readSize;
        originalReply = o.originalReply;
        dropped = o.dropped;
    }

    // ---- keys ----

    public void addKey(byte[] prefix, byte[] b, int off, int len) {
        int start = keyStart(keyCount);
        int p = prefix == null ? 0 : prefix.length;
        ensureKeys(start + p + len);
        if (p > 0) {
            System.arraycopy(prefix, 0, keys, start, p);
        }
        System.arraycopy(b, off, keys, start + p, len);
        if (keyEnds.length == keyCount) {
            keyEnds = Arrays.copyOf(keyEnds, keyCount * 2 + 2);
        }
        keyEnds[keyCount++] = start + p + len;
    }

    /** Starts a key whose bytes the caller writes itself (e.g. while URI-decoding); returns where. */
    public int beginKey(int maxLength) {
        int start = keyStart(keyCount);
        ensureKeys(start + maxLength);
        return start;
    }

    public void endKey(int end) {
        if (keyEnds.length == keyCount) {
            keyEnds = Arrays.copyOf(keyEnds, keyCount * 2 + 2);
        }
        keyEnds[keyCount++] = end;
    }

    public int keyStart(int i) {
        return i == 0 ? 0 : keyEnds[i - 1];
    }

    public int keyLength(int i) {
        return keyEnds[i] - keyStart(i);
    }

    private void ensureKeys(int n) {
        if (n > keys.length) {
            keys = Arrays.copyOf(keys, Math.max(n, keys.length * 2));
        }
    }

    // ---- literal arguments (redis) ----

    /** Makes room for an argument of at most {@code maxLength} bytes; returns where it starts. */
    public int beginArg(int maxLength) {
        int start = argStart(argCount);
        if (start + maxLength > args.length) {
            args = Arrays.copyOf(args, Math.max(start + maxLength, Math.max(256, args.length * 2)));
        }
        return start;
    }

    public void endArg(int end) {
        if (argEnds.length == argCount) {
            argEnds = Arrays.copyOf(argEnds, Math.max(8, argCount * 2));
        }
        argEnds[argCount++] = end;
    }

    public int argStart(int i) {
        return i == 0 ? 0 : argEnds[i - 1];
    }

    public int argLength(int i) {
        return argEnds[i] - argStart(i);
    }

    // ---- value ----

    /** Makes room for a logged value of {@code n} bytes and returns the array to fill from 0. */
    public byte[] valueBuffer(int n) {
        if (n > value.length) {
            value = new byte[Math.max(n, Math.min(value.length * 2, 1 << 30))];
        }
        valueLength = n;
        valueLogged = true;
        return value;
    }

    /** Bytes this entry holds beyond its fixed size: what the read-ahead's memory bound counts. */
    public long heldBytes() {
        return (long) keyStart(keyCount) + argStart(argCount) + (valueLogged ? valueLength : 0);
    }
}
