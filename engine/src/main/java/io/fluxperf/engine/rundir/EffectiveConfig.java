package io.fluxperf.engine.rundir;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.Setting;
import io.fluxperf.engine.config.Settings;
import io.fluxperf.engine.config.TomlStrings;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.config.WorkloadShape;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's effective configuration as fluxperf's own TOML ({@code config.toml} of a run directory):
 * what the flags and the file made together, so that {@code run --config config.toml} runs the same
 * workloads at the same rates with the same seed. The run's outputs ({@code out}, {@code waterfall})
 * are left out: running the file again must not write over the directory it came from.
 */
public final class EffectiveConfig {
    private EffectiveConfig() {
    }

    /** The TOML text of {@code c}. */
    public static String toml(RunConfig c) {
        StringBuilder b = new StringBuilder();
        b.append("# the effective configuration of a fluxperf run: run it again with 'fluxperf run --config FILE'\n");
        b.append("[general]\n");
        settings(b, c);
        protocolOptions(b, c.protocolOptions());
        for (WorkloadConfig w : c.workloads()) {
            b.append('\n').append("[[workload]]\n");
            workload(b, w);
        }
        // the objectives, so that the file checks them again and 'report DIR' can judge the windows anew
        for (io.fluxperf.engine.slo.Objective o : c.objectives()) {
            b.append('\n').append("[[slo]]\n");
            key(b, "objective", quote(o.expression()));
            if (o.workload() != null) {
                key(b, "workload", quote(o.workload()));
            }
            if (o.abort()) {
                key(b, "abort", "true");
            }
            if (o.strict()) {
                key(b, "strict", "true");
            }
        }
        return b.toString();
    }

    /**
     * [general]'s settings, from their declarations ({@link Setting#recorded}): each that has a
     * value, but the connection's only where they are not their default (plain TCP), as a file
     * that leaves them out means. The servers' come first, as a reader looks for them first;
     * only those that apply have a value ({@link io.fluxperf.engine.config.PoolOptions#get}).
     */
    private static void settings(StringBuilder b, RunConfig c) {
        for (boolean servers : new boolean[] {true, false}) {
            for (Setting<?> s : Settings.all()) {
                if (s.recorded() && (s.scope() == Setting.Scope.POOL) == servers) {
                    setting(b, s, c);
                }
            }
        }
    }

    private static <T> void setting(StringBuilder b, Setting<T> s, RunConfig c) {
        T v = c.get(s);
        if (v != null && !(s.scope() == Setting.Scope.CONNECTION && v.equals(s.defaultValue()))) {
            key(b, s.key(), s.toml(v));
        }
    }

    /** Each protocol option under its key, in the shape the file reads it; the last value of a single one wins, as in the run. */
    private static void protocolOptions(StringBuilder b, ProtocolOptions options) {
        Map<String, ProtocolOption> byFlag = new LinkedHashMap<>();
        for (ProtocolOption o : Protocols.allOptions().values()) {
            byFlag.put(o.flag(), o);
        }
        Map<ProtocolOption, List<String>> values = new LinkedHashMap<>();
        for (ProtocolOptions.Value v : options.values()) {
            ProtocolOption o = byFlag.get(v.option());
            if (o != null) {
                values.computeIfAbsent(o, k -> new ArrayList<>()).add(v.text());
            }
        }
        for (Map.Entry<ProtocolOption, List<String>> e : values.entrySet()) {
            ProtocolOption o = e.getKey();
            List<String> v = e.getValue();
            String last = v.get(v.size() - 1);
            key(b, o.key(), switch (o.shape()) {
                case TEXT -> quote(last);
                case INTEGER -> last;
                case TEXT_LIST -> strings(v);
            });
        }
    }

    private static void workload(StringBuilder b, WorkloadConfig w) {
        key(b, "name", quote(w.name()));
        if (w.method() == Command.COMMAND) {
            key(b, "command", quote(w.template().text()));
        } else {
            key(b, "method", quote(w.method().label()));
            if (w.template() != null) {
                key(b, "path", quote(w.template().text()));
            }
        }
        if (w.isRated()) {
            key(b, "rate", number(w.rate()));
        } else {
            key(b, "weight", Integer.toString(w.weight()));
        }
        key(b, "bytes", bytes(w.bytes()));
        // the keys read by their declaration: keys-per-request, hit, flush, keyspace, key-length, exponent
        for (Setting<?> setting : Settings.all()) {
            if (setting.readsFromWorkloadTable()) {
                workloadSetting(b, setting, w);
            }
        }
        if (w.shape().ttls() != null) {
            key(b, "ttl", quote(w.shape().ttls().describe()));
        } else if (w.ttlSeconds() > 0) {
            key(b, "ttl", Integer.toString(w.ttlSeconds()));
        }
        key(b, "distribution", quote(w.keyspace().distribution().label()));
        WorkloadShape s = w.shape();
        WorkloadShape d = WorkloadShape.DEFAULT;
        if (s.keyOffset() != d.keyOffset()) {
            key(b, "key-offset", Long.toString(s.keyOffset()));
        }
        if (s.cardinality() != d.cardinality()) {
            key(b, "cardinality", Integer.toString(s.cardinality()));
        }
        if (s.innerKeys() > 0) {
            key(b, "inner-keyspace", Long.toString(s.innerKeys()));
            key(b, "inner-key-length", Integer.toString(s.innerKeyLength()));
        }
        if (s.valueKind() != d.valueKind()) {
            key(b, "value-kind", quote(s.valueKind().label()));
        }
        if (s.compressionRatio() != d.compressionRatio()) {
            key(b, "compression-ratio", number(s.compressionRatio()));
        }
        if (s.values() != d.values()) {
            key(b, "values", quote(s.values().label()));
        }
        if (s.script() != null) {
            key(b, "script", quote(s.script()));
        }
        if (s.subscribers() > 0) {
            key(b, "subscribers", Integer.toString(s.subscribers()));
        }
    }

    private static <T> void workloadSetting(StringBuilder b, Setting<T> s, WorkloadConfig w) {
        T v = s.valueIn(w);
        if (v != null) {
            key(b, s.key(), s.toml(v));
        }
    }

    private static String bytes(ValueSize size) {
        if (size instanceof ValueSize.Fixed f) {
            return Integer.toString(f.bytes());
        }
        if (size instanceof ValueSize.Range r) {
            return "{ min = " + r.min() + ", max = " + r.max() + " }";
        }
        if (size instanceof ValueSize.Weighted w) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < w.sizes().length; i++) {
                parts.add("{ size = " + w.sizes()[i] + ", weight = " + w.weights()[i] + " }");
            }
            return "[" + String.join(", ", parts) + "]";
        }
        return quote(size.describe());
    }

    private static void key(StringBuilder b, String key, String value) {
        b.append(key).append(" = ").append(value).append('\n');
    }

    /** A number as TOML writes it: whole numbers without a fraction, others exactly as Java prints the double. */
    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v).toLowerCase(Locale.ROOT);
    }

    private static String strings(List<String> values) {
        List<String> quoted = new ArrayList<>();
        for (String v : values) {
            quoted.add(quote(v));
        }
        return "[" + String.join(", ", quoted) + "]";
    }

    private static String quote(String s) {
        return TomlStrings.quote(s);
    }
}
