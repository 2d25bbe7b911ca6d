package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.protocol.resp.target.RespCounters.Stat;
import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.CommandProcessorBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.function.Consumer;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOAUTH;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_FLOAT;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_INTEGER;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.OOM;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.SYNTAX;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.WRONGPASS;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.WRONGTYPE;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.bytes;

/**
 * Executes one connection's redis commands against the store and appends the replies to the
 * connection's current reply batch, answering as redis 7.0 answers: the same checks in the same
 * order (unknown command, arity, authentication, then the command's own), the same error texts,
 * the same keyspace hit and miss counting (read look-ups only: GET, MGET, EXISTS, HGET, HMGET,
 * HGETALL, HEXISTS, LRANGE, LLEN, SMEMBERS, SISMEMBER, SMISMEMBER, ZRANGE, ZRANK, ZSCORE, ZMSCORE, TTL, TYPE),
 * and RESP3 reply types after {@code HELLO 3}.
 *
 * <p>Not implemented, answered with an error: the rest of redis' command set, ZRANGE's BYLEX, users
 * other than {@code default}. Confined to the connection's event loop.
 */
final class RespCommandProcessor extends CommandProcessorBase implements RespRequestDecoder.Sink {

    private static final byte[] NX = bytes("NX");
    private static final byte[] XX = bytes("XX");
    private static final byte[] GT = bytes("GT");
    private static final byte[] LT = bytes("LT");
    private static final byte[] CH = bytes("CH");
    private static final byte[] INCR_WORD = bytes("INCR");
    private static final byte[] EX = bytes("EX");
    private static final byte[] PX = bytes("PX");
    private static final byte[] EXAT = bytes("EXAT");
    private static final byte[] PXAT = bytes("PXAT");
    private static final byte[] KEEPTTL = bytes("KEEPTTL");
    private static final byte[] GET_WORD = bytes("GET");
    private static final byte[] ASYNC = bytes("ASYNC");
    private static final byte[] SYNC = bytes("SYNC");
    private static final byte[] AUTH_WORD = bytes("AUTH");
    private static final byte[] SETNAME = bytes("SETNAME");
    private static final byte[] REV = bytes("REV");
    private static final byte[] WITHSCORES = bytes("WITHSCORES");
    private static final byte[] BYSCORE = bytes("BYSCORE");
    private static final byte[] BYLEX = bytes("BYLEX");
    private static final byte[] LIMIT = bytes("LIMIT");
    private static final byte[] RESETSTAT = bytes("RESETSTAT");
    private static final byte[] DEFAULT_USER = bytes("default");

    private final RespStore store;
    private final RespCounters.Cell counters;
    private final RespServerStats stats;
    private final byte[] requirePass;
    private final long clientId;

    private final ByteKey probe = ByteKey.probe();
    private final ByteKey member = ByteKey.probe();
    private boolean resp3;
    private int db;
    private boolean authenticated;
    /** An error reply was written for the command running now. */
    private boolean failed;
    /** LRANGE's and ZRANGE's start and stop, from {@link #parseStartStop}. */
    private long rangeStart;
    private long rangeStop;

    /**
     * @param requirePass the password of the default user, or null for none (every client is authenticated)
     * @param earlyWriter takes a reply batch that grew past {@link #EARLY_WRITE_BYTES} mid-read
     */
    RespCommandProcessor(RespStore store, RespCounters.Cell counters, RespServerStats stats, ByteBufAllocator alloc,
                         Consumer<ByteBuf> earlyWriter, String requirePass, long clientId) {
        super(alloc, 256, earlyWriter);
        this.store = store;
        this.counters = counters;
        this.stats = stats;
        this.requirePass = requirePass != null ? requirePass.getBytes(StandardCharsets.UTF_8) : null;
        this.authenticated = requirePass == null;
        this.clientId = clientId;
    }

    @Override
    public boolean authRequired() {
        return !authenticated;
    }

    @Override
    public void onProtocolError(String message) {
        error("ERR " + message);
    }

    @Override
    public void onCommand(RespArgs a, RespRequestDecoder decoder) {
        failed = false;
        RespVerb v = RespVerb.of(a);
        int argc = a.count();
        if (v == null) {
            counters.increment(Stat.UNKNOWN_COMMANDS);
            error(unknownCommand(a));
        } else if (!v.arityOk(argc)) {
            counters.rejected(v);
            error("ERR wrong number of arguments for '" + v.label + "' command");
        } else if (!authenticated && v != RespVerb.AUTH && v != RespVerb.HELLO && v != RespVerb.QUIT) {
            counters.rejected(v);
            error(NOAUTH);
        } else {
            counters.call(v);
            counters.increment(Stat.TOTAL_COMMANDS_PROCESSED);
            execute(v, a, decoder);
            if (failed) {
                counters.failed(v);
            }
        }
        writeEarlyIfLarge();
    }

    private static String unknownCommand(RespArgs a) {
        StringBuilder args = new StringBuilder();
        for (int i = 1; i < a.count() && args.length() < 128; i++) {
            args.append('\'').append(a.text(i, 128 - args.length())).append("' ");
        }
        String verb = a.text(0, 128);
        return ("ERR unknown command '" + verb + "', with args beginning with: " + args).replace('\r', ' ').replace('\n', ' ');
    }

    private void execute(RespVerb v, RespArgs a, RespRequestDecoder decoder) {
        switch (v) {
            case GET -> get(a);
            case SET -> set(a);
            case DEL -> del(a);
            case EXISTS -> exists(a);
            case EXPIRE -> expire(a);
            case TTL -> ttl(a);
            case TYPE -> type(a);
            case INCR -> incrBy(a, 1, false);
            case DECR -> incrBy(a, -1, false);
            case INCRBY -> incrBy(a, 1, true);
            case DECRBY -> incrBy(a, -1, true);
            case MGET -> mget(a);
            case MSET -> mset(a);
            case HGET -> hget(a);
            case HSET -> hset(a);
            case HGETALL -> hgetall(a);
            case HDEL -> hdel(a);
            case HMGET -> hmget(a);
            case HINCRBY -> hincrby(a);
            case SISMEMBER -> sismember(a, false);
            case SMISMEMBER -> sismember(a, true);
            case ZSCORE -> zscore(a, false);
            case ZMSCORE -> zscore(a, true);
            case ZINCRBY -> zincrby(a);
            case LPUSH -> push(a, true);
            case RPUSH -> push(a, false);
            case LPOP -> pop(a, true);
            case RPOP -> pop(a, false);
            case LRANGE -> lrange(a);
            case LLEN -> llen(a);
            case LTRIM -> ltrim(a);
            case ZRANK -> zrank(a);
            case HEXISTS -> hexists(a);
            case SADD -> sadd(a);
            case SREM -> srem(a);
            case SMEMBERS -> smembers(a);
            case ZADD -> zadd(a);
            case ZRANGE -> zrange(a);
            case ZREM -> zrem(a);
            case PING -> ping(a);
            case ECHO -> RespReplies.bulk(out(), a.bytes, a.start(1), a.length(1));
            case FLUSHALL, FLUSHDB -> flush(a, v == RespVerb.FLUSHALL);
            case DBSIZE -> RespReplies.integer(out(), store.dbSize(db));
            case AUTH -> auth(a);
            case SELECT -> select(a);
            case HELLO -> hello(a);
            case INFO -> info(a);
            case COMMAND -> RespReplies.array(out(), 0); // enough for redis-cli and benchmark tools to connect
            case CONFIG -> config(a);
            case QUIT -> {
                out().writeBytes(RespReplies.OK);
                decoder.stop(); // the connection closes once the replies so far are written
            }
            default -> throw new IllegalStateException("no handler for " + v);
        }
    }

    // ---- helpers ----

    private void error(String message) {
        failed = true;
        counters.increment(Stat.TOTAL_ERROR_REPLIES);
        RespReplies.error(out(), message);
    }

    /** Points the key probe at word i (in the selected database) and returns its segment. */
    private RespSegment key(RespArgs a, int i) {
        probe.view(db, a.bytes, a.start(i), a.length(i));
        return store.segment(probe);
    }

    private ByteKey member(RespArgs a, int i) {
        return member.view(0, a.bytes, a.start(i), a.length(i));
    }

    private static ByteKey copy(RespArgs a, int i) {
        return ByteKey.copyOf(0, a.bytes, a.start(i), a.length(i));
    }

    private static byte[] value(RespArgs a, int i) {
        return Arrays.copyOfRange(a.bytes, a.start(i), a.end(i));
    }

    /** A look-up that counts in keyspace_hits / keyspace_misses, as redis' lookupKeyRead. Caller holds the segment. */
    private RespEntry readLookup(RespSegment seg) {
        RespEntry e = seg.lookup(probe, now);
        counters.increment(e == null ? Stat.KEYSPACE_MISSES : Stat.KEYSPACE_HITS);
        return e;
    }

    /**
     * Parses LRANGE's and ZRANGE's start and stop (words 2 and 3) into {@link #rangeStart} and
     * {@link #rangeStop}; false after an error reply.
     */
    private boolean parseStartStop(RespArgs a) {
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

    /**
     * LRANGE's and ZRANGE's read look-up of the probe key: its entry if it has {@code type}, else
     * null after the reply (an empty array for a missing key, WRONGTYPE). Caller holds the segment.
     */
    private RespEntry rangeLookup(RespSegment seg, byte type) {
        RespEntry e = readLookup(seg);
        if (e == null) {
            RespReplies.array(out(), 0);
            return null;
        }
        if (e.type != type) {
            error(WRONGTYPE);
            return null;
        }
        return e;
    }

    /** Whether a new value of {@code size} bytes could be stored at all under the current key. */
    private boolean fits(RespSegment seg, long size) {
        return probe.length() + RespEntry.KEY_OVERHEAD + size <= seg.budget();
    }

    // ---- strings ----

    private void get(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.nil(out(), resp3);
            } else if (e.type != RespEntry.STRING) {
                error(WRONGTYPE);
            } else {
                RespReplies.bulk(out(), (byte[]) e.value);
            }
        }
    }

    private void set(RespArgs a) {
        boolean nx = false;
        boolean xx = false;
        boolean get = false;
        boolean keepTtl = false;
        long expiresAt = RespEntry.NEVER;
        boolean hasExpire = false;
        int argc = a.count();
        for (int i = 3; i < argc; i++) {
            boolean hasNext = i + 1 < argc;
            if (a.is(i, NX) && !xx) {
                nx = true;
            } else if (a.is(i, XX) && !nx) {
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
                    error(NOT_INTEGER);
                    return;
                }
                long t = a.longValue;
                if (t <= 0 || (seconds && t > Long.MAX_VALUE / 1000)) {
                    error("ERR invalid expire time in 'set' command");
                    return;
                }
                long millis = seconds ? t * 1000 : t;
                if (!absolute && millis > Long.MAX_VALUE - now) {
                    error("ERR invalid expire time in 'set' command");
                    return;
                }
                expiresAt = absolute ? millis : now + millis;
                hasExpire = true;
            } else {
                error(SYNTAX);
                return;
            }
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = get ? readLookup(seg) : seg.lookup(probe, now); // SET … GET reads as GET does
            if (get && e != null && e.type != RespEntry.STRING) {
                error(WRONGTYPE);
                return;
            }
            byte[] old = e != null && e.type == RespEntry.STRING ? (byte[]) e.value : null;
            if ((nx && e != null) || (xx && e == null)) {
                replyOld(get, old);
                return;
            }
            if (!fits(seg, a.length(2))) {
                error(OOM);
                return;
            }
            long expiry = keepTtl && e != null ? e.expiresAtMillis : expiresAt;
            if (expiry != RespEntry.NEVER && expiry <= now) {
                if (e != null) {
                    seg.remove(probe, e); // an EXAT in the past: set and expired at once
                }
                replyOldOrOk(get, old);
                return;
            }
            storeString(seg, e, value(a, 2), expiry);
            replyOldOrOk(get, old);
            seg.makeRoom(now);
        }
    }

    private void replyOld(boolean get, byte[] old) {
        if (get && old != null) {
            RespReplies.bulk(out(), old);
        } else {
            RespReplies.nil(out(), resp3);
        }
    }

    private void replyOldOrOk(boolean get, byte[] old) {
        if (get) {
            replyOld(true, old);
        } else {
            out().writeBytes(RespReplies.OK);
        }
    }

    /** Stores a string under the probe key, reusing the entry when it is a string already. Caller holds the segment. */
    private void storeString(RespSegment seg, RespEntry e, byte[] value, long expiresAt) {
        if (e != null && e.type == RespEntry.STRING) {
            seg.resize(e, value.length - ((byte[]) e.value).length);
            e.value = value;
        } else {
            e = seg.create(probe, true, RespEntry.STRING, value, value.length);
        }
        e.expiresAtMillis = expiresAt;
    }

    private void del(RespArgs a) {
        long deleted = 0;
        for (int i = 1; i < a.count(); i++) {
            RespSegment seg = key(a, i);
            synchronized (seg) {
                RespEntry e = seg.lookup(probe, now);
                if (e != null) {
                    seg.remove(probe, e);
                    deleted++;
                }
            }
        }
        RespReplies.integer(out(), deleted);
    }

    private void exists(RespArgs a) {
        long found = 0;
        for (int i = 1; i < a.count(); i++) {
            RespSegment seg = key(a, i);
            synchronized (seg) {
                if (readLookup(seg) != null) {
                    found++;
                }
            }
        }
        RespReplies.integer(out(), found);
    }

    /** EXPIRE k seconds [NX|XX|GT|LT]: the options are checked before the number, as redis does. */
    private void expire(RespArgs a) {
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        for (int i = 3; i < a.count(); i++) {
            if (a.is(i, NX)) {
                nx = true;
            } else if (a.is(i, XX)) {
                xx = true;
            } else if (a.is(i, GT)) {
                gt = true;
            } else if (a.is(i, LT)) {
                lt = true;
            } else {
                error("ERR Unsupported option " + a.text(i));
                return;
            }
        }
        if (nx && (xx || gt || lt)) {
            error("ERR NX and XX, GT or LT options at the same time are not compatible");
            return;
        }
        if (gt && lt) {
            error("ERR GT and LT options at the same time are not compatible");
            return;
        }
        if (!a.parseLong(2)) {
            error(NOT_INTEGER);
            return;
        }
        long seconds = a.longValue;
        if (seconds > Long.MAX_VALUE / 1000 || seconds < Long.MIN_VALUE / 1000
                || (seconds > 0 && seconds * 1000 > Long.MAX_VALUE - now)) {
            error("ERR invalid expire time in 'expire' command");
            return;
        }
        long when = now + seconds * 1000;
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e == null) {
                RespReplies.integer(out(), 0);
                return;
            }
            long current = e.expiresAtMillis;
            boolean persistent = current == RespEntry.NEVER;
            if ((nx && !persistent) || (xx && persistent) || (gt && (persistent || when <= current))
                    || (lt && !persistent && when >= current)) {
                RespReplies.integer(out(), 0);
                return;
            }
            if (when <= now) {
                seg.remove(probe, e);
            } else {
                e.expiresAtMillis = when;
            }
            RespReplies.integer(out(), 1);
        }
    }

    private void ttl(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.integer(out(), -2);
            } else if (e.expiresAtMillis == RespEntry.NEVER) {
                RespReplies.integer(out(), -1);
            } else {
                RespReplies.integer(out(), (e.expiresAtMillis - now + 500) / 1000);
            }
        }
    }

    private void type(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            RespReplies.simple(out(), e == null ? "none" : RespEntry.typeName(e.type));
        }
    }

    /** INCR, DECR ({@code withArgument} false) and INCRBY, DECRBY; {@code sign} is -1 for the decrements. */
    private void incrBy(RespArgs a, int sign, boolean withArgument) {
        long delta = 1;
        if (withArgument) {
            if (!a.parseLong(2)) {
                error(NOT_INTEGER);
                return;
            }
            delta = a.longValue;
            if (sign < 0 && delta == Long.MIN_VALUE) {
                error("ERR decrement would overflow");
                return;
            }
        }
        delta *= sign;
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            long current = 0;
            if (e != null) {
                if (e.type != RespEntry.STRING) {
                    error(WRONGTYPE);
                    return;
                }
                byte[] v = (byte[]) e.value;
                if (!a.parseLong(v, 0, v.length)) {
                    error(NOT_INTEGER);
                    return;
                }
                current = a.longValue;
            }
            long next;
            try {
                next = Math.addExact(current, delta);
            } catch (ArithmeticException overflow) {
                error("ERR increment or decrement would overflow");
                return;
            }
            storeString(seg, e, Long.toString(next).getBytes(StandardCharsets.US_ASCII),
                    e != null ? e.expiresAtMillis : RespEntry.NEVER);
            RespReplies.integer(out(), next);
            seg.makeRoom(now);
        }
    }

    private void mget(RespArgs a) {
        ByteBuf o = out();
        RespReplies.array(o, a.count() - 1);
        for (int i = 1; i < a.count(); i++) {
            RespSegment seg = key(a, i);
            synchronized (seg) {
                RespEntry e = readLookup(seg);
                if (e != null && e.type == RespEntry.STRING) {
                    RespReplies.bulk(o, (byte[]) e.value);
                } else {
                    RespReplies.nil(o, resp3);
                }
            }
        }
    }

    private void mset(RespArgs a) {
        if (a.count() % 2 == 0) {
            error("ERR wrong number of arguments for 'mset' command");
            return;
        }
        for (int i = 1; i < a.count(); i += 2) {
            RespSegment seg = key(a, i);
            if (!fits(seg, a.length(i + 1))) {
                error(OOM);
                return;
            }
        }
        for (int i = 1; i < a.count(); i += 2) {
            RespSegment seg = key(a, i);
            synchronized (seg) {
                storeString(seg, seg.lookup(probe, now), value(a, i + 1), RespEntry.NEVER);
                seg.makeRoom(now);
            }
        }
        out().writeBytes(RespReplies.OK);
    }

    // ---- hashes ----

    private void hget(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.nil(out(), resp3);
            } else if (e.type != RespEntry.HASH) {
                error(WRONGTYPE);
            } else {
                byte[] v = e.hash().get(member(a, 2));
                if (v == null) {
                    RespReplies.nil(out(), resp3);
                } else {
                    RespReplies.bulk(out(), v);
                }
            }
        }
    }

    private void hexists(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.integer(out(), 0);
            } else if (e.type != RespEntry.HASH) {
                error(WRONGTYPE);
            } else {
                RespReplies.integer(out(), e.hash().containsKey(member(a, 2)) ? 1 : 0);
            }
        }
    }

    private void hset(RespArgs a) {
        if (a.count() % 2 == 1) {
            error("ERR wrong number of arguments for 'hset' command");
            return;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e != null && e.type != RespEntry.HASH) {
                error(WRONGTYPE);
                return;
            }
            if (e == null) {
                e = seg.create(probe, true, RespEntry.HASH, new HashMap<ByteKey, byte[]>(4), 0);
            }
            HashMap<ByteKey, byte[]> hash = e.hash();
            long added = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i += 2) {
                byte[] v = value(a, i + 1);
                byte[] old = hash.get(member(a, i));
                if (old != null) {
                    hash.put(member, v); // keeps the stored field object; member is a probe
                    delta += v.length - old.length;
                } else {
                    hash.put(copy(a, i), v);
                    delta += a.length(i) + v.length + RespEntry.HASH_FIELD_OVERHEAD;
                    added++;
                }
            }
            seg.resize(e, delta);
            RespReplies.integer(out(), added);
            seg.makeRoom(now);
        }
    }

    private void hgetall(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.map(out(), 0, resp3);
            } else if (e.type != RespEntry.HASH) {
                error(WRONGTYPE);
            } else {
                ByteBuf o = out();
                RespReplies.map(o, e.hash().size(), resp3);
                for (var field : e.hash().entrySet()) {
                    RespReplies.bulk(o, field.getKey());
                    RespReplies.bulk(o, field.getValue());
                }
            }
        }
    }

    private void hdel(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e == null) {
                RespReplies.integer(out(), 0);
                return;
            }
            if (e.type != RespEntry.HASH) {
                error(WRONGTYPE);
                return;
            }
            HashMap<ByteKey, byte[]> hash = e.hash();
            long removed = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                byte[] old = hash.remove(member(a, i));
                if (old != null) {
                    removed++;
                    delta -= a.length(i) + old.length + RespEntry.HASH_FIELD_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            if (hash.isEmpty()) {
                seg.remove(probe, e);
            }
            RespReplies.integer(out(), removed);
        }
    }

    private void hmget(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e != null && e.type != RespEntry.HASH) {
                error(WRONGTYPE);
                return;
            }
            ByteBuf o = out();
            RespReplies.array(o, a.count() - 2);
            for (int i = 2; i < a.count(); i++) {
                byte[] v = e == null ? null : e.hash().get(member(a, i));
                if (v == null) {
                    RespReplies.nil(o, resp3);
                } else {
                    RespReplies.bulk(o, v);
                }
            }
        }
    }

    private void hincrby(RespArgs a) {
        if (!a.parseLong(3)) {
            error(NOT_INTEGER);
            return;
        }
        long delta = a.longValue;
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e != null && e.type != RespEntry.HASH) {
                error(WRONGTYPE);
                return;
            }
            long current = 0;
            byte[] old = e == null ? null : e.hash().get(member(a, 2));
            if (old != null) {
                if (!a.parseLong(old, 0, old.length)) {
                    error("ERR hash value is not an integer");
                    return;
                }
                current = a.longValue;
            }
            long next;
            try {
                next = Math.addExact(current, delta);
            } catch (ArithmeticException overflow) {
                error("ERR increment or decrement would overflow");
                return;
            }
            if (e == null) {
                e = seg.create(probe, true, RespEntry.HASH, new HashMap<ByteKey, byte[]>(4), 0);
            }
            byte[] v = Long.toString(next).getBytes(StandardCharsets.US_ASCII);
            if (old != null) {
                e.hash().put(member, v);
                seg.resize(e, v.length - old.length);
            } else {
                e.hash().put(copy(a, 2), v);
                seg.resize(e, a.length(2) + v.length + RespEntry.HASH_FIELD_OVERHEAD);
            }
            RespReplies.integer(out(), next);
            seg.makeRoom(now);
        }
    }

    // ---- lists ----

    private void push(RespArgs a, boolean left) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e != null && e.type != RespEntry.LIST) {
                error(WRONGTYPE);
                return;
            }
            if (e == null) {
                e = seg.create(probe, true, RespEntry.LIST, new ArrayDeque<byte[]>(), 0);
            }
            ArrayDeque<byte[]> list = e.list();
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                byte[] v = value(a, i);
                if (left) {
                    list.addFirst(v);
                } else {
                    list.addLast(v);
                }
                delta += v.length + RespEntry.LIST_ELEMENT_OVERHEAD;
            }
            seg.resize(e, delta);
            RespReplies.integer(out(), list.size());
            seg.makeRoom(now);
        }
    }

    private void pop(RespArgs a, boolean left) {
        if (a.count() > 3) {
            error("ERR wrong number of arguments for '" + (left ? "lpop" : "rpop") + "' command");
            return;
        }
        boolean withCount = a.count() == 3;
        long count = 1;
        if (withCount) {
            if (!a.parseLong(2) || a.longValue < 0) {
                error("ERR value is out of range, must be positive");
                return;
            }
            count = a.longValue;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e == null) {
                if (withCount) {
                    RespReplies.nilArray(out(), resp3);
                } else {
                    RespReplies.nil(out(), resp3);
                }
                return;
            }
            if (e.type != RespEntry.LIST) {
                error(WRONGTYPE);
                return;
            }
            ArrayDeque<byte[]> list = e.list();
            long n = Math.min(count, list.size());
            ByteBuf o = out();
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
            if (list.isEmpty()) {
                seg.remove(probe, e);
            }
        }
    }

    private void lrange(RespArgs a) {
        if (!parseStartStop(a)) {
            return;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = rangeLookup(seg, RespEntry.LIST);
            if (e == null) {
                return;
            }
            ArrayDeque<byte[]> list = e.list();
            long[] range = range(rangeStart, rangeStop, list.size());
            ByteBuf o = out();
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

    private void llen(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.integer(out(), 0);
            } else if (e.type != RespEntry.LIST) {
                error(WRONGTYPE);
            } else {
                RespReplies.integer(out(), e.list().size());
            }
        }
    }

    /** LTRIM k start stop: keeps the elements from start to stop (redis' index rules); the list goes when none is left. */
    private void ltrim(RespArgs a) {
        if (!parseStartStop(a)) {
            return;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e == null) {
                out().writeBytes(RespReplies.OK);
                return;
            }
            if (e.type != RespEntry.LIST) {
                error(WRONGTYPE);
                return;
            }
            ArrayDeque<byte[]> list = e.list();
            long[] keep = range(rangeStart, rangeStop, list.size());
            long fromEnd = list.size() - keep[1];
            long delta = 0;
            for (long i = 0; i < keep[0]; i++) {
                delta -= list.pollFirst().length + RespEntry.LIST_ELEMENT_OVERHEAD;
            }
            for (long i = 0; i < fromEnd; i++) {
                delta -= list.pollLast().length + RespEntry.LIST_ELEMENT_OVERHEAD;
            }
            seg.resize(e, delta);
            if (list.isEmpty()) {
                seg.remove(probe, e);
            }
            out().writeBytes(RespReplies.OK);
        }
    }

    /** redis' index rules (negative from the end, clamped): the half-open range [from, to) of a sequence of {@code size}. */
    private static long[] range(long start, long stop, long size) {
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

    // ---- sets ----

    private void sadd(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e != null && e.type != RespEntry.SET) {
                error(WRONGTYPE);
                return;
            }
            if (e == null) {
                e = seg.create(probe, true, RespEntry.SET, new HashSet<ByteKey>(4), 0);
            }
            HashSet<ByteKey> set = e.set();
            long added = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                if (!set.contains(member(a, i))) {
                    set.add(copy(a, i));
                    added++;
                    delta += a.length(i) + RespEntry.SET_MEMBER_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            RespReplies.integer(out(), added);
            seg.makeRoom(now);
        }
    }

    private void srem(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e == null) {
                RespReplies.integer(out(), 0);
                return;
            }
            if (e.type != RespEntry.SET) {
                error(WRONGTYPE);
                return;
            }
            HashSet<ByteKey> set = e.set();
            long removed = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                if (set.remove(member(a, i))) {
                    removed++;
                    delta -= a.length(i) + RespEntry.SET_MEMBER_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            if (set.isEmpty()) {
                seg.remove(probe, e);
            }
            RespReplies.integer(out(), removed);
        }
    }

    private void smembers(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.set(out(), 0, resp3);
            } else if (e.type != RespEntry.SET) {
                error(WRONGTYPE);
            } else {
                ByteBuf o = out();
                RespReplies.set(o, e.set().size(), resp3);
                for (ByteKey m : e.set()) {
                    RespReplies.bulk(o, m);
                }
            }
        }
    }

    /** SISMEMBER k m (an integer), or SMISMEMBER k m1 m2 … ({@code many}: an array of integers). */
    private void sismember(RespArgs a, boolean many) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e != null && e.type != RespEntry.SET) {
                error(WRONGTYPE);
                return;
            }
            ByteBuf o = out();
            if (many) {
                RespReplies.array(o, a.count() - 2);
            }
            for (int i = 2; i < (many ? a.count() : 3); i++) {
                RespReplies.integer(o, e != null && e.set().contains(member(a, i)) ? 1 : 0);
            }
        }
    }

    // ---- sorted sets ----

    /** ZSCORE k m (a score or nil), or ZMSCORE k m1 m2 … ({@code many}: an array of them). */
    private void zscore(RespArgs a, boolean many) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e != null && e.type != RespEntry.ZSET) {
                error(WRONGTYPE);
                return;
            }
            ByteBuf o = out();
            if (many) {
                RespReplies.array(o, a.count() - 2);
            }
            for (int i = 2; i < (many ? a.count() : 3); i++) {
                Double score = e == null ? null : e.zset().scores.get(member(a, i));
                if (score == null) {
                    RespReplies.nil(o, resp3);
                } else {
                    RespReplies.dbl(o, score, resp3);
                }
            }
        }
    }

    /**
     * ZINCRBY k n m. redis runs it as ZADD k INCR n m, whose option words it reads first: an
     * increment spelled as one (NX, XX, GT, LT, CH, INCR) leaves no score and member, a syntax error.
     */
    private void zincrby(RespArgs a) {
        if (a.is(2, NX) || a.is(2, XX) || a.is(2, GT) || a.is(2, LT) || a.is(2, CH) || a.is(2, INCR_WORD)) {
            error(SYNTAX);
            return;
        }
        double delta = parseDouble(a, 2);
        if (Double.isNaN(delta)) {
            error(NOT_FLOAT);
            return;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e != null && e.type != RespEntry.ZSET) {
                error(WRONGTYPE);
                return;
            }
            if (e == null) {
                e = seg.create(probe, true, RespEntry.ZSET, new RespEntry.ZSet(), 0);
            }
            RespEntry.ZSet z = e.zset();
            Double old = z.scores.get(member(a, 3));
            double score = old == null ? delta : old + delta;
            if (Double.isNaN(score)) {
                error("ERR resulting score is not a number (NaN)");
                return;
            }
            if (old != null) {
                ByteKey stored = z.order.ceiling(new RespEntry.ZSet.Node(old, member)).member();
                z.order.remove(new RespEntry.ZSet.Node(old, stored));
                z.order.add(new RespEntry.ZSet.Node(score, stored));
                z.scores.put(stored, score);
            } else {
                ByteKey stored = copy(a, 3);
                z.scores.put(stored, score);
                z.order.add(new RespEntry.ZSet.Node(score, stored));
                seg.resize(e, a.length(3) + RespEntry.ZSET_MEMBER_OVERHEAD);
            }
            RespReplies.dbl(out(), score, resp3);
            seg.makeRoom(now);
        }
    }

    private void zadd(RespArgs a) {
        boolean nx = false;
        boolean xx = false;
        boolean gt = false;
        boolean lt = false;
        boolean ch = false;
        boolean incr = false;
        int i = 2;
        for (; i < a.count(); i++) {
            if (a.is(i, NX)) {
                nx = true;
            } else if (a.is(i, XX)) {
                xx = true;
            } else if (a.is(i, GT)) {
                gt = true;
            } else if (a.is(i, LT)) {
                lt = true;
            } else if (a.is(i, CH)) {
                ch = true;
            } else if (a.is(i, INCR_WORD)) {
                incr = true;
            } else {
                break;
            }
        }
        int pairs = (a.count() - i) / 2;
        if ((a.count() - i) % 2 != 0 || pairs == 0) {
            error(SYNTAX);
            return;
        }
        if (nx && xx) {
            error("ERR XX and NX options at the same time are not compatible");
            return;
        }
        if ((gt && nx) || (lt && nx) || (gt && lt)) {
            error("ERR GT, LT, and/or NX options at the same time are not compatible");
            return;
        }
        if (incr && pairs > 1) {
            error("ERR INCR option supports a single increment-element pair");
            return;
        }
        double[] scores = new double[pairs];
        for (int p = 0; p < pairs; p++) {
            double s = parseDouble(a, i + 2 * p);
            if (Double.isNaN(s)) {
                error(NOT_FLOAT);
                return;
            }
            scores[p] = s;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e != null && e.type != RespEntry.ZSET) {
                error(WRONGTYPE);
                return;
            }
            if (e == null) {
                if (xx) {
                    if (incr) {
                        RespReplies.nil(out(), resp3);
                    } else {
                        RespReplies.integer(out(), 0);
                    }
                    return;
                }
                e = seg.create(probe, true, RespEntry.ZSET, new RespEntry.ZSet(), 0);
            }
            RespEntry.ZSet z = e.zset();
            long added = 0;
            long changed = 0;
            long delta = 0;
            double result = Double.NaN;
            for (int p = 0; p < pairs; p++) {
                int m = i + 2 * p + 1;
                double score = scores[p];
                Double old = z.scores.get(member(a, m));
                if (old != null) {
                    if (nx) {
                        continue;
                    }
                    if (incr) {
                        score = old + score;
                        if (Double.isNaN(score)) {
                            error("ERR resulting score is not a number (NaN)");
                            return;
                        }
                    }
                    if ((gt && score <= old) || (lt && score >= old)) {
                        continue;
                    }
                    result = score;
                    if (score != old) {
                        ByteKey stored = z.order.ceiling(new RespEntry.ZSet.Node(old, member)).member();
                        z.order.remove(new RespEntry.ZSet.Node(old, stored));
                        z.order.add(new RespEntry.ZSet.Node(score, stored));
                        z.scores.put(stored, score);
                        changed++;
                    }
                } else if (!xx) {
                    ByteKey stored = copy(a, m);
                    z.scores.put(stored, score);
                    z.order.add(new RespEntry.ZSet.Node(score, stored));
                    delta += a.length(m) + RespEntry.ZSET_MEMBER_OVERHEAD;
                    added++;
                    result = score;
                }
            }
            seg.resize(e, delta);
            if (z.size() == 0) {
                seg.remove(probe, e);
            }
            if (incr) {
                if (Double.isNaN(result)) {
                    RespReplies.nil(out(), resp3);
                } else {
                    RespReplies.dbl(out(), result, resp3);
                }
            } else {
                RespReplies.integer(out(), ch ? added + changed : added);
            }
            seg.makeRoom(now);
        }
    }

    /** Word i as a score ({@link RespDoubles#score}); NaN when it is none. */
    private static double parseDouble(RespArgs a, int i) {
        return RespDoubles.score(a.bytes, a.start(i), a.end(i));
    }

    /** ZRANK k m: the member's index in score order, or nil when the member or the set is not there. */
    private void zrank(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = readLookup(seg);
            if (e == null) {
                RespReplies.nil(out(), resp3);
                return;
            }
            if (e.type != RespEntry.ZSET) {
                error(WRONGTYPE);
                return;
            }
            RespEntry.ZSet z = e.zset();
            Double score = z.scores.get(member(a, 2));
            if (score == null) {
                RespReplies.nil(out(), resp3);
            } else {
                RespReplies.integer(out(), z.order.headSet(new RespEntry.ZSet.Node(score, member)).size());
            }
        }
    }

    /** ZRANGE k start stop [BYSCORE] [REV] [LIMIT offset count] [WITHSCORES], parsed in redis 7.0's order. */
    private void zrange(RespArgs a) {
        boolean rev = false;
        boolean withScores = false;
        boolean byScore = false;
        boolean limited = false;
        long offset = 0;
        long limit = -1;
        for (int i = 4; i < a.count(); i++) {
            if (a.is(i, WITHSCORES)) {
                withScores = true;
            } else if (a.is(i, LIMIT) && a.count() - i - 1 >= 2) {
                if (!a.parseLong(i + 1)) {
                    error(NOT_INTEGER);
                    return;
                }
                offset = a.longValue;
                if (!a.parseLong(i + 2)) {
                    error(NOT_INTEGER);
                    return;
                }
                limit = a.longValue;
                limited = true;
                i += 2;
            } else if (!rev && a.is(i, REV)) {
                rev = true;
            } else if (!byScore && a.is(i, BYSCORE)) {
                byScore = true;
            } else if (!byScore && a.is(i, BYLEX)) {
                error("ERR BYLEX is not implemented by fluxperf's embedded server");
                return;
            } else {
                error(SYNTAX);
                return;
            }
        }
        if (limited && !byScore && (offset != 0 || limit != -1)) {
            error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
            return;
        }
        if (byScore) {
            zrangeByScore(a, rev, withScores, offset, limit);
            return;
        }
        if (!parseStartStop(a)) {
            return;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = rangeLookup(seg, RespEntry.ZSET);
            if (e == null) {
                return;
            }
            RespEntry.ZSet z = e.zset();
            long[] range = range(rangeStart, rangeStop, z.size());
            long n = range[1] - range[0];
            ByteBuf o = out();
            RespReplies.array(o, withScores && !resp3 ? n * 2 : n);
            Iterator<RespEntry.ZSet.Node> it = rev ? z.order.descendingIterator() : z.order.iterator();
            for (long i = 0; i < range[1] && it.hasNext(); i++) {
                RespEntry.ZSet.Node node = it.next();
                if (i < range[0]) {
                    continue;
                }
                if (withScores && resp3) {
                    RespReplies.array(o, 2);
                }
                RespReplies.bulk(o, node.member());
                if (withScores) {
                    RespReplies.dbl(o, node.score(), resp3);
                }
            }
        }
    }

    /**
     * ZRANGE's BYSCORE: members whose score lies between min and max (REV: max given first), each
     * end inclusive unless written {@code (score}, then LIMIT's offset and count (a negative count:
     * all).
     */
    private void zrangeByScore(RespArgs a, boolean rev, boolean withScores, long offset, long limit) {
        int minWord = rev ? 3 : 2;
        int maxWord = rev ? 2 : 3;
        boolean minOpen = a.length(minWord) > 0 && a.bytes[a.start(minWord)] == '(';
        boolean maxOpen = a.length(maxWord) > 0 && a.bytes[a.start(maxWord)] == '(';
        double min = scoreBound(a, minWord, minOpen);
        double max = scoreBound(a, maxWord, maxOpen);
        if (Double.isNaN(min) || Double.isNaN(max)) {
            error("ERR min or max is not a float");
            return;
        }
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = rangeLookup(seg, RespEntry.ZSET);
            if (e == null) {
                return;
            }
            RespEntry.ZSet z = e.zset();
            // two passes over the members in range: count them for the reply's header, then write them
            long n = 0;
            long skipped = 0;
            Iterator<RespEntry.ZSet.Node> it = rev ? z.order.descendingIterator() : z.order.iterator();
            while (it.hasNext() && offset >= 0 && (limit < 0 || n < limit)) {
                double s = it.next().score();
                if (inScoreRange(s, min, minOpen, max, maxOpen)) {
                    if (skipped < offset) {
                        skipped++;
                    } else {
                        n++;
                    }
                }
            }
            ByteBuf o = out();
            RespReplies.array(o, withScores && !resp3 ? n * 2 : n);
            long written = 0;
            skipped = 0;
            it = rev ? z.order.descendingIterator() : z.order.iterator();
            while (written < n && it.hasNext()) {
                RespEntry.ZSet.Node node = it.next();
                if (!inScoreRange(node.score(), min, minOpen, max, maxOpen)) {
                    continue;
                }
                if (skipped < offset) {
                    skipped++;
                    continue;
                }
                if (withScores && resp3) {
                    RespReplies.array(o, 2);
                }
                RespReplies.bulk(o, node.member());
                if (withScores) {
                    RespReplies.dbl(o, node.score(), resp3);
                }
                written++;
            }
        }
    }

    /** A by-score bound ({@link RespDoubles#rangeEnd}), after its {@code (} when {@code open}; NaN when it is no float. */
    private static double scoreBound(RespArgs a, int i, boolean open) {
        return RespDoubles.rangeEnd(a.bytes, a.start(i) + (open ? 1 : 0), a.end(i));
    }

    private static boolean inScoreRange(double s, double min, boolean minOpen, double max, boolean maxOpen) {
        return (minOpen ? s > min : s >= min) && (maxOpen ? s < max : s <= max);
    }

    private void zrem(RespArgs a) {
        RespSegment seg = key(a, 1);
        synchronized (seg) {
            RespEntry e = seg.lookup(probe, now);
            if (e == null) {
                RespReplies.integer(out(), 0);
                return;
            }
            if (e.type != RespEntry.ZSET) {
                error(WRONGTYPE);
                return;
            }
            RespEntry.ZSet z = e.zset();
            long removed = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                Double score = z.scores.get(member(a, i));
                if (score != null) {
                    ByteKey stored = z.order.ceiling(new RespEntry.ZSet.Node(score, member)).member();
                    z.order.remove(new RespEntry.ZSet.Node(score, stored));
                    z.scores.remove(stored);
                    removed++;
                    delta -= a.length(i) + RespEntry.ZSET_MEMBER_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            if (z.size() == 0) {
                seg.remove(probe, e);
            }
            RespReplies.integer(out(), removed);
        }
    }

    // ---- server ----

    private void ping(RespArgs a) {
        if (a.count() > 2) {
            error("ERR wrong number of arguments for 'ping' command");
        } else if (a.count() == 2) {
            RespReplies.bulk(out(), a.bytes, a.start(1), a.length(1));
        } else {
            out().writeBytes(RespReplies.PONG);
        }
    }

    private void flush(RespArgs a, boolean all) {
        if (a.count() > 2 || (a.count() == 2 && !a.is(1, ASYNC) && !a.is(1, SYNC))) {
            error(SYNTAX);
            return;
        }
        store.flush(all ? -1 : db);
        out().writeBytes(RespReplies.OK);
    }

    /** Whether the user (word {@code userWord}, or -1 for the default user) may log in with password word {@code passwordWord}. */
    private boolean credentialsOk(RespArgs a, int userWord, int passwordWord) {
        boolean defaultUser = userWord < 0 || Arrays.equals(a.bytes, a.start(userWord), a.end(userWord),
                DEFAULT_USER, 0, DEFAULT_USER.length);
        if (!defaultUser) {
            return false; // ACL users other than default are not implemented
        }
        if (requirePass == null) {
            return true; // the default user has nopass
        }
        return Arrays.equals(a.bytes, a.start(passwordWord), a.end(passwordWord), requirePass, 0, requirePass.length);
    }

    private void auth(RespArgs a) {
        if (a.count() > 3) {
            error(SYNTAX);
            return;
        }
        if (a.count() == 2 && requirePass == null) {
            error("ERR AUTH <password> called without any password configured for the default user. "
                    + "Are you sure your configuration is correct?");
            return;
        }
        boolean ok = a.count() == 3 ? credentialsOk(a, 1, 2) : credentialsOk(a, -1, 1);
        if (!ok) {
            error(WRONGPASS);
            return;
        }
        authenticated = true;
        out().writeBytes(RespReplies.OK);
    }

    private void select(RespArgs a) {
        if (!a.parseLong(1)) {
            error(NOT_INTEGER);
            return;
        }
        if (a.longValue < 0 || a.longValue >= RespStore.DATABASES) {
            error("ERR DB index is out of range");
            return;
        }
        db = (int) a.longValue;
        out().writeBytes(RespReplies.OK);
    }

    private void hello(RespArgs a) {
        int proto = resp3 ? 3 : 2;
        int authUser = -1;
        if (a.count() >= 2) {
            if (!a.parseLong(1)) {
                error("ERR Protocol version is not an integer or out of range");
                return;
            }
            if (a.longValue != 2 && a.longValue != 3) {
                error("NOPROTO unsupported protocol version");
                return;
            }
            proto = (int) a.longValue;
            for (int i = 2; i < a.count(); i++) {
                boolean more = a.count() - i - 1 > 0;
                if (a.is(i, AUTH_WORD) && a.count() - i - 1 >= 2) {
                    authUser = i + 1;
                    i += 2;
                } else if (a.is(i, SETNAME) && more) {
                    i++;
                } else {
                    error("ERR Syntax error in HELLO option '" + a.text(i) + "'");
                    return;
                }
            }
        }
        if (authUser >= 0) {
            if (!credentialsOk(a, authUser, authUser + 1)) {
                error(WRONGPASS);
                return;
            }
            authenticated = true;
        }
        if (!authenticated) {
            error("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH "
                    + "<user> <pass> option can be used to authenticate the client and select the RESP protocol version "
                    + "at the same time");
            return;
        }
        resp3 = proto == 3;
        ByteBuf o = out();
        RespReplies.map(o, 7, resp3);
        RespReplies.bulk(o, "server");
        RespReplies.bulk(o, "redis");
        RespReplies.bulk(o, "version");
        RespReplies.bulk(o, RespServerStats.REDIS_VERSION);
        RespReplies.bulk(o, "proto");
        RespReplies.integer(o, proto);
        RespReplies.bulk(o, "id");
        RespReplies.integer(o, clientId);
        RespReplies.bulk(o, "mode");
        RespReplies.bulk(o, "standalone");
        RespReplies.bulk(o, "role");
        RespReplies.bulk(o, "master");
        RespReplies.bulk(o, "modules");
        RespReplies.array(o, 0);
    }

    private void info(RespArgs a) {
        String[] sections = new String[a.count() - 1];
        for (int i = 1; i < a.count(); i++) {
            sections[i - 1] = a.text(i);
        }
        RespReplies.verbatim(out(), stats.info(sections), resp3);
    }

    /** CONFIG GET pattern…: the few settings that describe this server (benchmark tools read save and appendonly). */
    private void configGet(RespArgs a) {
        String[][] settings = {
            {"appendonly", "no"},
            {"databases", Integer.toString(RespStore.DATABASES)},
            {"maxmemory", Long.toString(store.limitBytes())},
            {"maxmemory-policy", "allkeys-lru"},
            {"save", ""},
        };
        java.util.List<String[]> matched = new java.util.ArrayList<>();
        for (String[] setting : settings) {
            for (int i = 2; i < a.count(); i++) {
                if (glob(a.text(i).toLowerCase(java.util.Locale.ROOT), setting[0])) {
                    matched.add(setting);
                    break;
                }
            }
        }
        ByteBuf o = out();
        RespReplies.map(o, matched.size(), resp3);
        for (String[] setting : matched) {
            RespReplies.bulk(o, setting[0]);
            RespReplies.bulk(o, setting[1]);
        }
    }

    /** redis' glob match with {@code *} and {@code ?} (enough for CONFIG GET). */
    static boolean glob(String pattern, String s) {
        int p = 0;
        int i = 0;
        int star = -1;
        int mark = 0;
        while (i < s.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || pattern.charAt(p) == s.charAt(i))) {
                p++;
                i++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                star = p++;
                mark = i;
            } else if (star >= 0) {
                p = star + 1;
                i = ++mark;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    private void config(RespArgs a) {
        if (a.is(1, GET_WORD)) {
            if (a.count() < 3) {
                error("ERR wrong number of arguments for 'config|get' command");
            } else {
                configGet(a);
            }
        } else if (a.is(1, RESETSTAT) && a.count() == 2) {
            stats.reset();
            out().writeBytes(RespReplies.OK);
        } else {
            error("ERR unknown subcommand '" + a.text(1, 128) + "'. Try CONFIG HELP.");
        }
    }
}
