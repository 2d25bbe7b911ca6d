package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.MessagePayload;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import java.util.List;
import static io.fluxperf.engine.protocol.resp.RespCommands.bytes;
import static io.fluxperf.engine.protocol.resp.RespEncoding.CRLF;
import static io.fluxperf.engine.protocol.resp.RespEncoding.arrayHeader;
import static io.fluxperf.engine.protocol.resp.RespEncoding.bulk;
import static io.fluxperf.engine.protocol.resp.RespEncoding.bulkLong;
import static io.fluxperf.engine.protocol.resp.RespEncoding.decimalLength;
import static io.fluxperf.engine.protocol.resp.RespEncoding.key;
import static io.fluxperf.engine.protocol.resp.RespEncoding.value;

/**
 * What each request sends: a RESP array of bulk strings. {@code k} is the request's first key,
 * {@code v} its value. Containers hold one member named after their key, so that a write and the
 * later read, pop or removal of the same key meet:
 * <pre>
 * GET k                (GET with several keys: MGET k1 k2 …)
 * SET k v              SET k v EX ttl when the request has a ttl
 * DEL k1 k2 …          EXISTS k1 k2 …          MGET k1 k2 …        MSET k1 v k2 v …
 * EXPIRE k ttl         the request's ttl; 3600 s when it has none (EXPIRE k 0 would delete the key)
 * INCR k / DECR k      INCRBY k n / DECRBY k n when the request's numeric n is not 1
 * HSET k f v           HGET k f          HDEL k f           HGETALL k      HINCRBY k f n
 * LPUSH k v / RPUSH k v                   LPOP k / RPOP k     LRANGE k 0 9        LLEN k
 * SADD k m             SREM k m          SMEMBERS k         SISMEMBER k m
 * ZADD k n m           ZREM k m          ZRANGE k 0 9       ZSCORE k m     ZINCRBY k n m   (score: numeric)
 * ZRANK k m            HEXISTS k f
 * EVAL s 1 k v         EVALSHA sha1(s) 1 k v               (s: the request's script; KEYS[1] = k, ARGV[1] = v)
 * PING                 FLUSHALL (FLUSH)
 * PUBLISH k p          SPUBLISH k p on a cluster node (sharded channels); p: the message ({@link MessagePayload})
 * COMMAND              the template's words, __key__ → k, __data__ → v, __counter__ → numeric
 * </pre>
 * Fields and members ({@code f}, {@code m}) are the request's members, or its key when it has none.
 * With several members (a workload's cardinality) HSET, HDEL, SADD, SREM, ZADD and ZREM name them
 * all ({@code HSET k f1 v f2 v …}), HGET becomes {@code HMGET k f1 f2 …}, SISMEMBER
 * {@code SMISMEMBER}, ZSCORE {@code ZMSCORE} (redis 6.2), and LPUSH and RPUSH push the value once
 * per member. A request with literal arguments (replay) sends exactly those words instead.
 *
 * <p>LRANGE and ZRANGE read the request's range ({@link Request#range}; 0 to 9 unless a workload sets
 * it); by score ZRANGE sends {@code ZRANGE k min max BYSCORE}, an open end as -inf or +inf. What
 * goes before a request (an EVALSHA's {@code SCRIPT LOAD}: {@link RespScripts}) and after it (LTRIM,
 * EXPIRE: {@link RespFollowUps}) is written by those classes.
 *
 * <p>Encoding allocates nothing: verbs are pre-encoded, lengths and numbers written in place.
 * One per connection (it shares the connection's {@link RespScripts}).
 */
final class RespRequestEncoder {
    /** The ttl EXPIRE sends when the request has none. */
    static final int DEFAULT_EXPIRE_SECONDS = 3600;

    private static final byte[] GET_MANY = RespCommands.bulkVerb(Command.MGET);
    private static final byte[] INCRBY = bytes("$6\r\nINCRBY\r\n");
    private static final byte[] DECRBY = bytes("$6\r\nDECRBY\r\n");
    private static final byte[] EX = bytes("$2\r\nEX\r\n");
    private static final byte[] BYSCORE = bytes("$7\r\nBYSCORE\r\n");
    private static final byte[] MINUS_INF = bytes("$4\r\n-inf\r\n");
    private static final byte[] PLUS_INF = bytes("$4\r\n+inf\r\n");
    private static final byte[] HMGET = bytes("$5\r\nHMGET\r\n");
    private static final byte[] SMISMEMBER = bytes("$10\r\nSMISMEMBER\r\n");
    private static final byte[] ZMSCORE = bytes("$7\r\nZMSCORE\r\n");
    private static final byte[] ONE_KEY = bytes("$1\r\n1\r\n");
    private static final byte[] SPUBLISH = bytes("$8\r\nSPUBLISH\r\n");

    private final RespScripts scripts;
    /** A cluster node's connection: a publish goes to the key's shard (SPUBLISH), where its subscribers are. */
    private final boolean sharded;

    RespRequestEncoder(RespScripts scripts, boolean sharded) {
        this.scripts = scripts;
        this.sharded = sharded;
    }

    /** Writes the request's own command (and an EVALSHA's SCRIPT LOAD before it, the first time). */
    void write(Request r, ByteBuf out) {
        if (r.argCount() > 0) {
            writeArgs(r, out);
            return;
        }
        Command c = r.command();
        switch (c) {
            case GET -> {
                if (r.keyCount() > 1) {
                    keysCommand(GET_MANY, r, out);
                } else {
                    keyCommand(c, r, out);
                }
            }
            case HGETALL, LPOP, RPOP, SMEMBERS, LLEN -> keyCommand(c, r, out);
            case DELETE, EXISTS, MGET -> keysCommand(RespCommands.bulkVerb(c), r, out);
            case SET -> set(r, out);
            case EXPIRE -> {
                header(c, 3, out);
                key(r, 0, out);
                bulkLong(out, r.ttlSeconds() > 0 ? r.ttlSeconds() : DEFAULT_EXPIRE_SECONDS);
            }
            case INCR, DECR -> incrBy(c, r, out);
            case MSET -> {
                int keys = Math.max(1, r.keyCount());
                header(c, 1 + 2 * keys, out);
                for (int i = 0; i < keys; i++) {
                    key(r, i, out);
                    value(r, out);
                }
            }
            case HGET, SISMEMBER, ZSCORE -> {
                int n = members(r);
                arrayHeader(out, 2 + n);
                out.writeBytes(n == 1 ? RespCommands.bulkVerb(c) : c == Command.HGET ? HMGET
                        : c == Command.SISMEMBER ? SMISMEMBER : ZMSCORE);
                key(r, 0, out);
                writeMembers(r, n, out);
            }
            case HDEL, SADD, SREM, ZREM -> {
                int n = members(r);
                header(c, 2 + n, out);
                key(r, 0, out);
                writeMembers(r, n, out);
            }
            case HSET -> {
                int n = members(r);
                header(c, 2 + 2 * n, out);
                key(r, 0, out);
                for (int i = 0; i < n; i++) {
                    member(r, i, out);
                    value(r, out);
                }
            }
            case HINCRBY -> {
                header(c, 4, out);
                key(r, 0, out);
                member(r, 0, out);
                bulkLong(out, r.numeric());
            }
            case ZINCRBY -> {
                header(c, 4, out);
                key(r, 0, out);
                bulkLong(out, r.numeric());
                member(r, 0, out);
            }
            case LPUSH, RPUSH -> {
                int n = members(r);
                header(c, 2 + n, out);
                key(r, 0, out);
                for (int i = 0; i < n; i++) {
                    value(r, out);
                }
            }
            case ZRANK, HEXISTS -> {
                header(c, 3, out);
                key(r, 0, out);
                member(r, 0, out);
            }
            case EVAL, EVALSHA -> script(c, r, out);
            case LRANGE, ZRANGE -> range(c, r, out);
            case ZADD -> {
                int n = members(r);
                header(c, 2 + 2 * n, out);
                key(r, 0, out);
                for (int i = 0; i < n; i++) {
                    bulkLong(out, r.numeric());
                    member(r, i, out);
                }
            }
            case PING, FLUSH -> header(c, 1, out);
            case PUBLISH -> publish(r, out);
            case COMMAND -> writeTemplate(r, out);
            default -> throw new IllegalArgumentException("redis cannot encode " + c);
        }
    }

    private static void set(Request r, ByteBuf out) {
        boolean ttl = r.ttlSeconds() > 0;
        header(Command.SET, ttl ? 5 : 3, out);
        key(r, 0, out);
        value(r, out);
        if (ttl) {
            out.writeBytes(EX);
            bulkLong(out, r.ttlSeconds());
        }
    }

    /** PUBLISH k p (SPUBLISH on a cluster node): the message with its time and id first. */
    private void publish(Request r, ByteBuf out) {
        arrayHeader(out, 3);
        out.writeBytes(sharded ? SPUBLISH : RespCommands.bulkVerb(Command.PUBLISH));
        key(r, 0, out);
        out.writeByte('$');
        io.fluxperf.engine.protocol.Ascii.writeLong(out, MessagePayload.length(r));
        out.writeShort(CRLF);
        MessagePayload.write(r, out);
        out.writeShort(CRLF);
    }

    /** INCR k, or INCRBY k n when the request's numeric is not 1 (DECR alike). */
    private static void incrBy(Command c, Request r, ByteBuf out) {
        if (r.numeric() == 1) {
            keyCommand(c, r, out);
        } else {
            arrayHeader(out, 3);
            out.writeBytes(c == Command.INCR ? INCRBY : DECRBY);
            key(r, 0, out);
            bulkLong(out, r.numeric());
        }
    }

    private void script(Command c, Request r, ByteBuf out) {
        byte[] script = r.script();
        if (script == null) {
            throw new IllegalArgumentException("a redis " + c + " request needs its script");
        }
        byte[] named = c == Command.EVALSHA ? scripts.loadOnce(script, out) : script;
        header(c, 5, out);
        bulk(out, named);
        out.writeBytes(ONE_KEY);
        key(r, 0, out);
        value(r, out);
    }

    /** LRANGE k start stop, ZRANGE k start stop, or by score ZRANGE k min max BYSCORE. */
    private static void range(Command c, Request r, ByteBuf out) {
        boolean byScore = r.byScore() && c == Command.ZRANGE;
        header(c, byScore ? 5 : 4, out);
        key(r, 0, out);
        rangeBound(out, r.rangeStart(), byScore, MINUS_INF);
        rangeBound(out, r.rangeEnd(), byScore, PLUS_INF);
        if (byScore) {
            out.writeBytes(BYSCORE);
        }
    }

    /** An end of a range: the number, or by score an open end ({@link Request#UNBOUNDED}) as -inf or +inf. */
    private static void rangeBound(ByteBuf out, long v, boolean byScore, byte[] infinity) {
        if (byScore && v == Request.UNBOUNDED) {
            out.writeBytes(infinity);
        } else {
            bulkLong(out, v);
        }
    }

    /** The array header of {@code words} words and the command's verb, the first of them. */
    private static void header(Command c, int words, ByteBuf out) {
        arrayHeader(out, words);
        out.writeBytes(RespCommands.bulkVerb(c));
    }

    /** How many fields or members the request names: its members, or its key alone. */
    private static int members(Request r) {
        return Math.max(1, r.memberCount());
    }

    /** Member i as a bulk string; the key itself for a request without members. */
    private static void member(Request r, int i, ByteBuf out) {
        if (r.memberCount() == 0) {
            key(r, 0, out);
        } else {
            bulk(out, r.memberBytes(), r.memberOffset(i), r.memberLength(i));
        }
    }

    private static void writeMembers(Request r, int n, ByteBuf out) {
        for (int i = 0; i < n; i++) {
            member(r, i, out);
        }
    }

    private static void keyCommand(Command c, Request r, ByteBuf out) {
        header(c, 2, out);
        key(r, 0, out);
    }

    private static void keysCommand(byte[] bulkVerb, Request r, ByteBuf out) {
        int keys = Math.max(1, r.keyCount());
        arrayHeader(out, 1 + keys);
        out.writeBytes(bulkVerb);
        for (int i = 0; i < keys; i++) {
            key(r, i, out);
        }
    }

    /** A replayed command: exactly its words. */
    private static void writeArgs(Request r, ByteBuf out) {
        int n = r.argCount();
        arrayHeader(out, n);
        byte[] b = r.argBytes();
        for (int i = 0; i < n; i++) {
            bulk(out, b, r.argOffset(i), r.argLength(i));
        }
    }

    /** The template's words with __key__, __data__ and __counter__ expanded in place. */
    private static void writeTemplate(Request r, ByteBuf out) {
        CommandTemplate t = r.template();
        if (t == null) {
            throw new IllegalArgumentException("a redis COMMAND request needs a template or arguments");
        }
        List<List<CommandTemplate.Part>> words = t.words();
        int n = words.size();
        arrayHeader(out, n);
        int keyLength = r.keyCount() > 0 ? r.keyLength(0) : 0;
        int valueLength = r.value() != null ? r.valueLength() : 0;
        for (int w = 0; w < n; w++) {
            List<CommandTemplate.Part> parts = words.get(w);
            int size = parts.size();
            long length = 0;
            for (int i = 0; i < size; i++) {
                CommandTemplate.Part p = parts.get(i);
                if (p instanceof CommandTemplate.Literal l) {
                    length += l.bytes().length;
                } else if (p instanceof CommandTemplate.Key) {
                    length += keyLength;
                } else if (p instanceof CommandTemplate.Data) {
                    length += valueLength;
                } else {
                    length += decimalLength(r.numeric());
                }
            }
            out.writeByte('$');
            Ascii.writeLong(out, length);
            out.writeShort(CRLF);
            for (int i = 0; i < size; i++) {
                CommandTemplate.Part p = parts.get(i);
                if (p instanceof CommandTemplate.Literal l) {
                    out.writeBytes(l.bytes());
                } else if (p instanceof CommandTemplate.Key) {
                    if (keyLength > 0) {
                        out.writeBytes(r.keyBytes(), r.keyOffset(0), keyLength);
                    }
                } else if (p instanceof CommandTemplate.Data) {
                    if (valueLength > 0) {
                        out.writeBytes(r.value(), r.valueOffset(), valueLength);
                    }
                } else {
                    Ascii.writeLong(out, r.numeric());
                }
            }
            out.writeShort(CRLF);
        }
    }
}
