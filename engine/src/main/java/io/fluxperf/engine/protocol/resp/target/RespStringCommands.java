package io.fluxperf.engine.protocol.resp.target;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_INTEGER;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.OOM;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.SYNTAX;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.bytes;

/**
 * The string commands, as redis' {@code t_string.c} has them: GET, SET with its options, MGET,
 * MSET, and INCR, DECR, INCRBY, DECRBY on a string that holds a 64-bit integer. GET and MGET are
 * read look-ups (keyspace hits and misses); SET … GET reads as GET does. One per connection.
 */
final class RespStringCommands {
    private static final byte[] GET_WORD = bytes("GET");
    private static final byte[] EX = bytes("EX");
    private static final byte[] PX = bytes("PX");
    private static final byte[] EXAT = bytes("EXAT");
    private static final byte[] PXAT = bytes("PXAT");
    private static final byte[] KEEPTTL = bytes("KEEPTTL");

    private final RespClient c;
    /** SET's options, from {@link #parseSetOptions}: NX, XX and GET, KEEPTTL, and the expiry time. */
    private boolean nx;
    private boolean xx;
    private boolean get;
    private boolean keepTtl;
    private long expiresAt;

    RespStringCommands(RespClient client) {
        this.c = client;
    }

    void get(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                c.nil();
            } else if (!c.wrongType(e, RespEntry.STRING)) {
                RespReplies.bulk(c.out(), (byte[]) e.value);
            }
        }
    }

    /** SET k v [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL]. */
    void set(RespArgs a) {
        if (!parseSetOptions(a)) {
            return;
        }
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = get ? c.readLookup(seg) : c.lookup(seg); // SET … GET reads as GET does
            if (get && c.wrongType(e, RespEntry.STRING)) {
                return;
            }
            byte[] old = e != null && e.type == RespEntry.STRING ? (byte[]) e.value : null;
            if ((nx && e != null) || (xx && e == null)) {
                replyOld(get, old);
                return;
            }
            if (!c.fits(seg, a.length(2))) {
                c.error(OOM);
                return;
            }
            long expiry = keepTtl && e != null ? e.expiresAtMillis : expiresAt;
            if (expiry != RespEntry.NEVER && expiry <= c.now()) {
                if (e != null) {
                    seg.remove(c.probe(), e); // an EXAT in the past: set and expired at once
                }
                replyOldOrOk(get, old);
                return;
            }
            storeString(seg, e, RespClient.value(a, 2), expiry);
            replyOldOrOk(get, old);
            seg.makeRoom(c.now());
        }
    }

    /** SET's options after its value, in redis' order of checks; false after an error reply. */
    private boolean parseSetOptions(RespArgs a) {
        nx = false;
        xx = false;
        get = false;
        keepTtl = false;
        expiresAt = RespEntry.NEVER;
        boolean hasExpire = false;
        int argc = a.count();
        for (int i = 3; i < argc; i++) {
            boolean hasNext = i + 1 < argc;
            int flag = RespFlags.of(a, i, RespFlags.NX | RespFlags.XX);
            if (flag == RespFlags.NX && !xx) {
                nx = true;
            } else if (flag == RespFlags.XX && !nx) {
                xx = true;
            } else if (a.is(i, GET_WORD)) {
                get = true;
            } else if (a.is(i, KEEPTTL) && !hasExpire) {
                keepTtl = true;
            } else if ((a.is(i, EX) || a.is(i, PX) || a.is(i, EXAT) || a.is(i, PXAT)) && !keepTtl && !hasExpire && hasNext) {
                boolean seconds = a.is(i, EX) || a.is(i, EXAT);
                boolean absolute = a.is(i, EXAT) || a.is(i, PXAT);
                i++;
                if (!a.parseLong(i)) {
                    c.error(NOT_INTEGER);
                    return false;
                }
                long t = a.longValue;
                long millis = seconds ? t * 1000 : t;
                if (t <= 0 || (seconds && t > Long.MAX_VALUE / 1000) || (!absolute && millis > Long.MAX_VALUE - c.now())) {
                    c.error("ERR invalid expire time in 'set' command");
                    return false;
                }
                expiresAt = absolute ? millis : c.now() + millis;
                hasExpire = true;
            } else {
                c.error(SYNTAX);
                return false;
            }
        }
        return true;
    }

    private void replyOld(boolean withGet, byte[] old) {
        if (withGet && old != null) {
            RespReplies.bulk(c.out(), old);
        } else {
            c.nil();
        }
    }

    private void replyOldOrOk(boolean withGet, byte[] old) {
        if (withGet) {
            replyOld(true, old);
        } else {
            c.out().writeBytes(RespReplies.OK);
        }
    }

    /** Stores a string under the key probe, reusing the entry when it is a string already. Caller holds the segment. */
    private void storeString(RespSegment seg, RespEntry e, byte[] value, long expiry) {
        if (e != null && e.type == RespEntry.STRING) {
            seg.resize(e, value.length - ((byte[]) e.value).length);
            e.value = value;
        } else {
            e = seg.create(c.probe(), true, RespEntry.STRING, value, value.length);
        }
        e.expiresAtMillis = expiry;
    }

    /** INCR, DECR ({@code withArgument} false) and INCRBY, DECRBY; {@code sign} is -1 for the decrements. */
    void incrBy(RespArgs a, int sign, boolean withArgument) {
        long delta = 1;
        if (withArgument) {
            if (!a.parseLong(2)) {
                c.error(NOT_INTEGER);
                return;
            }
            delta = a.longValue;
            if (sign < 0 && delta == Long.MIN_VALUE) {
                c.error("ERR decrement would overflow");
                return;
            }
        }
        delta *= sign;
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (c.wrongType(e, RespEntry.STRING)) {
                return;
            }
            long current = 0;
            if (e != null) {
                byte[] v = (byte[]) e.value;
                if (!a.parseLong(v, 0, v.length)) {
                    c.error(NOT_INTEGER);
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
            storeString(seg, e, Long.toString(next).getBytes(StandardCharsets.US_ASCII),
                    e != null ? e.expiresAtMillis : RespEntry.NEVER);
            RespReplies.integer(c.out(), next);
            seg.makeRoom(c.now());
        }
    }

    void mget(RespArgs a) {
        ByteBuf o = c.out();
        RespReplies.array(o, a.count() - 1);
        for (int i = 1; i < a.count(); i++) {
            RespSegment seg = c.key(a, i);
            synchronized (seg) {
                RespEntry e = c.readLookup(seg);
                if (e != null && e.type == RespEntry.STRING) {
                    RespReplies.bulk(o, (byte[]) e.value);
                } else {
                    c.nil();
                }
            }
        }
    }

    void mset(RespArgs a) {
        if (a.count() % 2 == 0) {
            c.error("ERR wrong number of arguments for 'mset' command");
            return;
        }
        for (int i = 1; i < a.count(); i += 2) {
            RespSegment seg = c.key(a, i);
            if (!c.fits(seg, a.length(i + 1))) {
                c.error(OOM);
                return;
            }
        }
        for (int i = 1; i < a.count(); i += 2) {
            RespSegment seg = c.key(a, i);
            synchronized (seg) {
                storeString(seg, c.lookup(seg), RespClient.value(a, i + 1), RespEntry.NEVER);
                seg.makeRoom(c.now());
            }
        }
        c.out().writeBytes(RespReplies.OK);
    }
}
