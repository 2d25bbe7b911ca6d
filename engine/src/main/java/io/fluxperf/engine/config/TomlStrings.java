package io.fluxperf.engine.config;

import java.util.Locale;

/** TOML text that fluxperf writes: {@code convert}'s output and a run directory's config.toml. */
public final class TomlStrings {
    private TomlStrings() {
    }

    /** {@code s} as a TOML basic string, with the escapes TOML requires for quotes and control characters. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (ch < 0x20 || ch == 0x7f) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
