package io.fluxperf.engine.admin;

import io.fluxperf.engine.config.RateLimits;
import io.fluxperf.engine.workload.RateControl;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the admin endpoint answers to a well-formed request: its method and request target in,
 * a {@link Reply} out. No HTTP framing here ({@link AdminHttpHandler} does that), so every answer,
 * good or bad, is made in one place and a bad request is one sentence with a 4xx status.
 *
 * <p>The request target is checked before anything is looked up: a path of RFC 3986 characters
 * whose percent escapes decode as UTF-8, with no dot segments. Anything else ({@code /\..\etc},
 * {@code /%zz}, raw non-ASCII bytes) is a 400, never an exception.
 */
final class AdminRoutes {
    /** What a request is answered: a status, a content type and a body, and for a 405 the methods allowed. */
    record Reply(int status, String type, byte[] body, String allow) {
        static Reply text(int status, String sentence) {
            return new Reply(status, TEXT, (sentence + "\n").getBytes(StandardCharsets.UTF_8), null);
        }
    }

    /** What the endpoint shows and steers: the run's figures, its rates (null: not steerable) and its quit. */
    record Attached(LiveFigures figures, AdminMetrics metrics, RateControl rates, Runnable quit) {
    }

    static final String TEXT = "text/plain; charset=utf-8";
    private static final String NOT_STARTED = "The run has not started yet; try again in a moment.";
    /** How much of a bad target a message quotes. */
    private static final int QUOTED = 80;

    private final byte[] dashboard;

    AdminRoutes(byte[] dashboard) {
        this.dashboard = dashboard;
    }

    /**
     * The answer to {@code method} on {@code target} (as the request line has it), given the run
     * attached now ({@code run}, null before one is).
     */
    Reply answer(String method, String target, Attached run) {
        List<String> path = new ArrayList<>();
        String problem = parse(target, path);
        if (problem != null) {
            return Reply.text(400, problem);
        }
        boolean get = method.equals("GET") || method.equals("HEAD");
        if (path.isEmpty()) {
            return get ? new Reply(200, "text/html; charset=utf-8", dashboard, null) : notAllowed("GET");
        }
        String first = path.get(0);
        if (path.size() == 1 && (first.equals("metrics") || first.equals("metrics.json") || first.equals("vars"))) {
            if (!get) {
                return notAllowed("GET");
            }
            if (run == null) {
                return Reply.text(503, NOT_STARTED);
            }
            return switch (first) {
                case "metrics" -> new Reply(200, run.metrics().contentType(), run.metrics().text(), null);
                case "metrics.json" -> new Reply(200, "application/json", AdminViews.json(run.figures().snapshot(),
                        run.rates() == null ? List.of() : run.rates().changes()), null);
                default -> new Reply(200, TEXT, AdminViews.vars(run.figures().snapshot()).getBytes(StandardCharsets.UTF_8), null);
            };
        }
        if (path.size() == 1 && first.equals("quitquitquit")) {
            if (!method.equals("POST")) {
                return notAllowed("POST");
            }
            if (run == null) {
                return Reply.text(503, NOT_STARTED);
            }
            run.quit().run();
            return Reply.text(200, "Quitting: the run stops sending and writes its report.");
        }
        if (first.equals("ratelimit")) {
            if (!method.equals("PUT")) {
                return notAllowed("PUT");
            }
            return rateLimit(path.subList(1, path.size()), run);
        }
        return Reply.text(404, "No such path: " + quoted(target) + " (try /, /metrics, /metrics.json, /vars,"
                + " PUT /ratelimit/RATE, POST /quitquitquit).");
    }

    private static Reply rateLimit(List<String> rest, Attached run) {
        if (rest.isEmpty() || rest.size() > 2) {
            return Reply.text(404, "Expected PUT /ratelimit/RATE or PUT /ratelimit/WORKLOAD/RATE.");
        }
        String typed = rest.get(rest.size() - 1);
        double rate;
        try {
            rate = RateLimits.number(typed); // its bounds: RateControl#refusal
        } catch (IllegalArgumentException e) {
            return Reply.text(400, "The rate must be a number of requests per second above 0, not " + quoted(typed) + ".");
        }
        if (run == null) {
            return Reply.text(503, NOT_STARTED);
        }
        if (run.rates() == null) {
            return Reply.text(409, run.figures().snapshot().kind().equals("replay")
                    ? "A replay is paced by its log, so it has no rate to set."
                    : "This run is closed-loop (no --rate), so it has no rate to set.");
        }
        int w = -1;
        String name = null;
        if (rest.size() == 2) {
            name = rest.get(0);
            w = run.figures().workloads().indexOf(name);
            if (w < 0) {
                return Reply.text(404, "No workload named " + quoted(name) + "; this run's workloads are "
                        + String.join(", ", run.figures().workloads()) + ".");
            }
        }
        String refused = run.rates().refusal(w, rate, quoted(typed));
        if (refused != null) {
            return Reply.text(400, refused);
        }
        long now = System.nanoTime();
        if (w < 0) {
            run.rates().setTotal(rate, now, "PUT /ratelimit");
            return Reply.text(200, "The run's rate is now " + RateLimits.format(rate) + " requests/s.");
        }
        run.rates().set(w, rate, now, "PUT /ratelimit/" + name);
        return Reply.text(200, "Workload " + name + " now sends " + RateLimits.format(rate) + " requests/s.");
    }

    private static Reply notAllowed(String allow) {
        return new Reply(405, TEXT, ("This path takes " + allow + " only.\n").getBytes(StandardCharsets.UTF_8), allow);
    }

    /**
     * Puts the decoded segments of {@code target}'s path into {@code segments} (none for "/"), or
     * says in one sentence why it is no path. The absolute form ({@code http://host/path}) is read
     * as its path; a query is allowed and ignored.
     */
    static String parse(String target, List<String> segments) {
        String t = target;
        int scheme = t.indexOf("://");
        if (scheme > 0 && t.substring(0, scheme).matches("(?i)https?")) {
            int slash = t.indexOf('/', scheme + 3);
            t = slash < 0 ? "/" : t.substring(slash);
        }
        if (!t.startsWith("/")) {
            return "The request target must be a path that starts with /, not " + quoted(target) + ".";
        }
        int query = t.indexOf('?');
        String path = query < 0 ? t : t.substring(0, query);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (!urlChar(c)) {
                return "The request target " + quoted(target) + " holds a character a URL cannot: " + quoted(String.valueOf(c)) + ".";
            }
        }
        if (path.equals("/")) {
            return null;
        }
        for (String raw : path.substring(1).split("/", -1)) {
            String segment;
            try {
                segment = decode(raw);
            } catch (IllegalArgumentException e) {
                return "The path " + quoted(target) + " is not valid percent-encoded UTF-8.";
            }
            if (segment.equals(".") || segment.equals("..")) {
                return "The path " + quoted(target) + " holds a dot segment (. or ..), which no path here has.";
            }
            segments.add(segment);
        }
        if (!segments.isEmpty() && segments.get(segments.size() - 1).isEmpty()) {
            segments.remove(segments.size() - 1); // a trailing slash: /metrics/ is /metrics
        }
        return null;
    }

    /** RFC 3986's characters of a path and query: unreserved, sub-delims, ':', '@', '/', '?' and '%' of an escape. */
    private static boolean urlChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~!$&'()*+,;=:@/?%".indexOf(c) >= 0;
    }

    /** Percent-decodes one segment strictly: every % starts two hex digits, and the bytes are UTF-8. */
    private static String decode(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteBuffer bytes = ByteBuffer.allocate(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '%') {
                bytes.put((byte) c);
                continue;
            }
            if (i + 2 >= s.length()) {
                throw new IllegalArgumentException("a % without two hex digits");
            }
            int hi = Character.digit(s.charAt(i + 1), 16);
            int lo = Character.digit(s.charAt(i + 2), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("a % without two hex digits");
            }
            bytes.put((byte) (hi << 4 | lo));
            i += 2;
        }
        bytes.flip();
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes);
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("not UTF-8");
        }
    }

    /**
     * {@code s} in single quotes for a message, cut at {@link #QUOTED} characters, with every
     * character outside printable ASCII as a %XX escape (of its UTF-8 bytes): what a client sent
     * never reaches a terminal or a page raw.
     */
    static String quoted(String s) {
        StringBuilder b = new StringBuilder("'");
        int shown = 0;
        for (int i = 0; i < s.length() && shown < QUOTED; i++, shown++) {
            char c = s.charAt(i);
            if (c >= 0x21 && c <= 0x7e && c != '\'') {
                b.append(c);
            } else {
                for (byte x : String.valueOf(c).getBytes(c < 0x100 ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8)) {
                    b.append('%').append(Character.toUpperCase(Character.forDigit((x >> 4) & 15, 16)))
                            .append(Character.toUpperCase(Character.forDigit(x & 15, 16)));
                }
            }
        }
        if (s.length() > QUOTED) {
            b.append("...");
        }
        return b.append('\'').toString();
    }
}
