package io.fluxperf.engine.config;

import java.util.Locale;

/**
 * How a run with several servers places each key on one of them (client-side sharding, as
 * libmemcached, mcrouter and twemproxy do). A redis Cluster places keys itself ({@code --cluster}).
 */
public enum ServerDistribution {
    /**
     * libmemcached's weighted ketama consistent hashing: 160 MD5 points on a circle per server
     * (scaled by its share of the weights), a key going to the first point at or after the MD5
     * hash of its bytes; adding or removing a server moves only that server's share of the keys.
     */
    KETAMA,
    /** libmemcached's modula: the key's one-at-a-time hash modulo the number of servers. */
    MODULA;

    /** The name users type. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The distribution named {@code text} (any case), or null. */
    public static ServerDistribution parse(String text) {
        for (ServerDistribution d : values()) {
            if (d.label().equalsIgnoreCase(text.trim())) {
                return d;
            }
        }
        return null;
    }
}
