package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.target.ByteKey;
import io.netty.buffer.ByteBuf;
import java.util.HashSet;

/**
 * The set commands, as redis' {@code t_set.c} has them: SADD, SREM, SMEMBERS, SISMEMBER and
 * SMISMEMBER. The reads count keyspace hits and misses; a set left empty is removed. One per
 * connection.
 */
final class RespSetCommands {
    private final RespClient c;

    RespSetCommands(RespClient client) {
        this.c = client;
    }

    void sadd(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.container(seg, RespEntry.SET);
            if (e == null) {
                return;
            }
            HashSet<ByteKey> set = e.set();
            long added = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                if (!set.contains(c.member(a, i))) {
                    set.add(RespClient.copy(a, i));
                    added++;
                    delta += a.length(i) + RespEntry.SET_MEMBER_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            RespReplies.integer(c.out(), added);
            seg.makeRoom(c.now());
        }
    }

    void srem(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (e == null) {
                RespReplies.integer(c.out(), 0);
                return;
            }
            if (c.wrongType(e, RespEntry.SET)) {
                return;
            }
            HashSet<ByteKey> set = e.set();
            long removed = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                if (set.remove(c.member(a, i))) {
                    removed++;
                    delta -= a.length(i) + RespEntry.SET_MEMBER_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            c.removeIfEmpty(seg, e);
            RespReplies.integer(c.out(), removed);
        }
    }

    void smembers(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                RespReplies.set(c.out(), 0, c.resp3);
            } else if (!c.wrongType(e, RespEntry.SET)) {
                ByteBuf o = c.out();
                RespReplies.set(o, e.set().size(), c.resp3);
                for (ByteKey m : e.set()) {
                    RespReplies.bulk(o, m);
                }
            }
        }
    }

    /** SISMEMBER k m (an integer), or SMISMEMBER k m1 m2 … ({@code many}: an array of integers). */
    void sismember(RespArgs a, boolean many) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (c.wrongType(e, RespEntry.SET)) {
                return;
            }
            ByteBuf o = c.out();
            if (many) {
                RespReplies.array(o, a.count() - 2);
            }
            for (int i = 2; i < (many ? a.count() : 3); i++) {
                RespReplies.integer(o, e != null && e.set().contains(c.member(a, i)) ? 1 : 0);
            }
        }
    }
}
