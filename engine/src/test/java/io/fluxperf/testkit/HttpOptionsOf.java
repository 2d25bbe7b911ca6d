package io.fluxperf.testkit;

import io.fluxperf.engine.protocol.ProtocolOptions;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** HTTP's protocol options as the flags {@code --header} and {@code --http-ok} would give them. */
public final class HttpOptionsOf {
    private HttpOptionsOf() {
    }

    /** @param okClasses status classes that count as ok, e.g. {@code Set.of(2, 4)} */
    public static ProtocolOptions of(List<String> headers, Set<Integer> okClasses) {
        ProtocolOptions o = ProtocolOptions.none();
        for (String h : headers) {
            o = o.with("header", h, "--header");
        }
        String ok = okClasses.stream().sorted().map(c -> c + "xx").collect(Collectors.joining(","));
        return o.with("http-ok", ok, "--http-ok");
    }
}
