package io.fluxperf.replay;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;

/**
 * One paced command as the reader writes it into a lane's {@link ByteRing} and a load thread reads
 * it into a pooled request: the fields a request needs, then the key and argument ends, then the
 * key, argument and logged value bytes. Little-endian, in place, nothing allocated.
 */
final class LaneRecord {
    private static final Command[] COMMANDS = Command.values();

    private static final int FLAGS = 0;
    private static final int OFFSET_NANOS = 4;
    private static final int SOURCE_NANOS = 12;
    private static final int NUMERIC = 20;
    private static final int MARK = 28;
    private static final int LINE = 36;
    private static final int COMMAND = 44;
    private static final int WORKLOAD = 48;
    private static final int TTL = 52;
    private static final int AFFINITY = 56;
    private static final int SYNTH_SIZE = 60;
    private static final int VALUE_ARG = 64;
    private static final int KEY_COUNT = 68;
    private static final int ARG_COUNT = 72;
    private static final int VALUE_LENGTH = 76;
    /** The log's verb id ({@link io.fluxperf.engine.log.VerbTable}), for the count of what was sent. */
    private static final int VERB = 80;
    /** Key ends, argument ends, then the bytes. */
    private static final int ENDS = 84;

    private static final int SCHEDULED = 1;
    private static final int VALUE_LOGGED = 2;
    /** The command reads ({@link Command#isRead()}): its original reply counts in the original hit rate. */
    private static final int READ = 4;
    /** Bits 8-9: the original server's reply ({@code LogEntry.REPLY_*}), where the log holds replies. */
    private static final int REPLY_SHIFT = 8;

    private LaneRecord() {
    }

    /** Payload bytes of {@code e}'s record. */
    static int payload(LogEntry e) {
        int keyBytes = e.keyStart(e.keyCount);
        int argBytes = e.argStart(e.argCount);
        return ENDS + 4 * (e.keyCount + e.argCount) + keyBytes + argBytes + (e.valueLogged ? e.valueLength : 0);
    }

    /** Writes {@code e} at {@code at} (a payload offset from {@link ByteRing#claim}). */
    static void write(byte[] b, int at, LogEntry e) {
        ByteRing.INT.set(b, at + FLAGS, (e.scheduled ? SCHEDULED : 0) | (e.valueLogged ? VALUE_LOGGED : 0)
                | (e.command.isRead() ? READ : 0) | (e.originalReply & 3) << REPLY_SHIFT);
        ByteRing.LONG.set(b, at + OFFSET_NANOS, e.offsetNanos);
        ByteRing.LONG.set(b, at + SOURCE_NANOS, e.sourceNanos);
        ByteRing.LONG.set(b, at + NUMERIC, e.numeric);
        ByteRing.LONG.set(b, at + MARK, (long) e.loop << 44 | e.position);
        ByteRing.LONG.set(b, at + LINE, e.line);
        ByteRing.INT.set(b, at + COMMAND, e.command.ordinal());
        ByteRing.INT.set(b, at + WORKLOAD, e.workload);
        ByteRing.INT.set(b, at + TTL, e.ttlSeconds);
        ByteRing.INT.set(b, at + AFFINITY, e.affinity);
        ByteRing.INT.set(b, at + SYNTH_SIZE, e.synthSize);
        ByteRing.INT.set(b, at + VALUE_ARG, e.valueArg);
        ByteRing.INT.set(b, at + KEY_COUNT, e.keyCount);
        ByteRing.INT.set(b, at + ARG_COUNT, e.argCount);
        ByteRing.INT.set(b, at + VALUE_LENGTH, e.valueLogged ? e.valueLength : 0);
        ByteRing.INT.set(b, at + VERB, e.verb);
        int p = at + ENDS;
        for (int i = 0; i < e.keyCount; i++, p += 4) {
            ByteRing.INT.set(b, p, e.keyEnds[i]);
        }
        for (int i = 0; i < e.argCount; i++, p += 4) {
            ByteRing.INT.set(b, p, e.argEnds[i]);
        }
        int keyBytes = e.keyStart(e.keyCount);
        System.arraycopy(e.keys, 0, b, p, keyBytes);
        p += keyBytes;
        int argBytes = e.argStart(e.argCount);
        System.arraycopy(e.args, 0, b, p, argBytes);
        p += argBytes;
        if (e.valueLogged) {
            System.arraycopy(e.value, 0, b, p, e.valueLength);
        }
    }

    /** The progress mark of the record at {@code at}: loop << 44 | position in the log. */
    static long mark(byte[] b, int at) {
        return (long) ByteRing.LONG.get(b, at + MARK);
    }

    static long line(byte[] b, int at) {
        return (long) ByteRing.LONG.get(b, at + LINE);
    }

    /** The log's verb id of the record at {@code at}. */
    static int verb(byte[] b, int at) {
        return (int) ByteRing.INT.get(b, at + VERB);
    }

    /**
     * The original reply of the record at {@code at} as an index into {@link OriginalReplies#count}'s
     * counts: the {@code LogEntry.REPLY_*} value, or for a read answered ok or miss, 4 (hit) or 5 (miss).
     */
    static int originalReply(byte[] b, int at) {
        int flags = (int) ByteRing.INT.get(b, at + FLAGS);
        int reply = flags >>> REPLY_SHIFT & 3;
        if ((flags & READ) != 0 && (reply == LogEntry.REPLY_OK || reply == LogEntry.REPLY_MISS)) {
            return reply == LogEntry.REPLY_OK ? OriginalReplies.READ_HIT : OriginalReplies.READ_MISS;
        }
        return reply;
    }

    /**
     * Fills {@code r} from the record at {@code at}; a scheduled command's intended time is
     * {@code startNanos} plus its offset. A synthesised value is a slice of {@code synth}; a logged
     * one is copied into the request's own buffer, since the ring's bytes are reused.
     */
    static void fill(byte[] b, int at, Request r, long startNanos, byte[] synth) {
        int flags = (int) ByteRing.INT.get(b, at + FLAGS);
        int keyCount = (int) ByteRing.INT.get(b, at + KEY_COUNT);
        int argCount = (int) ByteRing.INT.get(b, at + ARG_COUNT);
        r.command(COMMANDS[(int) ByteRing.INT.get(b, at + COMMAND)], (int) ByteRing.INT.get(b, at + WORKLOAD));
        int ends = at + ENDS;
        int p = ends + 4 * (keyCount + argCount);
        int start = 0;
        for (int i = 0; i < keyCount; i++) {
            int end = (int) ByteRing.INT.get(b, ends + 4 * i);
            r.addKey(b, p + start, end - start);
            start = end;
        }
        p += start;
        if (argCount > 0) {
            int argEnds = ends + 4 * keyCount;
            start = 0;
            for (int i = 0; i < argCount; i++) {
                int end = (int) ByteRing.INT.get(b, argEnds + 4 * i);
                r.addArg(b, p + start, end - start);
                start = end;
            }
            p += start;
            int valueArg = (int) ByteRing.INT.get(b, at + VALUE_ARG);
            if (valueArg >= 0) {
                r.value(r.argBytes(), r.argOffset(valueArg), r.argLength(valueArg));
            }
        } else if ((flags & VALUE_LOGGED) != 0) {
            int n = (int) ByteRing.INT.get(b, at + VALUE_LENGTH);
            byte[] own = r.ownValue(n);
            System.arraycopy(b, p, own, 0, n);
            r.value(own, 0, n);
        } else {
            int synthSize = (int) ByteRing.INT.get(b, at + SYNTH_SIZE);
            if (synthSize >= 0) {
                r.value(synth, 0, synthSize);
            }
        }
        r.sourceNanos((long) ByteRing.LONG.get(b, at + SOURCE_NANOS));
        r.ttlSeconds((int) ByteRing.INT.get(b, at + TTL));
        r.numeric((long) ByteRing.LONG.get(b, at + NUMERIC));
        r.affinity((int) ByteRing.INT.get(b, at + AFFINITY));
        if ((flags & SCHEDULED) != 0) {
            r.intendedNanos(startNanos + (long) ByteRing.LONG.get(b, at + OFFSET_NANOS));
        }
    }
}
