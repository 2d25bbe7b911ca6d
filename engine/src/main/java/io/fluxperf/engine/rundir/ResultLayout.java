package io.fluxperf.engine.rundir;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxperf.engine.UserError;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * result.json checked field by field against its layout (docs/results.md) when a run directory is
 * opened, so that every view reads figures it can trust: a count is a whole number of at least 0,
 * a window's requests are the sum of its outcomes (invariant 1), a field a view needs is there. A
 * damaged file is one sentence naming the file and the field ({@link UserError}, exit 2), where
 * the views' lenient reads would have printed zeros or thrown.
 *
 * <p>Fields the views need are required; the others are checked for their type when present, so
 * that a directory written before a field was added still reads.
 */
final class ResultLayout {
    private static final String[] OUTCOMES = {"ok", "miss", "error", "timeout", "closed"};
    private static final String[] SUMMARY = {"count", "min", "max", "mean", "stddev", "p50", "p90", "p99", "p999", "p9999"};

    private final Path file;

    private ResultLayout(Path file) {
        this.file = file;
    }

    /**
     * Checks {@code root}, the parsed result.json at {@code file} (its "format" already checked).
     *
     * @throws UserError naming the file and the first field that is missing or wrong
     */
    static void check(Path file, JsonNode root) {
        new ResultLayout(file).top(root);
    }

    private void top(JsonNode r) {
        text(r, "", "command", false);
        text(r, "", "configHash", false);
        integer(r, "", "startEpochMs", true, 0);
        integer(r, "", "endEpochMs", true, 0);
        text(r, "", "stopReason", true);
        nullOr(r, "", "target", JsonNode::isTextual, "text");
        count(r, "", "preloadedKeys", false);
        nullOr(r, "", "warmup", JsonNode::isObject, "an object");
        nullOr(r, "", "error", JsonNode::isTextual, "text");
        nullOr(r, "", "mergedFrom", JsonNode::isArray, "a list");
        nullOr(r, "", "shard", JsonNode::isObject, "an object");
        JsonNode config = r.get("config");
        int workloads = -1;
        if (config != null) {
            expect(config.isObject(), "config", config, "an object");
            JsonNode list = config.get("workloads");
            if (list != null) {
                expect(list.isArray(), "config.workloads", list, "a list");
                workloads = list.size();
            }
        }
        JsonNode windows = required(r, "", "windows");
        expect(windows.isArray(), "windows", windows, "a list of windows");
        Set<Integer> numbers = new HashSet<>();
        for (int i = 0; i < windows.size(); i++) {
            window(windows.get(i), "windows[" + i + "]", workloads);
            numbers.add(windows.get(i).get("number").asInt());
        }
        JsonNode total = required(r, "", "total");
        window(total, "total", workloads);
        JsonNode intervals = r.get("intervals");
        if (intervals != null) {
            expect(intervals.isArray(), "intervals", intervals, "a list");
            for (int i = 0; i < intervals.size(); i++) {
                expect(intervals.get(i).isObject(), "intervals[" + i + "]", intervals.get(i), "an object");
            }
        }
        JsonNode events = r.get("events");
        if (events != null) {
            expect(events.isArray(), "events", events, "a list");
            for (int i = 0; i < events.size(); i++) {
                event(events.get(i), "events[" + i + "]", numbers, intervals == null ? 0 : intervals.size());
            }
        }
        JsonNode errors = r.get("errors");
        if (errors != null && !errors.isNull()) {
            expect(errors.isObject(), "errors", errors, "an object or null");
            count(errors, "errors", "protocol", false);
            count(errors, "errors", "connection", false);
            count(errors, "errors", "request", false);
            text(errors, "errors", "hint", false);
            JsonNode messages = errors.get("messages");
            if (messages != null) {
                expect(messages.isObject(), "errors.messages", messages, "an object");
                messages.fieldNames().forEachRemaining(m -> count(messages, "errors.messages", m, true));
            }
        }
        JsonNode trace = r.get("trace");
        if (trace != null && !trace.isNull()) {
            expect(trace.isObject(), "trace", trace, "an object or null");
            count(trace, "trace", "records", false);
            count(trace, "trace", "lost", false);
            text(trace, "trace", "directory", false);
        }
    }

    private void window(JsonNode w, String at, int workloads) {
        expect(w.isObject(), at, w, "a window (an object)");
        count(w, at, "number", true);
        integer(w, at, "start", true, Long.MIN_VALUE);
        integer(w, at, "end", true, Long.MIN_VALUE);
        number(w, at, "seconds", true);
        long requests = outcomes(w, at);
        number(w, at, "rate", false);
        nullOr(w, at, "successPercent", JsonNode::isNumber, "a number");
        nullOr(w, at, "hitratePercent", JsonNode::isNumber, "a number");
        summary(w, at, "latency", true);
        summary(w, at, "service", true);
        summary(w, at, "sendLag", false);
        summary(w, at, "connectLatency", false);
        count(w, at, "bytesSent", false);
        count(w, at, "bytesReceived", false);
        nullOr(w, at, "cpuNanos", JsonNode::isIntegralNumber, "a whole number");
        nullOr(w, at, "cpuNanosPerRequest", JsonNode::isNumber, "a number");
        nullOr(w, at, "busiestLoadThreadCpuShare", JsonNode::isNumber, "a number");
        number(w, at, "connectRate", false);
        counts(w, at, "connections");
        counts(w, at, "tcp");
        counts(w, at, "redirects");
        JsonNode classes = w.get("replyClasses");
        if (classes != null && !classes.isNull()) {
            counts(w, at, "replyClasses");
        }
        JsonNode loops = w.get("loopCpuNanos");
        if (loops != null) {
            expect(loops.isArray(), at + ".loopCpuNanos", loops, "a list");
            for (int i = 0; i < loops.size(); i++) {
                expect(loops.get(i).isIntegralNumber(), at + ".loopCpuNanos[" + i + "]", loops.get(i), "a whole number");
            }
        }
        JsonNode list = required(w, at, "workloads");
        expect(list.isArray(), at + ".workloads", list, "a list of workloads");
        if (workloads >= 0 && list.size() != workloads) {
            throw new UserError(file + ": " + at + ".workloads holds " + list.size() + " workloads, and config.workloads "
                    + workloads);
        }
        long sum = 0;
        for (int i = 0; i < list.size(); i++) {
            String wat = at + ".workloads[" + i + "]";
            JsonNode wl = list.get(i);
            expect(wl.isObject(), wat, wl, "a workload (an object)");
            text(wl, wat, "name", true);
            sum += outcomes(wl, wat);
            number(wl, wat, "rate", false);
            number(wl, wat, "targetRate", false);
            nullOr(wl, wat, "hitratePercent", JsonNode::isNumber, "a number");
            summary(wl, wat, "latency", false);
            summary(wl, wat, "service", false);
            count(wl, wat, "bytesSent", false);
            count(wl, wat, "bytesReceived", false);
        }
        if (!list.isEmpty() && sum != requests) {
            throw new UserError(file + ": the requests of " + at + ".workloads add up to " + sum + ", and " + at
                    + ".requests is " + requests);
        }
        JsonNode servers = w.get("servers");
        if (servers != null) {
            expect(servers.isArray(), at + ".servers", servers, "a list");
            for (int i = 0; i < servers.size(); i++) {
                String sat = at + ".servers[" + i + "]";
                expect(servers.get(i).isObject(), sat, servers.get(i), "an object");
                text(servers.get(i), sat, "server", true);
                outcomes(servers.get(i), sat);
            }
        }
    }

    /** The five outcomes and requests, their sum: each a count, and requests their sum (invariant 1). */
    private long outcomes(JsonNode n, String at) {
        long sum = 0;
        for (String o : OUTCOMES) {
            sum += count(n, at, o, true);
        }
        long requests = count(n, at, "requests", true);
        if (requests != sum) {
            throw new UserError(file + ": " + field(at, "requests") + " is " + requests + ", and its outcomes (ok, miss,"
                    + " error, timeout, closed) add up to " + sum);
        }
        return requests;
    }

    private void event(JsonNode e, String at, Set<Integer> windows, int intervals) {
        expect(e.isObject(), at, e, "an object");
        String name = text(e, at, "event", true);
        if (name.equals("window")) {
            long n = count(e, at, "number", true);
            if (!windows.contains((int) n)) {
                throw new UserError(file + ": " + at + " reports window " + n + ", and windows holds no window " + n);
            }
        } else if (name.equals("stats")) {
            long i = count(e, at, "interval", true);
            if (i >= intervals) {
                throw new UserError(file + ": " + at + " reports statistics block " + i + ", and intervals holds "
                        + intervals);
            }
        }
    }

    private void summary(JsonNode n, String at, String name, boolean required) {
        JsonNode s = required ? required(n, at, name) : n.get(name);
        if (s == null || s.isNull() && !required) {
            return;
        }
        String sat = field(at, name);
        expect(s.isObject(), sat, s, "a latency summary (an object)");
        for (String k : SUMMARY) {
            JsonNode v = s.get(k);
            if (v != null) {
                expect(v.isNumber() && v.asDouble() >= 0, sat + "." + k, v, "a latency in ns (0 or more)");
            }
        }
    }

    /** An optional object whose every field is a count. */
    private void counts(JsonNode n, String at, String name) {
        JsonNode o = n.get(name);
        if (o == null) {
            return;
        }
        String oat = field(at, name);
        expect(o.isObject(), oat, o, "an object");
        o.fieldNames().forEachRemaining(k -> count(o, oat, k, true));
    }

    private long count(JsonNode n, String at, String name, boolean required) {
        JsonNode v = required ? required(n, at, name) : n.get(name);
        if (v == null) {
            return 0;
        }
        expect(v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 0, field(at, name), v,
                "a count (a whole number, 0 or more)");
        return v.asLong();
    }

    private void integer(JsonNode n, String at, String name, boolean required, long min) {
        JsonNode v = required ? required(n, at, name) : n.get(name);
        if (v != null) {
            expect(v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= min, field(at, name), v,
                    min == 0 ? "a whole number, 0 or more" : "a whole number");
        }
    }

    private void number(JsonNode n, String at, String name, boolean required) {
        JsonNode v = required ? required(n, at, name) : n.get(name);
        if (v != null) {
            expect(v.isNumber() && Double.isFinite(v.asDouble()) && v.asDouble() >= 0, field(at, name), v,
                    "a number, 0 or more");
        }
    }

    private String text(JsonNode n, String at, String name, boolean required) {
        JsonNode v = required ? required(n, at, name) : n.get(name);
        if (v == null) {
            return "";
        }
        expect(v.isTextual(), field(at, name), v, "text");
        return v.asText();
    }

    private void nullOr(JsonNode n, String at, String name, java.util.function.Predicate<JsonNode> kind, String what) {
        JsonNode v = n.get(name);
        if (v != null && !v.isNull()) {
            expect(kind.test(v), field(at, name), v, what + " or null");
        }
    }

    private JsonNode required(JsonNode n, String at, String name) {
        JsonNode v = n.get(name);
        if (v == null || v.isNull()) {
            throw new UserError(file + ": " + field(at, name) + (v == null ? " is missing" : " is null")
                    + "; the file is damaged or was not written by fluxperf");
        }
        return v;
    }

    private void expect(boolean ok, String field, JsonNode value, String what) {
        if (!ok) {
            String shown = value.toString();
            if (shown.length() > 40) {
                shown = shown.substring(0, 37) + "...";
            }
            throw new UserError(file + ": " + field + " is " + shown + ", not " + what);
        }
    }

    private static String field(String at, String name) {
        return at.isEmpty() ? name : at + "." + name;
    }
}
