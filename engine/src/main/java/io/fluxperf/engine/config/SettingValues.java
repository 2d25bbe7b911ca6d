package io.fluxperf.engine.config;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A value for each of some {@link Setting}s, typed by its key. Immutable: {@link #with} returns a
 * changed copy. A setting without a value reads as null.
 */
public final class SettingValues {
    private static final SettingValues NONE = new SettingValues(Map.of());

    private final Map<Setting<?>, Object> values;

    private SettingValues(Map<Setting<?>, Object> values) {
        this.values = values;
    }

    /** No setting has a value. */
    public static SettingValues none() {
        return NONE;
    }

    /** The value of {@code s}, or null. */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> s) {
        return (T) values.get(s);
    }

    public boolean has(Setting<?> s) {
        return values.containsKey(s);
    }

    /** A copy with {@code s} set to {@code value} (null: without a value). */
    public <T> SettingValues with(Setting<T> s, T value) {
        Map<Setting<?>, Object> m = new HashMap<>(values);
        if (value == null) {
            m.remove(s);
        } else {
            m.put(s, s.type().flagClass() == java.util.List.class ? java.util.List.copyOf((java.util.List<?>) value) : value);
        }
        return new SettingValues(Map.copyOf(m));
    }

    /** A copy with every value of {@code other} set over these. */
    public SettingValues with(SettingValues other) {
        Map<Setting<?>, Object> m = new HashMap<>(values);
        m.putAll(other.values);
        return new SettingValues(Map.copyOf(m));
    }

    /** The values of the settings {@code which} keeps. */
    public SettingValues only(Predicate<Setting<?>> which) {
        Map<Setting<?>, Object> m = new HashMap<>();
        values.forEach((s, v) -> {
            if (which.test(s)) {
                m.put(s, v);
            }
        });
        return new SettingValues(Map.copyOf(m));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SettingValues v && values.equals(v.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{");
        for (Setting<?> s : Settings.all()) {
            if (values.containsKey(s)) {
                b.append(b.length() > 1 ? ", " : "").append(s.name()).append('=').append(values.get(s));
            }
        }
        return b.append('}').toString();
    }
}
