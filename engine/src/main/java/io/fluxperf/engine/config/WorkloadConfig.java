package io.fluxperf.engine.config;

import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;

/**
 * One workload: a command sent at its own rate (open loop) or, with rate 0, as fast as the
 * connections allow (closed loop, shared with other unrated workloads by weight).
 *
 * @param rate        requests per second over the whole run (all threads); 0 = unlimited
 * @param weight      share among unrated workloads
 * @param hit         load the key space before measuring, so that reads hit
 * @param flush       flush the server before the run, so that reads miss
 * @param keysPerRequest keys per request (multi-key get); 1 otherwise
 * @param ttlSeconds  expiry time that writes carry (0 = never)
 * @param template    the words of a {@code command} workload ({@code SET __key__ __data__}), or
 *                    the path of an HTTP workload ({@code /items/__key__}); null otherwise
 * @param shape       key offset, fields or members per command, value kind, script ({@link WorkloadShape})
 */
public record WorkloadConfig(String name, Command method, double rate, int weight, ValueSize bytes,
                             KeyspaceConfig keyspace, boolean hit, boolean flush, int keysPerRequest,
                             int ttlSeconds, CommandTemplate template, WorkloadShape shape) {
    public WorkloadConfig(String name, Command method, double rate, int weight, ValueSize bytes,
                          KeyspaceConfig keyspace, boolean hit, boolean flush, int keysPerRequest, int ttlSeconds) {
        this(name, method, rate, weight, bytes, keyspace, hit, flush, keysPerRequest, ttlSeconds, null);
    }

    public WorkloadConfig(String name, Command method, double rate, int weight, ValueSize bytes,
                          KeyspaceConfig keyspace, boolean hit, boolean flush, int keysPerRequest, int ttlSeconds,
                          CommandTemplate template) {
        this(name, method, rate, weight, bytes, keyspace, hit, flush, keysPerRequest, ttlSeconds, template,
                WorkloadShape.DEFAULT);
    }

    public WorkloadConfig {
        if (method == Command.COMMAND && template == null) {
            throw new IllegalArgumentException("a command workload needs its words (--command \"SET __key__ __data__\")");
        }
        if (method == null) {
            throw new IllegalArgumentException("a workload needs a method");
        }
        if (name == null || name.isBlank()) {
            name = method == Command.COMMAND && template.verb() != null
                    ? template.verb().toLowerCase(java.util.Locale.ROOT) : method.label();
        }
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be a number >= 0, not " + rate);
        }
        if (weight < 0) {
            throw new IllegalArgumentException("weight must be >= 0, not " + weight);
        }
        if (keysPerRequest < 1) {
            throw new IllegalArgumentException("keys per request must be at least 1, not " + keysPerRequest);
        }
        if (keysPerRequest > 1 && !method.isRead()) {
            throw new IllegalArgumentException("keys per request above 1 needs a read method (get or gets), not " + method.label());
        }
        if (ttlSeconds < 0) {
            throw new IllegalArgumentException("ttl must be >= 0 seconds, not " + ttlSeconds);
        }
        if (bytes == null) {
            bytes = ValueSize.fixed(ValueSize.DEFAULT_BYTES);
        }
        if (keyspace == null) {
            keyspace = KeyspaceConfig.defaults();
        }
        if (shape == null) {
            shape = WorkloadShape.DEFAULT;
        }
        if (shape.keyOffset() > 0 && Long.toString(shape.keyOffset() + keyspace.count() - 1).length() > keyspace.keyLength()) {
            throw new IllegalArgumentException("keys " + shape.keyOffset() + " to " + (shape.keyOffset() + keyspace.count() - 1)
                    + " need keys of at least " + Long.toString(shape.keyOffset() + keyspace.count() - 1).length()
                    + " bytes, but the key length is " + keyspace.keyLength());
        }
        if (shape.cardinality() > 1 && !method.takesCardinality()) {
            throw new IllegalArgumentException(method.label() + " names one field or member; cardinality above 1 needs"
                    + " one of hget, hset, hdel, sadd, srem, sismember, zadd, zrem, zscore, lpush, rpush");
        }
        long members = shape.innerKeys() > 0 ? shape.innerKeys() : keyspace.count();
        if (method.takesMembers() && shape.cardinality() > members) {
            throw new IllegalArgumentException("cardinality " + shape.cardinality() + " needs as many different fields"
                    + " or members, and there are only " + members
                    + (shape.innerKeys() > 0 ? " inner keys" : " keys (give an inner keyspace)"));
        }
        if (shape.script() != null && method != Command.EVAL && method != Command.EVALSHA) {
            throw new IllegalArgumentException("only eval and evalsha run a script, and this workload's method is "
                    + method.label());
        }
        if ((shape.rangeStart() != null || shape.rangeEnd() != null) && !method.takesRange()) {
            throw new IllegalArgumentException("only lrange and zrange read a range, and this workload's method is "
                    + method.label());
        }
        if (shape.byScore() && method != Command.ZRANGE) {
            throw new IllegalArgumentException("only zrange reads by score, and this workload's method is " + method.label());
        }
        if (shape.subscribers() > 0 && method != Command.PUBLISH) {
            throw new IllegalArgumentException("only publish has subscribers, and this workload's method is " + method.label());
        }
        if (method == Command.PUBLISH && bytes.min() < io.fluxperf.engine.request.Request.MESSAGE_HEADER_BYTES) {
            throw new IllegalArgumentException("a published message carries its send time and id in its first "
                    + io.fluxperf.engine.request.Request.MESSAGE_HEADER_BYTES + " bytes; give bytes of at least that");
        }
        if (shape.truncate() > 0 && !method.takesTruncate()) {
            throw new IllegalArgumentException("only lpush and rpush keep a list at most so long, and this workload's"
                    + " method is " + method.label());
        }
    }

    /** A closed-loop workload of {@code method} with default sizes, keys and name. */
    public static WorkloadConfig of(Command method) {
        return of(method, null);
    }

    /** The same with a template: a command workload's words, or an HTTP workload's path. */
    public static WorkloadConfig of(Command method, CommandTemplate template) {
        return new WorkloadConfig(null, method, 0, 1, null, null, false, false, 1, 0, template);
    }

    public WorkloadConfig withTemplate(CommandTemplate v) {
        return new WorkloadConfig(name, method, rate, weight, bytes, keyspace, hit, flush, keysPerRequest, ttlSeconds, v, shape);
    }

    public boolean isRated() {
        return rate > 0;
    }

    public WorkloadConfig withName(String v) {
        return new WorkloadConfig(v, method, rate, weight, bytes, keyspace, hit, flush, keysPerRequest, ttlSeconds, template, shape);
    }

    public WorkloadConfig withRate(double v) {
        return new WorkloadConfig(name, method, v, weight, bytes, keyspace, hit, flush, keysPerRequest, ttlSeconds, template, shape);
    }

    public WorkloadConfig withWeight(int v) {
        return new WorkloadConfig(name, method, rate, v, bytes, keyspace, hit, flush, keysPerRequest, ttlSeconds, template, shape);
    }

    public WorkloadConfig withBytes(ValueSize v) {
        return new WorkloadConfig(name, method, rate, weight, v, keyspace, hit, flush, keysPerRequest, ttlSeconds, template, shape);
    }

    public WorkloadConfig withKeyspace(KeyspaceConfig v) {
        return new WorkloadConfig(name, method, rate, weight, bytes, v, hit, flush, keysPerRequest, ttlSeconds, template, shape);
    }

    public WorkloadConfig withHit(boolean v) {
        return new WorkloadConfig(name, method, rate, weight, bytes, keyspace, v, flush, keysPerRequest, ttlSeconds, template, shape);
    }

    public WorkloadConfig withFlush(boolean v) {
        return new WorkloadConfig(name, method, rate, weight, bytes, keyspace, hit, v, keysPerRequest, ttlSeconds, template, shape);
    }

    public WorkloadConfig withKeysPerRequest(int v) {
        return new WorkloadConfig(name, method, rate, weight, bytes, keyspace, hit, flush, v, ttlSeconds, template, shape);
    }

    public WorkloadConfig withTtlSeconds(int v) {
        return new WorkloadConfig(name, method, rate, weight, bytes, keyspace, hit, flush, keysPerRequest, v, template, shape);
    }

    public WorkloadConfig withShape(WorkloadShape v) {
        return new WorkloadConfig(name, method, rate, weight, bytes, keyspace, hit, flush, keysPerRequest, ttlSeconds, template, v);
    }
}
