package io.fluxperf.engine.config;

import io.fluxperf.engine.protocol.ProtocolOptions;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flags of one command line, each under the {@link Setting} it sets, as picocli converted its
 * text ({@link SettingType#flagClass}: an Integer, a Duration, a String…) and not yet checked:
 * {@link ConfigResolver} checks each with its setting, naming the flag, and puts it over the
 * config file. The protocol's options come apart ({@link #protocolOptions}), since the protocol
 * declares and checks them. Immutable; make one with {@link #builder()}.
 */
public final class Flags {
    private static final Flags NONE = new Flags(Map.of(), ProtocolOptions.none());

    private final Map<Setting<?>, Object> given;
    private final ProtocolOptions protocolOptions;

    private Flags(Map<Setting<?>, Object> given, ProtocolOptions protocolOptions) {
        this.given = given;
        this.protocolOptions = protocolOptions;
    }

    /** A command line without flags. */
    public static Flags none() {
        return NONE;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether the flag of {@code s} was given. */
    public boolean has(Setting<?> s) {
        return given(s) != null;
    }

    /**
     * The flag of {@code s} as given, unchecked, or null; for a setting that shares another's flag
     * ({@link Setting#sharesFlagOf}), the last of that flag's values it reads, if any.
     */
    public Object given(Setting<?> s) {
        Object v = given.get(s);
        Setting<?> shared = s.sharesFlagWith();
        if (shared != null && given.get(shared) instanceof List<?> values) {
            for (Object o : values) {
                v = s.takes(o) ? o : v;
            }
        }
        return v;
    }

    /** The flag of {@code s} checked ({@link Setting#fromFlag}), or null when not given. */
    public <T> T value(Setting<T> s) {
        Object v = given(s);
        return v == null ? null : s.fromFlag(v);
    }

    /** The protocol's options the flags give, each placed at its flag ({@code --db}), unchecked. */
    public ProtocolOptions protocolOptions() {
        return protocolOptions;
    }

    /** A builder with these flags. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.given.putAll(given);
        b.protocolOptions = protocolOptions;
        return b;
    }

    /** Collects the flags of a command line. */
    public static final class Builder {
        private final Map<Setting<?>, Object> given = new HashMap<>();
        private ProtocolOptions protocolOptions = ProtocolOptions.none();

        private Builder() {
        }

        /**
         * The flag of {@code s} given as {@code value} ({@link SettingType#flagClass}; a String alone
         * for a flag that repeats is a list of one); null: not given.
         */
        public Builder set(Setting<?> s, Object value) {
            if (value == null) {
                given.remove(s);
            } else if (s.type().flagClass() == List.class) {
                given.put(s, value instanceof Collection<?> c ? List.copyOf(c) : List.of(value));
            } else if (s.type().flagClass().isInstance(value)) {
                given.put(s, value);
            } else {
                throw new IllegalArgumentException(s.flag() + " takes a " + s.type().flagClass().getSimpleName()
                        + ", not " + value.getClass().getSimpleName());
            }
            return this;
        }

        /** The value of a protocol's option ({@code db}, {@code header}), or each value of a list; null: not given. */
        public Builder protocolOption(String flag, Object value) {
            if (value instanceof Collection<?> values) {
                values.forEach(v -> protocolOption(flag, v));
            } else if (value != null) {
                protocolOptions = protocolOptions.with(flag, value.toString(), "--" + flag);
            }
            return this;
        }

        public Flags build() {
            return new Flags(Map.copyOf(new HashMap<>(given)), protocolOptions);
        }
    }

    @Override
    public String toString() {
        Map<String, Object> shown = new java.util.TreeMap<>();
        given.forEach((s, v) -> shown.put(s.flag(), v));
        return shown + (protocolOptions.values().isEmpty() ? "" : " " + protocolOptions.values());
    }
}
