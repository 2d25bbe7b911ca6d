package io.fluxperf.replay.profile;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.Settings;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A profile as a workload that {@code fluxperf run --config} runs ({@code profile --config-out}):
 * one {@code [[workload]]} per verb the protocol has a method for, at the verb's share of the log's
 * rate (open loop; closed loop by weight when the log has no times), over as many keys as the log
 * has, of its mean key size, drawn from a Zipf distribution with the fitted alpha (uniform when
 * there is none); writes carry the log's value sizes and TTLs as weighted lists; as many
 * connections as the log has clients; as long as the log lasts.
 */
public final class WorkloadFit {
    /** Entries of a weighted list: the distinct sizes when fewer, else equal-count bins. */
    static final int LIST_ENTRIES = 32;

    private WorkloadFit() {
    }

    public static String toml(LogProfile p) {
        Protocol protocol = Protocols.find(p.protocol());
        StringBuilder b = new StringBuilder();
        b.append("# A workload fitted to ").append(p.log()).append(" by fluxperf profile:\n")
                .append("# its verb mix and rate, its keys (a Zipf distribution with the fitted alpha), value sizes and TTLs.\n")
                .append("# Run: fluxperf run --config THIS_FILE -s HOST:PORT\n\n");
        b.append("[general]\n");
        b.append("protocol = ").append(quote(p.protocol())).append('\n');
        b.append("threads = 1\n");
        b.append("connections = ").append(Math.max(1, Math.min(100_000, p.clients())))
                .append("   # the log's clients; more (or --pipeline) when they cannot keep the rate\n");
        long duration = p.seconds() == null ? 60 : Math.max(1, (long) Math.ceil(p.seconds()));
        b.append("duration = ").append(duration).append(p.seconds() == null ? "   # the log has no times\n"
                : "   # the log's seconds; --duration runs it longer\n");
        b.append("windows = 1\n");

        long keys = Math.max(1, p.keys());
        int keyLength = (int) Math.min(Settings.MAX_KEY_LENGTH, Math.max(Long.toString(keys - 1).length(),
                p.keySize() == null ? 16 : Math.round(p.keySize().mean())));
        String distribution = p.zipfAlpha() != null && p.zipfAlpha() > 0
                ? "distribution = \"zipf\"\nexponent = " + number(p.zipfAlpha()) + "\n" : "distribution = \"uniform\"\n";
        List<String> left = new ArrayList<>();
        int workloads = 0;
        for (Map.Entry<String, Long> op : p.operationCounts().entrySet()) {
            Command c = Command.parse(op.getKey());
            double share = (double) op.getValue() / p.requests();
            if (!fits(c, protocol)) {
                left.add(op.getKey() + " " + ProfileText.percent(share));
                continue;
            }
            workloads++;
            b.append("\n[[workload]]\n");
            b.append("name = ").append(quote(op.getKey())).append('\n');
            b.append("method = ").append(quote(c.label())).append('\n');
            if (p.rate() != null) {
                b.append("rate = ").append(number(share * p.rate())).append('\n');
            } else {
                b.append("weight = ").append(Math.max(1, Math.round(share * 1_000_000))).append('\n');
            }
            b.append("keyspace = ").append(keys).append('\n');
            b.append("key-length = ").append(keyLength).append('\n');
            b.append(distribution);
            if (c.carriesValue()) {
                if (!p.writeSizes().isEmpty()) {
                    b.append("bytes = ").append(weighted(p.writeSizes(), ValueSize.MAX_BYTES, "size")).append('\n');
                }
                if (p.writeTtls().keySet().stream().anyMatch(t -> t > 0)) {
                    b.append("ttl = ").append(weighted(p.writeTtls(), Settings.MAX_TTL, "seconds")).append('\n');
                }
            }
        }
        if (workloads == 0) {
            throw new UserError("--config-out: " + (p.requests() == 0 ? p.log() + " holds no commands"
                    : "none of the log's commands (" + String.join(", ", p.operationCounts().keySet())
                    + ") is a workload method of " + p.protocol()) + "; no workload to fit");
        }
        if (!left.isEmpty()) {
            b.append("\n# left out (no ").append(p.protocol()).append(" workload method of that name, a script or a flush): ")
                    .append(String.join(", ", left)).append('\n');
        }
        return b.toString();
    }

    /**
     * Whether a verb becomes a workload: a method of the protocol, but not a literal command, a
     * script (its body is not in the log) or a flush (a workload that empties the server).
     */
    private static boolean fits(Command c, Protocol protocol) {
        return c != null && protocol != null && protocol.supports(c) && c != Command.COMMAND && c != Command.EVAL
                && c != Command.EVALSHA && c != Command.FLUSH;
    }

    /**
     * A weighted list of {@code counts} (value → occurrences): each distinct value with its count
     * when there are at most {@link #LIST_ENTRIES}; else the values in order cut into that many
     * bins of about equal count, each the mean of its bin (so the mean is kept). Values above
     * {@code max} are taken as {@code max}.
     */
    static String weighted(Map<Long, Long> counts, long max, String field) {
        TreeMap<Long, Long> bins = new TreeMap<>();
        long total = counts.values().stream().mapToLong(Long::longValue).sum();
        if (counts.size() <= LIST_ENTRIES) {
            counts.forEach((v, n) -> bins.merge(Math.min(v, max), n, Long::sum));
        } else {
            double per = (double) total / LIST_ENTRIES;
            double sum = 0;
            long n = 0;
            long cumulative = 0;
            int bin = 0;
            for (Map.Entry<Long, Long> e : new TreeMap<>(counts).entrySet()) {
                long left = e.getValue();
                while (left > 0) {
                    long boundary = (long) Math.ceil(per * (bin + 1)); // the cumulative count where this bin ends
                    long take = Math.min(left, Math.max(1, boundary - cumulative));
                    sum += (double) Math.min(e.getKey(), max) * take;
                    n += take;
                    cumulative += take;
                    left -= take;
                    if (cumulative >= boundary) {
                        bins.merge(Math.round(sum / n), n, Long::sum);
                        sum = 0;
                        n = 0;
                        bin++;
                    }
                }
            }
            if (n > 0) {
                bins.merge(Math.round(sum / n), n, Long::sum);
            }
        }
        // weights are ints in the config: scale large counts down, keeping every entry at least 1
        long biggest = bins.values().stream().max(Comparator.naturalOrder()).orElse(1L);
        double scale = biggest > 1_000_000 ? 1_000_000.0 / biggest : 1;
        List<String> entries = new ArrayList<>();
        bins.forEach((v, n) -> entries.add("{ " + field + " = " + v + ", weight = " + Math.max(1, Math.round(n * scale))
                + " }"));
        return "[" + String.join(", ", entries) + "]";
    }

    private static String number(double v) {
        String s = String.format(Locale.ROOT, "%.6f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s + "0" : s;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
