package io.fluxperf.engine.protocol.resp.target;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The list commands, as redis' {@code t_list.c} has them: LPUSH, RPUSH, LPOP and RPOP with an
 * optional count, LRANGE, LLEN and LTRIM, with redis' index rules (negative counts from the end,
 * clamped). LRANGE and LLEN count keyspace hits and misses; a list left empty is removed. One per
 * connection.
 */
final class RespListCommands {
    private final RespClient c;

    RespListCommands(RespClient client) {
        this.c = client;
    }

    /** LPUSH ({@code left}) or RPUSH k v [v …]: the list's length after. */
    void push(RespArgs a, boolean left) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.container(seg, RespEntry.LIST);
            if (e == null) {
                return;
            }
            ArrayDeque<byte[]> list = e.list();
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                byte[] v = RespClient.value(a, i);
                if (left) {
                    list.addFirst(v);
                } else {
                    list.addLast(v);
                }
                delta += v.length + RespEntry.LIST_ELEMENT_OVERHEAD;
            }
            seg.resize(e, delta);
            RespReplies.integer(c.out(), list.size());
            seg.makeRoom(c.now());
        }
    }

    /** LPOP ({@code left}) or RPOP k [count]: one element, or with a count an array of at most so many. */
    void pop(RespArgs a, boolean left) {
        if (a.count() > 3) {
            c.error("ERR wrong number of arguments for '" + (left ? "lpop" : "rpop") + "' command");
            return;
        }
        boolean withCount = a.count() == 3;
        long count = 1;
        if (withCount) {
            if (!a.parseLong(2) || a.longValue < 0) {
                c.error("ERR value is out of range, must be positive");
                return;
            }
            count = a.longValue;
        }
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (e == null) {
                if (withCount) {
                    RespReplies.nilArray(c.out(), c.resp3);
                } else {
                    c.nil();
                }
                return;
            }
            if (c.wrongType(e, RespEntry.LIST)) {
                return;
            }
            ArrayDeque<byte[]> list = e.list();
            long n = Math.min(count, list.size());
            ByteBuf o = c.out();
            if (withCount) {
                RespReplies.array(o, n);
            }
            long delta = 0;
            for (long i = 0; i < n; i++) {
                byte[] v = left ? list.pollFirst() : list.pollLast();
                RespReplies.bulk(o, v);
                delta -= v.length + RespEntry.LIST_ELEMENT_OVERHEAD;
            }
            seg.resize(e, delta);
            c.removeIfEmpty(seg, e);
        }
    }

    void lrange(RespArgs a) {
        if (!c.parseStartStop(a)) {
            return;
        }
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.rangeLookup(seg, RespEntry.LIST);
            if (e == null) {
                return;
            }
            ArrayDeque<byte[]> list = e.list();
            long[] range = RespClient.range(c.rangeStart, c.rangeStop, list.size());
            ByteBuf o = c.out();
            RespReplies.array(o, range[1] - range[0]);
            Iterator<byte[]> it = list.iterator();
            for (long i = 0; i < range[1] && it.hasNext(); i++) {
                byte[] v = it.next();
                if (i >= range[0]) {
                    RespReplies.bulk(o, v);
                }
            }
        }
    }

    void llen(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                RespReplies.integer(c.out(), 0);
            } else if (!c.wrongType(e, RespEntry.LIST)) {
                RespReplies.integer(c.out(), e.list().size());
            }
        }
    }

    /** LTRIM k start stop: keeps the elements from start to stop (redis' index rules); the list goes when none is left. */
    void ltrim(RespArgs a) {
        if (!c.parseStartStop(a)) {
            return;
        }
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (e == null) {
                c.out().writeBytes(RespReplies.OK);
                return;
            }
            if (c.wrongType(e, RespEntry.LIST)) {
                return;
            }
            ArrayDeque<byte[]> list = e.list();
            long[] keep = RespClient.range(c.rangeStart, c.rangeStop, list.size());
            long fromEnd = list.size() - keep[1];
            long delta = 0;
            for (long i = 0; i < keep[0]; i++) {
                delta -= list.pollFirst().length + RespEntry.LIST_ELEMENT_OVERHEAD;
            }
            for (long i = 0; i < fromEnd; i++) {
                delta -= list.pollLast().length + RespEntry.LIST_ELEMENT_OVERHEAD;
            }
            seg.resize(e, delta);
            c.removeIfEmpty(seg, e);
            c.out().writeBytes(RespReplies.OK);
        }
    }
}
