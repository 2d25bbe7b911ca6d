package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The HTTP options of a run: the user's request headers ({@code --header "Name: value"},
 * repeatable) and the status classes that count as OK ({@code --http-ok 2xx,3xx}; 2xx by
 * default).
 *
 * @param headers   request headers, each "Name: value", with a Host header for the server named
 * @param okClasses status classes (2 for 2xx, …) that count as OK; others are errors
 */
public record HttpOptions(List<String> headers, Set<Integer> okClasses) {
    static final List<ProtocolOption> DECLARED = List.of(ProtocolOption.list("header", "headers"),
            ProtocolOption.text("http-ok"));

    public HttpOptions {
        headers = List.copyOf(headers);
        okClasses = Set.copyOf(okClasses);
    }

    /** No headers of the user's, 2xx counts as OK. */
    public static HttpOptions defaults() {
        return new HttpOptions(List.of(), Set.of(2));
    }

    /**
     * Reads and checks the options a user gave. Without a Host header of the user's, requests to
     * {@code server} name it, as a browser would; the embedded target and Unix sockets get
     * {@link HttpRequestHead#DEFAULT_HOST}.
     */
    static HttpOptions of(ProtocolOptions given, String server) {
        List<String> headers = new ArrayList<>();
        for (ProtocolOptions.Value h : given.all("header")) {
            headers.add(header(h));
        }
        boolean hasHost = headers.stream().anyMatch(h -> h.regionMatches(true, 0, "host:", 0, 5));
        if (!hasHost && server != null && !server.startsWith("unix:")) {
            headers.add("Host: " + server);
        }
        ProtocolOptions.Value ok = given.last("http-ok");
        return new HttpOptions(headers, ok == null ? Set.of(2) : statusClasses(ok));
    }

    /** An HTTP header line "Name: value". */
    private static String header(ProtocolOptions.Value v) {
        String text = v.text();
        int colon = text.indexOf(':');
        if (colon <= 0 || text.substring(0, colon).chars().anyMatch(c -> c <= ' ' || c == ':')) {
            throw v.error("'" + text + "' is not a header; write Name: value");
        }
        if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
            throw v.error("a header cannot hold a line break");
        }
        return text;
    }

    /** Status classes "2xx,3xx" → {2, 3}. */
    private static Set<Integer> statusClasses(ProtocolOptions.Value v) {
        Set<Integer> classes = new TreeSet<>();
        for (String part : v.text().split(",")) {
            String p = part.trim().toLowerCase(Locale.ROOT);
            if (!p.matches("[1-5]xx")) {
                throw v.error("'" + part.trim() + "' is not a status class; write 2xx, 3xx, 4xx or 5xx");
            }
            classes.add(p.charAt(0) - '0');
        }
        return classes;
    }
}
