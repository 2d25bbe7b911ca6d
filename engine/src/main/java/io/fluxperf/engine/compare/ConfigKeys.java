package io.fluxperf.engine.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A config tree as flat keys ({@code general.rate}, {@code workload[1].method}) and where two runs' differ. */
public final class ConfigKeys {
    private ConfigKeys() {
    }

    /** The leaves of {@code tree}, keyed by their path, in the tree's order. */
    public static Map<String, String> flatten(JsonNode tree) {
        Map<String, String> out = new LinkedHashMap<>();
        flatten("", tree, out);
        return out;
    }

    private static void flatten(String path, JsonNode node, Map<String, String> out) {
        if (node == null || node.isMissingNode()) {
            return;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), e.getValue(), out);
            }
        } else if (node.isArray() && node.size() > 0 && node.get(0).isContainerNode()) {
            for (int i = 0; i < node.size(); i++) {
                flatten(path + "[" + i + "]", node.get(i), out);
            }
        } else {
            out.put(path, node.isTextual() ? node.asText() : node.toString());
        }
    }

    /**
     * The keys whose values are not the same in every run (absent counts as a value), in the order
     * they first appear, each with every run's value (null where absent).
     */
    public static List<Difference> differences(List<Map<String, String>> configs) {
        Map<String, Boolean> keys = new LinkedHashMap<>();
        configs.forEach(c -> c.keySet().forEach(k -> keys.put(k, true)));
        List<Difference> out = new ArrayList<>();
        for (String key : keys.keySet()) {
            List<String> values = new ArrayList<>();
            for (Map<String, String> c : configs) {
                values.add(c.get(key));
            }
            if (values.stream().anyMatch(v -> !Objects.equals(v, values.get(0)))) {
                out.add(new Difference(key, values));
            }
        }
        return out;
    }

    /** A config key whose value differs between runs: one value per run, null where the run lacks it. */
    public record Difference(String key, List<String> values) {
    }
}
