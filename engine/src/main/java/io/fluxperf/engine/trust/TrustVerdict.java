package io.fluxperf.engine.trust;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The run's verdict on itself, the report's last line: {@code Trust: good}, or what stands against
 * its figures: {@code Trust: client-limited, client paused}.
 */
public record TrustVerdict(Set<Flag> flags) {
    /** What stands against a run's figures, in the order the line names them. */
    public enum Flag {
        /** The client set the pace in a window (its CPU, the run queue, its own send lag): the figures describe it. */
        CLIENT_LIMITED("client-limited"),
        /** The client stood still in a measured window: requests due then waited in it. */
        CLIENT_PAUSED("client paused"),
        /** An outlying start, a trend or a drift: the totals do not describe the whole run alike. */
        UNSTABLE("unstable"),
        /** The whole run's p99, or an objective's percentile, has fewer than 10 samples beyond it. */
        FEW_SAMPLES("few samples");

        private final String label;

        Flag(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public static Flag ofLabel(String label) {
            for (Flag f : values()) {
                if (f.label.equals(label)) {
                    return f;
                }
            }
            throw new IllegalArgumentException("no trust flag '" + label + "'");
        }
    }

    public TrustVerdict {
        flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
    }

    /** Nothing stands against the figures. */
    public boolean good() {
        return flags.isEmpty();
    }

    /** The flags in the line's order. */
    public List<Flag> ordered() {
        List<Flag> out = new ArrayList<>();
        for (Flag f : Flag.values()) {
            if (flags.contains(f)) {
                out.add(f);
            }
        }
        return out;
    }

    /** {@code good}, or the flags' labels joined: {@code client-limited, client paused}. */
    public String text() {
        return good() ? "good" : String.join(", ", ordered().stream().map(Flag::label).toList());
    }

    /** The report's last line. */
    public String line() {
        return "Trust: " + text();
    }
}
