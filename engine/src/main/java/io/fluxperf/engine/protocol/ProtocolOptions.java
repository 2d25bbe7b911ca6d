package io.fluxperf.engine.protocol;

import io.fluxperf.engine.UserError;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The protocol options a user gave, each with the place it came from, not yet read: the protocol
 * that declares an option ({@link Protocol#options()}) reads and checks it in
 * {@link Protocol#codecs}. Immutable; values of a repeated option keep their order.
 */
public final class ProtocolOptions {
    private static final ProtocolOptions NONE = new ProtocolOptions(List.of());

    /**
     * One value as given.
     *
     * @param option the option's flag name without dashes, e.g. {@code db}
     * @param place  where it was given, to start a message with: {@code --db}, or
     *               {@code run.toml: general.db (line 3)}
     */
    public record Value(String option, String text, String place) {
        public Value {
            Objects.requireNonNull(option, "option");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(place, "place");
        }

        /** A problem with this value, as the one sentence the user sees. */
        public UserError error(String problem) {
            return new UserError(place + ": " + problem);
        }

        /** The value as a whole number in [min, max]. */
        public long integer(long min, long max) {
            long v;
            try {
                v = Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                throw error("'" + text + "' is not a whole number");
            }
            if (v < min) {
                throw error("must be at least " + min + ", not " + v);
            }
            if (v > max) {
                throw error("must be at most " + max + ", not " + v);
            }
            return v;
        }
    }

    private final List<Value> values;

    private ProtocolOptions(List<Value> values) {
        this.values = List.copyOf(values);
    }

    /** No option given. */
    public static ProtocolOptions none() {
        return NONE;
    }

    /**
     * Options as flags give them: pairs of option name and value, e.g.
     * {@code of("db", "2", "header", "X-A: 1")}; each value's place is its flag.
     */
    public static ProtocolOptions of(String... optionsAndValues) {
        if (optionsAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("pairs of option and value, not " + optionsAndValues.length + " strings");
        }
        ProtocolOptions o = NONE;
        for (int i = 0; i < optionsAndValues.length; i += 2) {
            o = o.with(optionsAndValues[i], optionsAndValues[i + 1], "--" + optionsAndValues[i]);
        }
        return o;
    }

    /** A copy with one more value (for a repeatable option, after those given before). */
    public ProtocolOptions with(String option, String text, String place) {
        List<Value> more = new ArrayList<>(values);
        more.add(new Value(option, text, place));
        return new ProtocolOptions(more);
    }

    /** The value given last for {@code option} (a flag given after a config key wins), or null. */
    public Value last(String option) {
        for (int i = values.size() - 1; i >= 0; i--) {
            if (values.get(i).option().equals(option)) {
                return values.get(i);
            }
        }
        return null;
    }

    /** Every value given for {@code option}, in order. */
    public List<Value> all(String option) {
        return values.stream().filter(v -> v.option().equals(option)).toList();
    }

    /** Every value, in order. */
    public List<Value> values() {
        return values;
    }

    /** The options given, in order of their first value. */
    public Set<String> given() {
        Set<String> out = new LinkedHashSet<>();
        values.forEach(v -> out.add(v.option()));
        return out;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtocolOptions p && p.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
