package io.fluxperf.engine.protocol;

import java.util.List;
import java.util.Set;

/**
 * Protocol settings that apply to every connection of a run; each protocol reads the ones it
 * knows and ignores the rest.
 *
 * @param user            redis ACL user for AUTH (null: the default user)
 * @param password        redis AUTH password (null: no AUTH)
 * @param database        redis SELECT index (-1: leave the default)
 * @param respVersion     2, or 3 to switch with HELLO 3
 * @param httpHeaders     extra request headers, each "Name: value"
 * @param httpOkClasses   HTTP status classes (2 for 2xx, …) that count as ok; others are errors
 */
public record ProtocolOptions(String user, String password, int database, int respVersion,
                              List<String> httpHeaders, Set<Integer> httpOkClasses) {
    public ProtocolOptions {
        httpHeaders = List.copyOf(httpHeaders);
        httpOkClasses = Set.copyOf(httpOkClasses);
        if (respVersion != 2 && respVersion != 3) {
            throw new IllegalArgumentException("RESP version must be 2 or 3, not " + respVersion);
        }
    }

    public static ProtocolOptions defaults() {
        return new ProtocolOptions(null, null, -1, 2, List.of(), Set.of(2));
    }
}
