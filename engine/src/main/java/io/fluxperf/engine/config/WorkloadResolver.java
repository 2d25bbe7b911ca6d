package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.Request;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The workloads of a run, for {@link ConfigResolver}: the one workload the flags describe, or the
 * file's {@code [[workload]]} tables with the per-workload flags put over each (rpc-perf's rules,
 * listed on {@link ConfigResolver}). A table's keys that are declared settings of no form of their
 * own ({@link Setting#readsFromWorkloadTable}: keyspace, key-length, hit, …) are read by their
 * declaration, and each workload takes the flag, else its key, else the default ({@link #value});
 * the others (a method, a rate, sizes, a ttl list, a ramp) and the rules between keys are read
 * here. Each problem names its flag or the workload's key and line.
 */
final class WorkloadResolver {
    private WorkloadResolver() {
    }

    /**
     * The run's workloads: from the flags when {@code file} is null (no file, or one without
     * [[workload]] tables), else the file's with the flags over them.
     */
    static List<WorkloadConfig> workloads(Flags flags, ConfigFile file, Protocol protocol) {
        WorkloadFlags wf = WorkloadFlags.of(flags);
        return file != null ? fromFile(flags, file, wf, protocol) : List.of(fromFlags(flags, wf, protocol));
    }

    /** rpc-perf's rule: these flags describe a workload, and the file already has its own. */
    static void rejectWorkloadFlags(Flags flags, ConfigFile file) {
        List<String> given = new ArrayList<>();
        for (Setting<?> s : List.of(Settings.COMMAND, Settings.METHOD, Settings.RATE, Settings.BYTES)) {
            if (flags.has(s)) {
                given.add(s.name());
            }
        }
        if (given.isEmpty()) {
            return;
        }
        String flagList = String.join(" and ", given.stream().map(g -> "--" + g).toList());
        String keyList = String.join(" and ", given);
        if (file.toml.isTranslated()) {
            throw new UserError(flagList + " cannot be used with an rpc-perf config file (" + file.toml.name()
                    + "), which has its workloads: as rpc-perf has it, set them in the file, or leave the flag"
                    + (given.size() > 1 ? "s" : "") + " out");
        }
        throw new UserError(flagList + " cannot be used with a config file that has [[workload]] tables ("
                + file.toml.name() + "); set " + keyList + " in each workload there, or leave the flag"
                + (given.size() > 1 ? "s" : "") + " out");
    }

    /**
     * The value of a per-workload setting for workload {@code w} (null: the run's one workload
     * without [[workload]] tables): the flag, else the table's key, else the default.
     */
    private static <T> T value(Flags flags, ConfigFile.Workload w, Setting<T> s) {
        T flag = flags.value(s);
        T key = w == null ? null : w.settings.get(s);
        return flag != null ? flag : key != null ? key : s.defaultValue();
    }

    /** The per-workload flags that are no key of a table read by its type, parsed and checked once. */
    private record WorkloadFlags(Boolean hit, Boolean flush, Integer keysPerRequest, Integer ttl,
                                 KeyDistribution distribution, Double exponent, Integer subscribers) {
        static WorkloadFlags of(Flags flags) {
            if (Boolean.TRUE.equals(flags.value(Settings.HIT)) && Boolean.TRUE.equals(flags.value(Settings.FLUSH))) {
                throw new UserError("--hit and --flush cannot be used together: --hit loads the key space so that"
                        + " reads hit, --flush empties the server so that they miss");
            }
            return new WorkloadFlags(flags.value(Settings.HIT), flags.value(Settings.FLUSH),
                    flags.value(Settings.KEYS_PER_REQUEST), flags.value(Settings.TTL), keyDistribution(flags),
                    flags.value(Settings.EXPONENT),
                    flags.value(Settings.SUBSCRIBERS));
        }

        /** The key distribution among --distribution's values (the others place keys on servers; the last wins). */
        private static KeyDistribution keyDistribution(Flags flags) {
            List<String> values = flags.value(Settings.DISTRIBUTION);
            KeyDistribution d = null;
            for (String v : values == null ? List.<String>of() : values) {
                if (!Settings.SERVER_DISTRIBUTION.takes(v)) {
                    d = flag("distribution", () -> Checks.distribution(v));
                }
            }
            return d;
        }
    }

    /** The single workload of a run without [[workload]] tables. */
    private static WorkloadConfig fromFlags(Flags flags, WorkloadFlags wf, Protocol protocol) {
        String command = flags.value(Settings.COMMAND);
        String methodName = flags.value(Settings.METHOD);
        if (command != null && methodName != null) {
            throw new UserError("--command: give --method or --command, not both");
        }
        Command method = command != null ? Command.COMMAND
                : methodName == null ? Command.GET : flag("method", () -> Checks.method(methodName, protocol));
        String path = flags.value(Settings.PATH);
        CommandTemplate template = command != null ? flag("command", () -> CommandTemplate.parse(command))
                : path != null ? CommandTemplate.word(path) : null;
        if (!protocol.supports(method)) {
            throw new UserError("--method: protocol " + protocol.name() + " does not support " + method.label()
                    + speakers(method));
        }
        if (wf.subscribers != null && method != Command.PUBLISH) {
            throw new UserError("--subscribers: only --method publish has subscribers, not " + method.label());
        }
        if (method == Command.PUBLISH && flags.has(Settings.BYTES)
                && flags.value(Settings.BYTES).min() < Request.MESSAGE_HEADER_BYTES) {
            throw new UserError("--bytes: a published message carries its send time and id in its first "
                    + Request.MESSAGE_HEADER_BYTES + " bytes; give at least " + Request.MESSAGE_HEADER_BYTES);
        }
        if (method == Command.EVAL || method == Command.EVALSHA) {
            throw new UserError("--method: " + method.label() + " needs the script it runs, which only a config file"
                    + " gives (script = \"...\" in a [[workload]])");
        }
        Double given = flags.value(Settings.RATE);
        double rate = given == null ? 0 : given;
        String ramp = flags.value(Settings.RAMP);
        if (ramp != null && given != null) {
            throw new UserError("--ramp: sets the rate from its START; drop --rate");
        }
        if (ramp != null) {
            rate = flag("ramp", () -> RateRamp.parse(ramp).start());
        }
        ValueSize bytes = flags.has(Settings.BYTES) ? flags.value(Settings.BYTES) : Settings.BYTES.defaultValue();
        int keysPerRequest = value(flags, null, Settings.KEYS_PER_REQUEST);
        if (keysPerRequest > 1 && !method.isRead()) {
            throw new UserError("--keys-per-request: more than one key per request needs a read method (get or gets),"
                    + " not " + method.label());
        }
        KeyDistribution distribution = or(wf.distribution, KeyDistribution.UNIFORM);
        if (wf.exponent != null && distribution != KeyDistribution.ZIPF) {
            throw new UserError("--exponent: only the zipf distribution uses an exponent; add --distribution zipf");
        }
        long count = value(flags, null, Settings.KEYSPACE);
        int keyLength = value(flags, null, Settings.KEY_LENGTH);
        String keysProblem = keyspaceProblem(count, keyLength, distribution);
        if (keysProblem != null) {
            throw new UserError((flags.has(Settings.KEYSPACE) ? "--keyspace: " : "--key-length: ") + keysProblem);
        }
        KeyspaceConfig keys = new KeyspaceConfig(count, keyLength, distribution, value(flags, null, Settings.EXPONENT));
        try {
            WorkloadConfig w = new WorkloadConfig(null, method, rate, 1, bytes, keys, value(flags, null, Settings.HIT),
                    value(flags, null, Settings.FLUSH), keysPerRequest, or(wf.ttl, 0), template);
            return wf.subscribers == null ? w : w.withShape(w.shape().withSubscribers(wf.subscribers));
        } catch (IllegalArgumentException e) {
            throw new UserError("the command line: " + e.getMessage());
        }
    }

    /** The file's workloads with the per-workload flags applied. */
    private static List<WorkloadConfig> fromFile(Flags flags, ConfigFile file, WorkloadFlags wf, Protocol protocol) {
        List<WorkloadConfig> out = new ArrayList<>();
        Set<String> explicitNames = new HashSet<>();
        for (ConfigFile.Workload w : file.workloads) {
            if (w.name != null && !explicitNames.add(w.name)) {
                throw w.error("name", "'" + w.name + "' is the name of an earlier workload; names must differ");
            }
        }
        Set<String> names = new HashSet<>();
        boolean anyRead = false;
        boolean anyZipf = false;
        String subscribed = null;
        for (ConfigFile.Workload w : file.workloads) {
            if (!protocol.supports(w.method)) {
                throw w.error("method", "protocol " + protocol.name() + " does not support " + w.method.label()
                        + speakers(w.method));
            }
            String name = w.name;
            if (name == null) {
                name = w.command != null && CommandTemplate.parse(w.command).verb() != null
                        ? CommandTemplate.parse(w.command).verb().toLowerCase(java.util.Locale.ROOT) : w.method.label();
                if (explicitNames.contains(name) || names.contains(name)) {
                    name = name + "-" + w.index;
                }
            }
            names.add(name);

            boolean hit = or(w.settings.get(Settings.HIT), false);
            boolean flush = or(w.settings.get(Settings.FLUSH), false);
            if (wf.hit != null) {
                hit = wf.hit;
                flush = wf.hit ? false : flush;
            }
            if (wf.flush != null) {
                flush = wf.flush;
                hit = wf.flush ? false : hit;
            }
            if (hit && flush) {
                throw w.error("hit and flush cannot both be true: hit loads the key space so that reads hit,"
                        + " flush empties the server so that they miss");
            }

            // a --keys-per-request goes to the reads only
            int keysPerRequest = value(w.method.isRead() ? flags : Flags.none(), w, Settings.KEYS_PER_REQUEST);
            if (w.method.isRead()) {
                anyRead = true;
            } else if (keysPerRequest > 1) {
                throw w.error("keys-per-request", "more than one key per request needs a read method (get or gets),"
                        + " not " + w.method.label());
            }

            KeyDistribution distribution = wf.distribution != null ? wf.distribution
                    : or(w.distribution, KeyDistribution.UNIFORM);
            if (w.settings.has(Settings.EXPONENT) && wf.distribution == null && distribution != KeyDistribution.ZIPF) {
                throw w.error("exponent", "only the zipf distribution uses an exponent, and this workload's"
                        + " distribution is " + distribution.label());
            }
            anyZipf |= distribution == KeyDistribution.ZIPF;
            double exponent = value(flags, w, Settings.EXPONENT);
            long count = value(flags, w, Settings.KEYSPACE);
            int keyLength = value(flags, w, Settings.KEY_LENGTH);
            String keysProblem = keyspaceProblem(count, keyLength, distribution);
            if (keysProblem != null) {
                if (flags.has(Settings.KEYSPACE)) {
                    throw new UserError("--keyspace: " + keysProblem);
                }
                if (flags.has(Settings.KEY_LENGTH)) {
                    throw new UserError("--key-length: " + keysProblem);
                }
                throw w.error(w.settings.has(Settings.KEYSPACE) ? "keyspace" : "key-length", keysProblem);
            }
            WorkloadShape shape = shape(w);
            if (w.method == Command.PUBLISH && wf.subscribers != null) {
                shape = shape.withSubscribers(wf.subscribers);
            }
            if (shape.subscribers() > 0) {
                if (subscribed != null) {
                    throw w.error("subscribers", "only one workload of a run has subscribers, and workload " + subscribed
                            + " has them already");
                }
                subscribed = name;
            }
            if (w.ttls != null && wf.ttl == null) {
                shape = shape.withTtls(w.ttls); // a --ttl replaces the file's list with its one ttl
            }
            long lastKey = shape.keyOffset() + count - 1;
            if (shape.keyOffset() > 0 && Long.toString(lastKey).length() > keyLength) {
                throw w.error("key-offset", "keys " + shape.keyOffset() + " to " + lastKey + " need keys of at least "
                        + Long.toString(lastKey).length() + " bytes, but the key length is " + keyLength);
            }
            long members = shape.innerKeys() > 0 ? shape.innerKeys() : count;
            if (w.method.takesMembers() && shape.cardinality() > members) {
                throw w.error("cardinality", shape.cardinality() + " different fields or members per request need as"
                        + " many to draw from, and there are " + members + (shape.innerKeys() > 0 ? " (inner-keyspace)"
                        : " (keyspace; give inner-keyspace)"));
            }
            int ttl = wf.ttl != null ? wf.ttl : or(w.ttl, 0);
            double rate = or(w.rate, 0.0);
            int weight = or(w.weight, 1);
            ValueSize bytes = w.bytes != null ? w.bytes : ValueSize.fixed(ValueSize.DEFAULT_BYTES);
            try {
                CommandTemplate template = w.command != null ? CommandTemplate.parse(w.command)
                        : w.path != null ? CommandTemplate.word(w.path) : null;
                out.add(new WorkloadConfig(name, w.method, rate, weight, bytes,
                        new KeyspaceConfig(count, keyLength, distribution, exponent), hit, flush, keysPerRequest, ttl,
                        template, shape));
            } catch (IllegalArgumentException e) {
                throw w.error(e.getMessage());
            }
        }
        if (wf.keysPerRequest != null && wf.keysPerRequest > 1 && !anyRead) {
            throw new UserError("--keys-per-request: no workload in " + file.toml.name()
                    + " reads (get or gets), and only reads take more than one key");
        }
        if (wf.subscribers != null && subscribed == null) {
            throw new UserError("--subscribers: no workload in " + file.toml.name() + " publishes (method = \"publish\")");
        }
        if (wf.exponent != null && !anyZipf) {
            throw new UserError("--exponent: no workload in " + file.toml.name()
                    + " uses the zipf distribution; add --distribution zipf");
        }
        if (out.stream().noneMatch(WorkloadConfig::isRated) && out.stream().allMatch(w -> w.weight() == 0)) {
            throw file.toml.error("every workload has weight 0; give at least one a weight above 0");
        }
        if (out.stream().anyMatch(WorkloadConfig::isRated) && out.stream().anyMatch(w -> !w.isRated())
                && out.stream().filter(w -> !w.isRated()).allMatch(w -> w.weight() == 0)) {
            throw file.toml.error("every unpaced workload has weight 0; give at least one a weight above 0");
        }
        return out;
    }

    /** The file's key offset, fields or members, value kind and script of one workload. */
    private static WorkloadShape shape(ConfigFile.Workload w) {
        WorkloadShape s = WorkloadShape.DEFAULT;
        if (w.cardinality != null && w.cardinality > 1 && !w.method.takesCardinality()) {
            throw w.error("cardinality", w.method.label() + " names one field or member; cardinality above 1 needs"
                    + " one of hget, hset, hdel, sadd, srem, sismember, zadd, zrem, zscore, lpush, rpush");
        }
        if (w.innerKeyLength != null && w.innerKeys == null) {
            throw w.error("inner-key-length", "needs inner-keyspace (how many fields or members to draw from)");
        }
        if (w.script != null && w.method != Command.EVAL && w.method != Command.EVALSHA) {
            throw w.error("script", "only eval and evalsha run a script, and this workload's method is " + w.method.label());
        }
        if (w.script == null && (w.method == Command.EVAL || w.method == Command.EVALSHA)) {
            throw w.error("method", w.method.label() + " needs the script to run: add script = \"...\"");
        }
        if (w.compressionRatio != null && w.valueKind == WorkloadShape.ValueKind.I64) {
            throw w.error("compression-ratio", "i64 values are numbers; a compression ratio is for bytes values");
        }
        for (String key : List.of("range-start", "range-end")) {
            if ((key.equals("range-start") ? w.rangeStart : w.rangeEnd) != null && !w.method.takesRange()) {
                throw w.error(key, "only lrange and zrange read a range, and this workload's method is " + w.method.label());
            }
        }
        if (Boolean.TRUE.equals(w.byScore) && w.method != Command.ZRANGE) {
            throw w.error("by-score", "only zrange reads by score, and this workload's method is " + w.method.label());
        }
        if (w.subscribers != null && w.subscribers > 0 && w.method != Command.PUBLISH) {
            throw w.error("subscribers", "only publish has subscribers, and this workload's method is " + w.method.label());
        }
        if (w.truncate != null && !w.method.takesTruncate()) {
            throw w.error("truncate", "only lpush and rpush keep a list at most so long, and this workload's method is "
                    + w.method.label());
        }
        try {
            if (w.keyOffset != null) {
                s = s.withKeyOffset(w.keyOffset);
            }
            if (w.cardinality != null) {
                s = s.withCardinality(w.cardinality);
            }
            if (w.innerKeys != null) {
                long n = w.innerKeys;
                s = s.withInnerKeys(n, w.innerKeyLength != null ? w.innerKeyLength
                        : Math.max(KeyspaceConfig.DEFAULT_KEY_LENGTH, Long.toString(n - 1).length()));
            }
            if (w.valueKind != null) {
                s = s.withValueKind(w.valueKind);
            }
            if (w.compressionRatio != null) {
                s = s.withCompressionRatio(w.compressionRatio);
            }
            if (w.values != null) {
                s = s.withValues(w.values);
            }
            if (w.script != null) {
                s = s.withScript(w.script);
            }
            if (w.rangeStart != null || w.rangeEnd != null) {
                s = s.withRange(w.rangeStart, w.rangeEnd);
            }
            if (w.byScore != null) {
                s = s.withByScore(w.byScore);
            }
            if (w.truncate != null) {
                s = s.withTruncate(w.truncate);
            }
            if (w.subscribers != null) {
                s = s.withSubscribers(w.subscribers);
            }
        } catch (IllegalArgumentException e) {
            throw w.error(w.innerKeys != null && e.getMessage().contains("inner") ? "inner-key-length" : "cardinality",
                    e.getMessage());
        }
        return s;
    }

    /** " (redis does)": which registered protocols have {@code method}, for the sentence that refuses it. */
    private static String speakers(Command method) {
        List<String> names = Protocols.all().stream().filter(p -> p.supports(method)).map(Protocol::name).toList();
        return names.isEmpty() ? "" : " (" + String.join(", ", names) + (names.size() == 1 ? " does)" : " do)");
    }

    /** Why {@code count} keys of {@code keyLength} bytes cannot be, or null. */
    private static String keyspaceProblem(long count, int keyLength, KeyDistribution distribution) {
        int digits = Long.toString(count - 1).length();
        if (digits > keyLength) {
            return count + " keys need keys of at least " + digits + " bytes, but the key length is " + keyLength;
        }
        if (distribution == KeyDistribution.ZIPF && count > Integer.MAX_VALUE) {
            return "a zipf key space can have at most " + Integer.MAX_VALUE + " keys, not " + count;
        }
        return null;
    }

    private static <T> T flag(String name, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new UserError("--" + name + ": " + e.getMessage());
        }
    }

    private static <T> T or(T value, T fallback) {
        return value != null ? value : fallback;
    }
}
