package io.fluxperf.engine.protocol;

import java.util.Objects;

/**
 * An option a protocol reads: the flag that sets it ({@code --db}), its key in a config file's
 * {@code [general]} table, and the shape its value must have there, which the file's reader
 * checks with the key's line in the message. What a value means is the protocol's to check
 * ({@link Protocol#codecs}).
 *
 * @param flag the flag without its dashes, e.g. {@code header}
 * @param key  the config key, e.g. {@code headers}
 * @param min  the least value of an {@link Shape#INTEGER}
 * @param max  the greatest value of an {@link Shape#INTEGER}
 */
public record ProtocolOption(String flag, String key, Shape shape, long min, long max) {
    /** What a value looks like in a config file. */
    public enum Shape {
        /** A string. */
        TEXT,
        /** A whole number from {@code min} to {@code max}. */
        INTEGER,
        /** A list of strings (a single string is a list of one); flags repeat. */
        TEXT_LIST
    }

    public ProtocolOption {
        Objects.requireNonNull(flag, "flag");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(shape, "shape");
    }

    public static ProtocolOption text(String name) {
        return new ProtocolOption(name, name, Shape.TEXT, 0, 0);
    }

    public static ProtocolOption integer(String name, long min, long max) {
        return new ProtocolOption(name, name, Shape.INTEGER, min, max);
    }

    /** A repeatable option: {@code --header A --header B}, or {@code headers = ["A", "B"]}. */
    public static ProtocolOption list(String flag, String key) {
        return new ProtocolOption(flag, key, Shape.TEXT_LIST, 0, 0);
    }
}
