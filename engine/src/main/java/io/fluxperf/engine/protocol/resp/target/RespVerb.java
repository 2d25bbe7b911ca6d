package io.fluxperf.engine.protocol.resp.target;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The commands the embedded redis server knows, with redis 7.0's arity (n: exactly n words, verb
 * included; -n: at least n) and the name its {@code INFO commandstats} uses.
 */
enum RespVerb {
    GET(2), SET(-3), DEL(-2), EXISTS(-2), EXPIRE(-3), TTL(2), TYPE(2),
    INCR(2), DECR(2), INCRBY(3), DECRBY(3), MGET(-2), MSET(-3),
    HGET(3), HSET(-4), HGETALL(2), HDEL(-3),
    LPUSH(-3), RPUSH(-3), LPOP(-2), RPOP(-2), LRANGE(4),
    SADD(-3), SREM(-3), SMEMBERS(2),
    ZADD(-4), ZRANGE(-4), ZREM(-3),
    PING(-1), ECHO(2), FLUSHALL(-1), FLUSHDB(-1), DBSIZE(1),
    AUTH(-2), SELECT(2), HELLO(-1), INFO(-1), COMMAND(-1), CONFIG(-2), QUIT(-1),
    HMGET(-3), HINCRBY(4), SISMEMBER(3), SMISMEMBER(-3), ZSCORE(3), ZMSCORE(-3), ZINCRBY(4),
    LLEN(2), LTRIM(4), ZRANK(3), HEXISTS(3);

    static final RespVerb[] VALUES = values();
    /** Verbs by length, for a look-up that compares only candidates of the right length. */
    private static final RespVerb[][] BY_LENGTH = new RespVerb[16][];

    static {
        for (int n = 0; n < BY_LENGTH.length; n++) {
            final int length = n;
            BY_LENGTH[n] = java.util.Arrays.stream(VALUES).filter(v -> v.upper.length == length).toArray(RespVerb[]::new);
        }
    }

    final int arity;
    final byte[] upper;
    /** The lower-case name: for {@code cmdstat_…}, error messages and {@link io.fluxperf.engine.target.TargetStats}. */
    final String label;

    RespVerb(int arity) {
        this.arity = arity;
        this.upper = name().getBytes(StandardCharsets.US_ASCII);
        this.label = name().toLowerCase(Locale.ROOT);
    }

    /** Whether {@code argc} words (verb included) suit this command's arity. */
    boolean arityOk(int argc) {
        return arity > 0 ? argc == arity : argc >= -arity;
    }

    /** The verb spelled by {@code args} word 0 in any case, or null. */
    static RespVerb of(RespArgs args) {
        int length = args.length(0);
        if (length >= BY_LENGTH.length) {
            return null;
        }
        for (RespVerb v : BY_LENGTH[length]) {
            if (args.is(0, v.upper)) {
                return v;
            }
        }
        return null;
    }
}
