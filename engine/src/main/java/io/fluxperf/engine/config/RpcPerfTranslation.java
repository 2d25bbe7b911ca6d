package io.fluxperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An rpc-perf config file turned into fluxperf's own layout, key by key: the fluxperf tree, where
 * each of its keys came from (so that a later problem names the rpc-perf key and line), a comment
 * per key saying what was mapped, and the notes for keys that change nothing in fluxperf.
 */
final class RpcPerfTranslation {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    final RpcPerfFormat format;
    final TomlConfigFile source;
    private final ObjectNode general = NODES.objectNode();
    private final List<ObjectNode> workloads = new ArrayList<>();
    private final Map<String, String> origins = new HashMap<>();
    private final Map<String, String> comments = new LinkedHashMap<>();
    private final List<String> workloadHeadings = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    RpcPerfTranslation(RpcPerfFormat format, TomlConfigFile source) {
        this.format = format;
        this.source = source;
    }

    /** Sets {@code [general] key} from the source key {@code from}, with what the mapping did. */
    void general(String key, Object value, String from, String comment) {
        general.set(key, node(value));
        origins.put("general." + key, from);
        comments.put("general." + key, comment);
    }

    boolean hasGeneral(String key) {
        return general.has(key);
    }

    /** A new {@code [[workload]]} from the source table {@code from}; returns its index. */
    int workload(String from, String heading) {
        workloads.add(NODES.objectNode());
        int i = workloads.size() - 1;
        origins.put("workload[" + i + "]", from);
        workloadHeadings.add(heading);
        return i;
    }

    void workload(int index, String key, Object value, String from, String comment) {
        workloads.get(index).set(key, node(value));
        String path = "workload[" + index + "]." + key;
        origins.put(path, from);
        if (comment != null) {
            comments.put(path, comment);
        }
    }

    int workloadCount() {
        return workloads.size();
    }

    /** A key that changes nothing in fluxperf: said when the file is used, and in {@code convert}'s output. */
    void note(String from, String sentence) {
        notes.add(source.place(from) + ": " + sentence);
    }

    List<String> notes() {
        return List.copyOf(notes);
    }

    /** The translated tree as a config file whose problems are placed in the source. */
    TomlConfigFile toConfigFile() {
        ObjectNode root = NODES.objectNode();
        root.set("general", general);
        ArrayNode list = root.putArray("workload");
        workloads.forEach(list::add);
        origins.putIfAbsent("general", "general");
        return TomlConfigFile.translated(source, root, new HashMap<>(origins));
    }

    /** fluxperf's own TOML for the same run, with a comment on every key it mapped. */
    String toToml() {
        StringBuilder out = new StringBuilder();
        out.append("# fluxperf config converted from ").append(source.name()).append(" (").append(format.label())
                .append(")\n");
        if (!notes.isEmpty()) {
            out.append("#\n# Notes: keys that fluxperf maps its own way, or that change nothing in it:\n");
            for (String n : notes) {
                out.append("#   ").append(n).append('\n');
            }
        }
        out.append("\n[general]\n");
        writeTable(out, general, "general.");
        for (int i = 0; i < workloads.size(); i++) {
            out.append("\n# ").append(workloadHeadings.get(i)).append('\n');
            out.append("[[workload]]\n");
            writeTable(out, workloads.get(i), "workload[" + i + "].");
        }
        return out.toString();
    }

    private void writeTable(StringBuilder out, ObjectNode table, String prefix) {
        List<String> lines = new ArrayList<>();
        int width = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = table.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String line = e.getKey() + " = " + toml(e.getValue());
            lines.add(line);
            width = Math.max(width, line.length());
        }
        int i = 0;
        for (Iterator<String> it = table.fieldNames(); it.hasNext(); i++) {
            String key = it.next();
            String line = lines.get(i);
            String comment = comment(prefix + key);
            out.append(line);
            if (comment != null) {
                out.append(" ".repeat(width - line.length() + 2)).append("# ").append(comment);
            }
            out.append('\n');
        }
    }

    /**
     * The comment of a key of the output: the rpc-perf key it came from, and what the mapping did
     * ("general.interval: each window"); only the latter for a default that no key gave.
     */
    private String comment(String path) {
        String from = origins.get(path);
        String what = comments.get(path);
        boolean sourced = from != null && !from.isEmpty() && !from.equals("general") && !from.equals("client")
                && !from.equals("target");
        if (!sourced) {
            return what;
        }
        return what == null ? from : from + ": " + what;
    }

    static String toml(JsonNode v) {
        if (v.isTextual()) {
            return quote(v.textValue());
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(item -> items.add(toml(item)));
            return "[" + String.join(", ", items) + "]";
        }
        if (v.isObject()) {
            List<String> items = new ArrayList<>();
            v.fields().forEachRemaining(e -> items.add(e.getKey() + " = " + toml(e.getValue())));
            return "{ " + String.join(", ", items) + " }";
        }
        if (v.isFloatingPointNumber()) {
            double d = v.doubleValue();
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.format(Locale.ROOT, "%.1f", d) : Double.toString(d);
        }
        return v.asText();
    }

    private static String quote(String s) {
        return TomlStrings.quote(s);
    }

    private static JsonNode node(Object value) {
        if (value instanceof JsonNode n) {
            return n;
        }
        if (value instanceof String s) {
            return NODES.textNode(s);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (value instanceof Double d) {
            return NODES.numberNode(d);
        }
        if (value instanceof List<?> list) {
            ArrayNode a = NODES.arrayNode();
            list.forEach(item -> a.add(node(item)));
            return a;
        }
        throw new IllegalArgumentException("no TOML value for " + value);
    }

    /** {@code [{ size = 64, weight = 8 }, …]}: fluxperf's weighted value sizes. */
    static ArrayNode weightedSizes(long[] sizes, long[] weights) {
        ArrayNode list = NODES.arrayNode();
        for (int i = 0; i < sizes.length; i++) {
            ObjectNode o = list.addObject();
            o.put("size", sizes[i]);
            o.put("weight", weights[i]);
        }
        return list;
    }
}
