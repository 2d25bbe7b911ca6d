package io.fluxperf.cli.mcb;

import io.fluxperf.engine.UserError;
import java.util.Locale;

/** mcb's {@code -T}: how the threads reach memcached. */
public enum McbTransport {
    TCP,
    UDP,
    UNIX_SOCKET;

    /** {@code -T}'s value, in any case. */
    public static McbTransport parse(String text) {
        for (McbTransport t : values()) {
            if (t.name().equalsIgnoreCase(text.trim())) {
                return t;
            }
        }
        throw new UserError("-T: unknown connection type '" + text + "'; expected TCP, UDP or UNIX_SOCKET");
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
