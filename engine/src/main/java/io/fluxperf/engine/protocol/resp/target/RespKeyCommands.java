package io.fluxperf.engine.protocol.resp.target;

import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_INTEGER;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.SYNTAX;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.bytes;

/**
 * The commands on keys of any type, as redis' {@code db.c} and {@code expire.c} have them: DEL,
 * EXISTS, EXPIRE with NX, XX, GT and LT, TTL, TYPE, and on a whole database DBSIZE, FLUSHDB and
 * FLUSHALL. EXISTS, TTL and TYPE are read look-ups (keyspace hits and misses). One per connection.
 */
final class RespKeyCommands {
    private static final byte[] ASYNC = bytes("ASYNC");
    private static final byte[] SYNC = bytes("SYNC");

    private final RespClient c;

    RespKeyCommands(RespClient client) {
        this.c = client;
    }

    void del(RespArgs a) {
        long deleted = 0;
        for (int i = 1; i < a.count(); i++) {
            RespSegment seg = c.key(a, i);
            synchronized (seg) {
                RespEntry e = c.lookup(seg);
                if (e != null) {
                    seg.remove(c.probe(), e);
                    deleted++;
                }
            }
        }
        RespReplies.integer(c.out(), deleted);
    }

    void exists(RespArgs a) {
        long found = 0;
        for (int i = 1; i < a.count(); i++) {
            RespSegment seg = c.key(a, i);
            synchronized (seg) {
                if (c.readLookup(seg) != null) {
                    found++;
                }
            }
        }
        RespReplies.integer(c.out(), found);
    }

    /** EXPIRE k seconds [NX|XX|GT|LT]: the options are checked before the number, as redis does. */
    void expire(RespArgs a) {
        int flags = 0;
        for (int i = 3; i < a.count(); i++) {
            int flag = RespFlags.of(a, i, RespFlags.EXPIRE);
            if (flag == 0) {
                c.error("ERR Unsupported option " + a.text(i));
                return;
            }
            flags |= flag;
        }
        boolean nx = (flags & RespFlags.NX) != 0;
        boolean gt = (flags & RespFlags.GT) != 0;
        boolean lt = (flags & RespFlags.LT) != 0;
        if (nx && flags != RespFlags.NX) {
            c.error("ERR NX and XX, GT or LT options at the same time are not compatible");
            return;
        }
        if (gt && lt) {
            c.error("ERR GT and LT options at the same time are not compatible");
            return;
        }
        if (!a.parseLong(2)) {
            c.error(NOT_INTEGER);
            return;
        }
        long seconds = a.longValue;
        long now = c.now();
        if (seconds > Long.MAX_VALUE / 1000 || seconds < Long.MIN_VALUE / 1000
                || (seconds > 0 && seconds * 1000 > Long.MAX_VALUE - now)) {
            c.error("ERR invalid expire time in 'expire' command");
            return;
        }
        long when = now + seconds * 1000;
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (e == null) {
                RespReplies.integer(c.out(), 0);
                return;
            }
            long current = e.expiresAtMillis;
            boolean persistent = current == RespEntry.NEVER;
            boolean xx = (flags & RespFlags.XX) != 0;
            if ((nx && !persistent) || (xx && persistent) || (gt && (persistent || when <= current))
                    || (lt && !persistent && when >= current)) {
                RespReplies.integer(c.out(), 0);
                return;
            }
            if (when <= now) {
                seg.remove(c.probe(), e);
            } else {
                e.expiresAtMillis = when;
            }
            RespReplies.integer(c.out(), 1);
        }
    }

    void ttl(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                RespReplies.integer(c.out(), -2);
            } else if (e.expiresAtMillis == RespEntry.NEVER) {
                RespReplies.integer(c.out(), -1);
            } else {
                RespReplies.integer(c.out(), (e.expiresAtMillis - c.now() + 500) / 1000);
            }
        }
    }

    void type(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            RespReplies.simple(c.out(), e == null ? "none" : RespEntry.typeName(e.type));
        }
    }

    void dbsize() {
        RespReplies.integer(c.out(), c.store.dbSize(c.db));
    }

    /** FLUSHALL ({@code all}) or FLUSHDB [ASYNC|SYNC]. */
    void flush(RespArgs a, boolean all) {
        if (a.count() > 2 || (a.count() == 2 && !a.is(1, ASYNC) && !a.is(1, SYNC))) {
            c.error(SYNTAX);
            return;
        }
        c.store.flush(all ? -1 : c.db);
        c.out().writeBytes(RespReplies.OK);
    }
}
