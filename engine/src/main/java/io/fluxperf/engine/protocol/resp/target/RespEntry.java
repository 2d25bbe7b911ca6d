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

    /** A new, empty value of a container {@code type}: a hash, list, set or sorted set. */
    static Object emptyContainer(byte type) {
        return switch (type) {
            case HASH -> new HashMap<ByteKey, byte[]>(4);
            case LIST -> new ArrayDeque<byte[]>();
            case SET -> new HashSet<ByteKey>(4);
            case ZSET -> new ZSet();
            default -> throw new IllegalArgumentException("no container of type " + type);
        };
    }

    /** Whether this is a container left without elements (redis then removes its key). */
    boolean isEmptyContainer() {
        return switch (type) {
            case HASH -> hash().isEmpty();
            case LIST -> list().isEmpty();
            case SET -> set().isEmpty();
            case ZSET -> zset().size() == 0;
            default -> false;
        };
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

        /** Adds {@code stored} (a key of its own, not a probe), not a member yet, with {@code score}. */
        void add(ByteKey stored, double score) {
            scores.put(stored, score);
            order.add(new Node(score, stored));
        }

        /** Moves the member that {@code probe} names from score {@code old} to {@code score}. */
        void rescore(ByteKey probe, double old, double score) {
            ByteKey stored = order.ceiling(new Node(old, probe)).member();
            order.remove(new Node(old, stored));
            order.add(new Node(score, stored));
            scores.put(stored, score);
        }

        /** Removes the member that {@code probe} names, whose score is {@code score}. */
        void remove(ByteKey probe, double score) {
            ByteKey stored = order.ceiling(new Node(score, probe)).member();
            order.remove(new Node(score, stored));
            scores.remove(stored);
        }

        /** The number of members before the one that {@code probe} names, whose score is {@code score}. */
        int rank(ByteKey probe, double score) {
            return order.headSet(new Node(score, probe)).size();
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
