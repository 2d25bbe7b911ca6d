package io.fluxperf.engine.config;

import java.util.Locale;

/** Where a cluster run sends its reads ({@code --read-from}); writes always go to the masters. */
public enum ReadFrom {
    /** Every request to the master of its key's shard (the default). */
    MASTER,
    /** Reads to a replica of the key's shard where it has one (round robin), else to its master. */
    REPLICA;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The choice named {@code text} (any case), or null. */
    public static ReadFrom parse(String text) {
        for (ReadFrom r : values()) {
            if (r.label().equalsIgnoreCase(text.trim())) {
                return r;
            }
        }
        return null;
    }
}
