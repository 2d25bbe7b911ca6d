package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.LruEntry;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.TreeSet;

/**
 * One key's value: a string, hash, list, set or sorted set, with its expiry time and the bytes it
 * counts against the memory bound. Guarded by its {@link RespSegment}'s monitor (containers are
 * mutated in place, and replies are written from them under that monitor).
 */
final class RespEntry extends LruEntry {
    static final byte STRING = 0;
    static final byte HASH = 1;
    static final byte LIST = 2;
    static final byte SET = 3;
    static final byte ZSET = 4;

    /** Bytes a key counts beyond its own length and its value's: about redis' dictEntry, robj and sds headers. */
    static final int KEY_OVERHEAD = 56;
    /** Bytes each element of a container counts beyond its own bytes. */
    static final int HASH_FIELD_OVERHEAD = 32;
    static final int LIST_ELEMENT_OVERHEAD = 16;
    static final int SET_MEMBER_OVERHEAD = 24;
    static final int ZSET_MEMBER_OVERHEAD = 48;

    final byte type;
    /** byte[] for a string, {@link HashMap} for a hash, {@link ArrayDeque} for a list, {@link HashSet} for a set, {@link ZSet}. */
    Object value;
    /** Bytes it counts against the memory bound, key included. */
    long size;

    RespEntry(byte type, Object value) {
        super(NEVER);
        this.type = type;
        this.value = value;
    }

    @SuppressWarnings("unchecked")
    HashMap<ByteKey, byte[]> hash() {
        return (HashMap<ByteKey, byte[]>) value;
    }

    @SuppressWarnings("unchecked")
    ArrayDeque<byte[]> list() {
        return (ArrayDeque<byte[]>) value;
    }

    @SuppressWarnings("unchecked")
    HashSet<ByteKey> set() {
        return (HashSet<ByteKey>) value;
    }

    ZSet zset() {
        return (ZSet) value;
    }

    static String typeName(byte type) {
        return switch (type) {
            case STRING -> "string";
            case HASH -> "hash";
            case LIST -> "list";
            case SET -> "set";
            default -> "zset";
        };
    }

    /** A sorted set: scores by member, and members ordered by (score, member) as redis orders them. */
    static final class ZSet {
        final HashMap<ByteKey, Double> scores = new HashMap<>();
        final TreeSet<Node> order = new TreeSet<>();

        int size() {
            return scores.size();
        }

        record Node(double score, ByteKey member) implements Comparable<Node> {
            @Override
            public int compareTo(Node o) {
                int c = Double.compare(score, o.score);
                return c != 0 ? c : member.compareTo(o.member);
            }
        }
    }
}
