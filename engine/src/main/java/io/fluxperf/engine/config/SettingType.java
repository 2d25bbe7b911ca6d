package io.fluxperf.engine.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * How one {@link Setting}'s value is written: on the command line (the class picocli converts the
 * flag's text to, then checked here), in a TOML table (read and checked with the key's place), and
 * back as TOML for a run directory's config.toml. The checks are the same on both sides, so a flag
 * and a key say the same thing about the same value ("must be at most 1024, not 2000").
 *
 * @param <T> the value's type in a {@link RunConfig}
 */
public abstract class SettingType<T> {
    private SettingType() {
    }

    /**
     * What a flag's text is converted to before {@link #fromFlag} checks it: Integer, Long, Double,
     * Boolean, Duration, String, Path, or List (of String) for a flag that repeats.
     */
    public abstract Class<?> flagClass();

    /** A flag's value, converted as {@link #flagClass}, checked; an IllegalArgumentException says the problem. */
    abstract T fromFlag(Object given);

    /** The value of {@code key} in {@code t}, checked, or null when absent; a problem names the key. */
    abstract T read(TomlTable t, String key);

    /** {@code value} as TOML. */
    abstract String toml(T value);

    /** The values a whole number may take, as docs/run.md writes them ({@code 1..1024}), or null. */
    String range() {
        return null;
    }

    /** A whole number from {@code min} to {@code max}. */
    static SettingType<Integer> integer(long min, long max) {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return Integer.class;
            }

            @Override
            Integer fromFlag(Object given) {
                Checks.range((Integer) given, min, max);
                return (Integer) given;
            }

            @Override
            Integer read(TomlTable t, String key) {
                Long v = t.integer(key, min, max);
                return v == null ? null : Math.toIntExact(v);
            }

            @Override
            String toml(Integer value) {
                return value.toString();
            }

            @Override
            String range() {
                return min + ".." + max;
            }
        };
    }

    /** A whole number from {@code min} to {@code max}, as a long. */
    static SettingType<Long> longInteger(long min, long max) {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return Long.class;
            }

            @Override
            Long fromFlag(Object given) {
                Checks.range((Long) given, min, max);
                return (Long) given;
            }

            @Override
            Long read(TomlTable t, String key) {
                return t.integer(key, min, max);
            }

            @Override
            String toml(Long value) {
                return value.toString();
            }

            @Override
            String range() {
                return min + ".." + max;
            }
        };
    }

    /** A finite number (whole or not) that {@code check} accepts. */
    static SettingType<Double> number(UnaryOperator<Double> check) {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return Double.class;
            }

            @Override
            Double fromFlag(Object given) {
                return check.apply((Double) given);
            }

            @Override
            Double read(TomlTable t, String key) {
                return checked(t, key, t.number(key), check);
            }

            @Override
            String toml(Double value) {
                return tomlNumber(value);
            }
        };
    }

    /** true or false; on the command line a flag without a value. */
    static SettingType<Boolean> bool() {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return Boolean.class;
            }

            @Override
            Boolean fromFlag(Object given) {
                return (Boolean) given;
            }

            @Override
            Boolean read(TomlTable t, String key) {
                return t.bool(key);
            }

            @Override
            String toml(Boolean value) {
                return value.toString();
            }
        };
    }

    /** A duration that {@code check} accepts: seconds, or a number with a unit ("250ms", "2s"). */
    static SettingType<Duration> duration(UnaryOperator<Duration> check) {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return Duration.class;
            }

            @Override
            Duration fromFlag(Object given) {
                return check.apply((Duration) given);
            }

            @Override
            Duration read(TomlTable t, String key) {
                return checked(t, key, t.duration(key), check);
            }

            @Override
            String toml(Duration value) {
                return tomlDuration(value);
            }
        };
    }

    /** Text that {@code parse} makes a value of (a name, an address), written back by {@code print}. */
    static <T> SettingType<T> text(Function<String, T> parse, Function<T, String> print) {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return String.class;
            }

            @Override
            T fromFlag(Object given) {
                return parse.apply((String) given);
            }

            @Override
            T read(TomlTable t, String key) {
                return checked(t, key, t.string(key), parse);
            }

            @Override
            String toml(T value) {
                return TomlStrings.quote(print.apply(value));
            }
        };
    }

    /**
     * The same, where a file's key is checked by {@code parseKey}: a key that says more than its
     * flag would (where a value of another kind belongs in the file).
     */
    static <T> SettingType<T> text(Function<String, T> parse, Function<String, T> parseKey, Function<T, String> print) {
        SettingType<T> flag = text(parse, print);
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return String.class;
            }

            @Override
            T fromFlag(Object given) {
                return flag.fromFlag(given);
            }

            @Override
            T read(TomlTable t, String key) {
                return checked(t, key, t.string(key), parseKey);
            }

            @Override
            String toml(T value) {
                return flag.toml(value);
            }
        };
    }

    /**
     * Servers ({@code HOST:PORT[:WEIGHT]}, {@link ServerSpec}), each as it parses back: a flag given
     * once per server, refused when one is given twice; in a file, {@code list} false: one server
     * as a string, without a weight ({@code server = "HOST:PORT"}); true: a list of at least one
     * ({@code servers = [...]}), refused when one is listed twice, a problem naming its item.
     */
    static SettingType<List<String>> servers(boolean list) {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return List.class;
            }

            @Override
            @SuppressWarnings("unchecked")
            List<String> fromFlag(Object given) {
                List<String> texts = given instanceof String s ? List.of(s) : (List<String>) given;
                List<ServerSpec> specs = new java.util.ArrayList<>();
                for (String text : texts) {
                    specs.add(ServerSpec.parse(text));
                }
                String twice = ServerSpec.duplicate(specs);
                if (twice != null) {
                    throw new IllegalArgumentException(twice + " is given twice");
                }
                return specs.stream().map(ServerSpec::toString).toList();
            }

            @Override
            List<String> read(TomlTable t, String key) {
                if (!list) {
                    String one = checked(t, key, t.string(key), Checks::server);
                    return one == null ? null : List.of(one);
                }
                List<String> texts = t.strings(key);
                if (texts == null) {
                    return null;
                }
                if (texts.isEmpty()) {
                    throw t.error(key, "the list is empty; give at least one \"HOST:PORT\"");
                }
                List<ServerSpec> specs = new java.util.ArrayList<>();
                for (int i = 0; i < texts.size(); i++) {
                    try {
                        specs.add(ServerSpec.parse(texts.get(i)));
                    } catch (IllegalArgumentException e) {
                        throw t.error(key, "item " + (i + 1) + ": " + e.getMessage());
                    }
                }
                String twice = ServerSpec.duplicate(specs);
                if (twice != null) {
                    throw t.error(key, twice + " is listed twice");
                }
                return specs.stream().map(ServerSpec::toString).toList();
            }

            @Override
            String toml(List<String> value) {
                return list ? strings().toml(value) : TomlStrings.quote(value.get(0));
            }
        };
    }

    /** Text as it is. */
    static SettingType<String> text() {
        return text(s -> s, s -> s);
    }

    /** A file's path, which {@code check} accepts (given as its text). */
    static SettingType<Path> path(Function<String, Path> check) {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return Path.class;
            }

            @Override
            Path fromFlag(Object given) {
                return check.apply(given.toString());
            }

            @Override
            Path read(TomlTable t, String key) {
                return checked(t, key, t.string(key), check);
            }

            @Override
            String toml(Path value) {
                return TomlStrings.quote(value.toString());
            }
        };
    }

    /** A list of strings: a flag given once per item, a TOML array (a single string is a list of one). */
    static SettingType<List<String>> strings() {
        return new SettingType<>() {
            @Override
            public Class<?> flagClass() {
                return List.class;
            }

            @Override
            @SuppressWarnings("unchecked")
            List<String> fromFlag(Object given) {
                return given instanceof String s ? List.of(s) : List.copyOf((List<String>) given);
            }

            @Override
            List<String> read(TomlTable t, String key) {
                return t.strings(key);
            }

            @Override
            String toml(List<String> value) {
                return "[" + String.join(", ", value.stream().map(TomlStrings::quote).toList()) + "]";
            }
        };
    }

    private static <R, T> T checked(TomlTable t, String key, R value, Function<R, T> check) {
        if (value == null) {
            return null;
        }
        try {
            return check.apply(value);
        } catch (IllegalArgumentException e) {
            throw t.error(key, e.getMessage());
        }
    }

    /** A duration in the largest unit that keeps it exact ("60s", "250ms", "50us", "7ns"), quoted. */
    static String tomlDuration(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000_000L == 0) {
            return TomlStrings.quote(nanos / 1_000_000_000L + "s");
        }
        if (nanos % 1_000_000L == 0) {
            return TomlStrings.quote(nanos / 1_000_000L + "ms");
        }
        if (nanos % 1_000L == 0) {
            return TomlStrings.quote(nanos / 1_000L + "us");
        }
        return TomlStrings.quote(nanos + "ns");
    }

    /** A number as TOML writes it: whole numbers without a fraction, others exactly as Java prints the double. */
    static String tomlNumber(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v).toLowerCase(Locale.ROOT);
    }

    /** An enum's value named by {@code parse} (null: not one of them), refused with the names it takes. */
    static <E extends Enum<E>> Function<String, E> choice(Function<String, E> parse, String expected) {
        return text -> {
            E e = parse.apply(text);
            if (e == null) {
                throw new IllegalArgumentException("expected " + expected + ", not '" + text + "'");
            }
            return e;
        };
    }
}
