package io.fluxperf.replay.profile;

import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/** A profile as text: one line per column of the paper's table, then what was read. */
public final class ProfileText {
    private ProfileText() {
    }

    public static String of(LogProfile p) {
        StringBuilder b = new StringBuilder();
        b.append("Profile: ").append(p.log()).append(" (").append(p.format())
                .append(p.compression().isEmpty() ? "" : ", " + p.compression()).append("; protocol ")
                .append(p.protocol()).append(")\n");
        b.append("Requests: ").append(p.requests())
                .append(" Seconds: ").append(p.seconds() == null ? "n/a" : fixed(p.seconds(), 3))
                .append(" Rate: ").append(p.rate() == null ? "n/a" : fixed(p.rate(), 1) + "/s")
                .append(" Peak second: ").append(p.peakSecond() == null ? "n/a"
                        : p.peakSecond().requests() + " requests at " + p.peakSecond().second() + " s")
                .append('\n');
        b.append("Clients: ").append(p.clients()).append(" Keys: ").append(p.keys()).append('\n');
        StringJoiner ops = new StringJoiner(" ");
        p.operations().forEach((verb, share) -> ops.add(verb + " " + percent(share)));
        b.append("Operations: ").append(ops).append('\n');
        b.append("Key size: ").append(sizes(p.keySize())).append('\n');
        b.append("Value size: ").append(sizes(p.valueSize())).append('\n');
        b.append("Zipf alpha: ").append(p.zipfAlpha() == null ? "n/a" : fixed(p.zipfAlpha(), 4))
                .append(" (over the ").append(p.zipfKeys()).append(" keys requested at least twice)\n");
        b.append("One-hit wonders: ").append(p.oneHitWonderRatio() == null ? "n/a" : percent(p.oneHitWonderRatio()))
                .append(" of the keys\n");
        StringJoiner ttl = new StringJoiner(" ");
        for (Map.Entry<Long, Double> t : p.ttl().entrySet()) {
            ttl.add(t.getKey() + " s " + percent(t.getValue()));
        }
        b.append("TTL: ").append(p.ttl().isEmpty() ? "none" : ttl.toString()).append(" (")
                .append(p.ttlWrites()).append(" of ").append(p.writes()).append(" writes carry one)\n");
        b.append("Working set: ").append(p.workingSetBytes()).append(" bytes (keys and their last values)\n");
        b.append("Hit rate: ").append(p.hitRate() == null ? "n/a (the log holds no replies)"
                : percent(p.hitRate()) + " (of " + p.repliedReads() + " reads the original server answered)").append('\n');
        b.append("Lines: read ").append(p.lines()).append(" bad ").append(p.badLines()).append('\n');
        for (String bad : p.firstBadLines()) {
            b.append("Bad line: ").append(bad).append('\n');
        }
        for (String note : p.notes()) {
            b.append("Note: ").append(note).append('\n');
        }
        return b.toString();
    }

    private static String sizes(SizeSummary s) {
        if (s == null) {
            return "n/a";
        }
        return "mean " + fixed(s.mean(), 2) + " p50 " + s.p50() + " p99 " + s.p99() + " max " + s.max() + " bytes";
    }

    static String percent(double share) {
        return fixed(100 * share, 2) + " %";
    }

    static String fixed(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
