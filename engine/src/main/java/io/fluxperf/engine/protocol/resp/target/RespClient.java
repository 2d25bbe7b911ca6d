package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.protocol.resp.target.RespCounters.Stat;
import io.fluxperf.engine.target.ByteKey;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_INTEGER;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.WRONGTYPE;

/**
 * One connection's state as its commands see it, like redis' {@code client} struct: the selected
 * database, the protocol version, whether it has authenticated, the reply batch of the running
 * command, and the look-ups every command shares (a key's segment and entry, counted as redis
 * counts keyspace hits and misses; a member probe; the WRONGTYPE check). The command classes
 * ({@link RespStringCommands}, {@link RespListCommands}, …) act through it.
 *
 * <p>Confined to the connection's event loop. The key and member probes point into the command's
 * words, so they are valid only while that command runs; a command holds the segment's monitor
 * for its whole work on a key, replies included.
 */
final class RespClient {
    final RespStore store;
    final RespCounters.Cell counters;
    final long id;
    /** RESP3 after {@code HELLO 3}: nulls, maps, sets and doubles in its types. */
    boolean resp3;
    /** The selected database ({@code SELECT}). */
    int db;
    boolean authenticated;
    /** An error reply was written for the command running now. */
    boolean failed;
    /** LRANGE's, LTRIM's and ZRANGE's start and stop, from {@link #parseStartStop}. */
    long rangeStart;
    long rangeStop;

    private final ByteKey probe = ByteKey.probe();
    private final ByteKey member = ByteKey.probe();
    private ByteBuf out;
    private long now;

    RespClient(RespStore store, RespCounters.Cell counters, boolean authenticated, long id) {
        this.store = store;
        this.counters = counters;
        this.authenticated = authenticated;
        this.id = id;
    }

    /** A command begins: its replies go to {@code replies}; expiry is judged at {@code nowMillis} (wall clock). */
    void begin(ByteBuf replies, long nowMillis) {
        out = replies;
        now = nowMillis;
        failed = false;
    }

    /** Where the running command's replies go. */
    ByteBuf out() {
        return out;
    }

    /** The wall-clock time of the running command's read batch, in milliseconds. */
    long now() {
        return now;
    }

    /** Replies with an error, counted as redis counts error replies. */
    void error(String message) {
        failed = true;
        counters.increment(Stat.TOTAL_ERROR_REPLIES);
        RespReplies.error(out, message);
    }

    /** A nil in the connection's protocol. */
    void nil() {
        RespReplies.nil(out, resp3);
    }

    /** Points the key probe at word i (in the selected database) and returns its segment. */
    RespSegment key(RespArgs a, int i) {
        probe.view(db, a.bytes, a.start(i), a.length(i));
        return store.segment(probe);
    }

    /** The key probe, as {@link #key} pointed it. */
    ByteKey probe() {
        return probe;
    }

    /** Points the member probe at word i and returns it. */
    ByteKey member(RespArgs a, int i) {
        return member.view(0, a.bytes, a.start(i), a.length(i));
    }

    /** The member probe, as {@link #member} pointed it last. */
    ByteKey member() {
        return member;
    }

    /** Word i as a key or member of its own, to store. */
    static ByteKey copy(RespArgs a, int i) {
        return ByteKey.copyOf(0, a.bytes, a.start(i), a.length(i));
    }

    /** Word i as a value of its own, to store. */
    static byte[] value(RespArgs a, int i) {
        return Arrays.copyOfRange(a.bytes, a.start(i), a.end(i));
    }

    /** A look-up for a write (not counted in keyspace_hits / keyspace_misses). Caller holds the segment. */
    RespEntry lookup(RespSegment seg) {
        return seg.lookup(probe, now);
    }

    /** A look-up that counts in keyspace_hits / keyspace_misses, as redis' lookupKeyRead. Caller holds the segment. */
    RespEntry readLookup(RespSegment seg) {
        RespEntry e = seg.lookup(probe, now);
        counters.increment(e == null ? Stat.KEYSPACE_MISSES : Stat.KEYSPACE_HITS);
        return e;
    }

    /**
     * LRANGE's and ZRANGE's read look-up of the key probe: its entry if it has {@code type}, else
     * null after the reply (an empty array for a missing key, WRONGTYPE). Caller holds the segment.
     */
    RespEntry rangeLookup(RespSegment seg, byte type) {
        RespEntry e = readLookup(seg);
        if (e == null) {
            RespReplies.array(out, 0);
            return null;
        }
        return wrongType(e, type) ? null : e;
    }

    /** Whether {@code e} (null: no key) holds another type than {@code type}; then WRONGTYPE has been replied. */
    boolean wrongType(RespEntry e, byte type) {
        if (e != null && e.type != type) {
            error(WRONGTYPE);
            return true;
        }
        return false;
    }

    /**
     * The container of {@code type} under the key probe for a write, made empty when there is
     * none; null after a WRONGTYPE reply. Caller holds the segment.
     */
    RespEntry container(RespSegment seg, byte type) {
        RespEntry e = lookup(seg);
        if (wrongType(e, type)) {
            return null;
        }
        return e != null ? e : create(seg, type);
    }

    /** A new, empty container of {@code type} under the key probe. Caller holds the segment. */
    RespEntry create(RespSegment seg, byte type) {
        return seg.create(probe, true, type, RespEntry.emptyContainer(type), 0);
    }

    /** Removes the key's entry when its container has become empty, as redis does. Caller holds the segment. */
    void removeIfEmpty(RespSegment seg, RespEntry e) {
        if (e.isEmptyContainer()) {
            seg.remove(probe, e);
        }
    }

    /** Whether a new value of {@code size} bytes could be stored at all under the key probe. */
    boolean fits(RespSegment seg, long size) {
        return probe.length() + RespEntry.KEY_OVERHEAD + size <= seg.budget();
    }

    /**
     * Parses LRANGE's, LTRIM's and ZRANGE's start and stop (words 2 and 3) into {@link #rangeStart}
     * and {@link #rangeStop}; false after an error reply.
     */
    boolean parseStartStop(RespArgs a) {
        if (!a.parseLong(2)) {
            error(NOT_INTEGER);
            return false;
        }
        rangeStart = a.longValue;
        if (!a.parseLong(3)) {
            error(NOT_INTEGER);
            return false;
        }
        rangeStop = a.longValue;
        return true;
    }

    /** redis' index rules (negative from the end, clamped): the half-open range [from, to) of a sequence of {@code size}. */
    static long[] range(long start, long stop, long size) {
        if (start < 0) {
            start = Math.max(0, size + start);
        }
        if (stop < 0) {
            stop = size + stop;
        }
        if (stop >= size) {
            stop = size - 1;
        }
        if (start > stop || start >= size) {
            return new long[] {0, 0};
        }
        return new long[] {start, stop + 1};
    }
}
