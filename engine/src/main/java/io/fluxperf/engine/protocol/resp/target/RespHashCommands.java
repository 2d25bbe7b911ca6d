package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.ByteKey;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_INTEGER;

/**
 * The hash commands, as redis' {@code t_hash.c} has them: HSET, HGET, HMGET, HGETALL, HDEL,
 * HEXISTS and HINCRBY. Reads (HGET, HMGET, HGETALL, HEXISTS) count keyspace hits and misses; a
 * hash left without fields is removed. One per connection.
 */
final class RespHashCommands {
    private final RespClient c;

    RespHashCommands(RespClient client) {
        this.c = client;
    }

    void hget(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                c.nil();
            } else if (!c.wrongType(e, RespEntry.HASH)) {
                byte[] v = e.hash().get(c.member(a, 2));
                if (v == null) {
                    c.nil();
                } else {
                    RespReplies.bulk(c.out(), v);
                }
            }
        }
    }

    void hexists(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                RespReplies.integer(c.out(), 0);
            } else if (!c.wrongType(e, RespEntry.HASH)) {
                RespReplies.integer(c.out(), e.hash().containsKey(c.member(a, 2)) ? 1 : 0);
            }
        }
    }

    /** HSET k f v [f v …]: the number of fields added (an existing field's value is replaced). */
    void hset(RespArgs a) {
        if (a.count() % 2 == 1) {
            c.error("ERR wrong number of arguments for 'hset' command");
            return;
        }
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.container(seg, RespEntry.HASH);
            if (e == null) {
                return;
            }
            HashMap<ByteKey, byte[]> hash = e.hash();
            long added = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i += 2) {
                byte[] v = RespClient.value(a, i + 1);
                byte[] old = hash.get(c.member(a, i));
                if (old != null) {
                    hash.put(c.member(), v); // keeps the stored field object; the member is a probe
                    delta += v.length - old.length;
                } else {
                    hash.put(RespClient.copy(a, i), v);
                    delta += a.length(i) + v.length + RespEntry.HASH_FIELD_OVERHEAD;
                    added++;
                }
            }
            seg.resize(e, delta);
            RespReplies.integer(c.out(), added);
            seg.makeRoom(c.now());
        }
    }

    void hgetall(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                RespReplies.map(c.out(), 0, c.resp3);
            } else if (!c.wrongType(e, RespEntry.HASH)) {
                ByteBuf o = c.out();
                RespReplies.map(o, e.hash().size(), c.resp3);
                for (var field : e.hash().entrySet()) {
                    RespReplies.bulk(o, field.getKey());
                    RespReplies.bulk(o, field.getValue());
                }
            }
        }
    }

    void hdel(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (e == null) {
                RespReplies.integer(c.out(), 0);
                return;
            }
            if (c.wrongType(e, RespEntry.HASH)) {
                return;
            }
            HashMap<ByteKey, byte[]> hash = e.hash();
            long removed = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                byte[] old = hash.remove(c.member(a, i));
                if (old != null) {
                    removed++;
                    delta -= a.length(i) + old.length + RespEntry.HASH_FIELD_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            c.removeIfEmpty(seg, e);
            RespReplies.integer(c.out(), removed);
        }
    }

    void hmget(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (c.wrongType(e, RespEntry.HASH)) {
                return;
            }
            ByteBuf o = c.out();
            RespReplies.array(o, a.count() - 2);
            for (int i = 2; i < a.count(); i++) {
                byte[] v = e == null ? null : e.hash().get(c.member(a, i));
                if (v == null) {
                    c.nil();
                } else {
                    RespReplies.bulk(o, v);
                }
            }
        }
    }

    /** HINCRBY k f n: the field as a 64-bit integer (0 when missing) plus n. */
    void hincrby(RespArgs a) {
        if (!a.parseLong(3)) {
            c.error(NOT_INTEGER);
            return;
        }
        long delta = a.longValue;
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.container(seg, RespEntry.HASH);
            if (e == null) {
                return;
            }
            long current = 0;
            byte[] old = e.hash().get(c.member(a, 2));
            if (old != null) {
                if (!a.parseLong(old, 0, old.length)) {
                    c.error("ERR hash value is not an integer");
                    return;
                }
                current = a.longValue;
            }
            long next;
            try {
                next = Math.addExact(current, delta);
            } catch (ArithmeticException overflow) {
                c.error("ERR increment or decrement would overflow");
                return;
            }
            byte[] v = Long.toString(next).getBytes(StandardCharsets.US_ASCII);
            if (old != null) {
                e.hash().put(c.member(), v);
                seg.resize(e, v.length - old.length);
            } else {
                e.hash().put(RespClient.copy(a, 2), v);
                seg.resize(e, a.length(2) + v.length + RespEntry.HASH_FIELD_OVERHEAD);
            }
            RespReplies.integer(c.out(), next);
            seg.makeRoom(c.now());
        }
    }
}
