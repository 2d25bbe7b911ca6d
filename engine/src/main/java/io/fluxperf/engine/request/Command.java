package io.fluxperf.engine.request;

import java.util.Locale;

/**
 * Protocol-neutral commands: the union of what the protocols speak. A protocol declares which of
 * them it supports ({@link io.fluxperf.engine.protocol.Protocol#supports}); the ordinal is the
 * command code that traces store (new commands are only ever added at the end).
 */
public enum Command {
    // memcache (GET, SET, DELETE, INCR, DECR also redis; GET, DELETE also HTTP)
    GET(Kind.READ),
    GETS(Kind.READ),
    SET(Kind.WRITE),
    ADD(Kind.WRITE),
    REPLACE(Kind.WRITE),
    APPEND(Kind.WRITE),
    PREPEND(Kind.WRITE),
    CAS(Kind.WRITE),
    DELETE(Kind.OTHER, "del"),
    INCR(Kind.OTHER),
    DECR(Kind.OTHER),
    TOUCH(Kind.OTHER),
    FLUSH(Kind.OTHER, "flush_all", "flushall"),
    // redis
    EXISTS(Kind.READ),
    EXPIRE(Kind.OTHER),
    MGET(Kind.READ),
    MSET(Kind.WRITE),
    HGET(Kind.READ),
    HSET(Kind.WRITE),
    HGETALL(Kind.READ),
    HDEL(Kind.OTHER),
    LPUSH(Kind.WRITE),
    RPUSH(Kind.WRITE),
    LPOP(Kind.READ),
    RPOP(Kind.READ),
    LRANGE(Kind.READ),
    SADD(Kind.WRITE),
    SREM(Kind.OTHER),
    SMEMBERS(Kind.READ),
    ZADD(Kind.WRITE),
    ZRANGE(Kind.READ),
    ZREM(Kind.OTHER),
    PING(Kind.OTHER),
    // HTTP
    POST(Kind.WRITE),
    PUT(Kind.WRITE),
    /**
     * A command given as its words: a user's template ({@code --command "SET __key__ __data__"}) or
     * a replayed log line; see {@link Request#template()} and {@link Request#args}.
     */
    COMMAND(Kind.OTHER),
    // redis, added for rpc-perf's workloads (after COMMAND: trace codes never change)
    HINCRBY(Kind.OTHER),
    SISMEMBER(Kind.READ),
    ZSCORE(Kind.READ),
    ZINCRBY(Kind.OTHER),
    /** EVAL of the workload's script, with its key and value as KEYS[1] and ARGV[1]. */
    EVAL(Kind.OTHER),
    /** EVALSHA of the workload's script, loaded with SCRIPT LOAD before the run. */
    EVALSHA(Kind.OTHER),
    // redis, added for rpc-perf 5's list and sorted-set verbs
    /** The length of a list; 0 (no such list) is a miss. */
    LLEN(Kind.READ),
    /** The rank of a member in a sorted set; nil (no such member) is a miss. */
    ZRANK(Kind.READ),
    /** Whether a field is in a hash; 0 (no such field) is a miss. */
    HEXISTS(Kind.READ),
    // redis, added for publish/subscribe
    /**
     * A message published to the key as channel, its value the message (its first bytes the time
     * and id that subscribers measure by, {@code engine.pubsub.MessagePayload}).
     */
    PUBLISH(Kind.WRITE);

    private enum Kind { READ, WRITE, OTHER }

    private static final Command[] VALUES = values();

    private final Kind kind;
    private final String[] aliases;

    Command(Kind kind, String... aliases) {
        this.kind = kind;
        this.aliases = aliases;
    }

    /** A read: a reply without the value is a miss, and it counts in the hit rate. */
    public boolean isRead() {
        return kind == Kind.READ;
    }

    /** The request carries a value of {@code bytes} length. */
    public boolean carriesValue() {
        return kind == Kind.WRITE;
    }

    /**
     * The request has a value to send: a write's, or the argument a script gets (EVAL and EVALSHA
     * pass the value as ARGV[1]).
     */
    public boolean takesValue() {
        return kind == Kind.WRITE || this == EVAL || this == EVALSHA;
    }

    /**
     * The command names fields or members of its key (HSET k f v, SADD k m, ZINCRBY k n m), drawn
     * from the workload's inner keyspace ({@link io.fluxperf.engine.config.WorkloadShape#innerKeys()}).
     */
    public boolean takesMembers() {
        return switch (this) {
            case HGET, HSET, HDEL, HINCRBY, SADD, SREM, SISMEMBER, ZADD, ZREM, ZSCORE, ZINCRBY, ZRANK, HEXISTS -> true;
            default -> false;
        };
    }

    /**
     * The command can name several fields, members or list elements of one key when asked to
     * ({@link io.fluxperf.engine.config.WorkloadShape#cardinality()}): HSET k f1 v f2 v, SADD k m1 m2,
     * RPUSH k v1 v2, HGET k f1 f2 (as HMGET), …
     */
    public boolean takesCardinality() {
        return switch (this) {
            case HGET, HSET, HDEL, SADD, SREM, SISMEMBER, ZADD, ZREM, ZSCORE, LPUSH, RPUSH -> true;
            default -> false;
        };
    }

    /**
     * A write that a ttl can go with: those that carry a value, and the increments of hash fields and
     * sorted-set members (redis expires their key with an EXPIRE after them).
     */
    public boolean takesTtl() {
        return kind == Kind.WRITE || this == HINCRBY || this == ZINCRBY;
    }

    /** The command reads a range of a list or sorted set, which a workload may set (range-start, range-end). */
    public boolean takesRange() {
        return this == LRANGE || this == ZRANGE;
    }

    /** The command pushes onto a list, which a workload may keep at most so long (truncate). */
    public boolean takesTruncate() {
        return this == LPUSH || this == RPUSH;
    }

    /** The name users type and reports show: lower case. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The command with this trace code. */
    public static Command of(int code) {
        return VALUES[code];
    }

    /** Parses a user-typed method name or alias (any case), or returns null when there is no such command. */
    public static Command parse(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (Command c : VALUES) {
            if (c.label().equals(t)) {
                return c;
            }
            for (String alias : c.aliases) {
                if (alias.equals(t)) {
                    return c;
                }
            }
        }
        return null;
    }
}
