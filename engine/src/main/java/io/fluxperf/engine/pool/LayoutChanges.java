package io.fluxperf.engine.pool;

import io.fluxperf.engine.protocol.ClusterLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What changed between two maps of a cluster, as the report says it: which node took which slots
 * from which ({@code 127.0.0.1:7005 took slots 10,923-16,383 from 127.0.0.1:7002}, a failover or a
 * resharding), which node became a replica, joined or left the map. Nodes are named by HOST:PORT;
 * slots are grouped into ranges.
 */
final class LayoutChanges {
    /** A change lists at most this many ranges of slots; more are counted. */
    static final int LISTED_RANGES = 3;

    private LayoutChanges() {
    }

    static List<String> between(ClusterLayout before, ClusterLayout after) {
        List<String> out = new ArrayList<>();
        Map<List<String>, List<int[]>> moves = new LinkedHashMap<>();
        int shards = Math.min(before.masters().length, after.masters().length);
        for (int s = 0; s < shards; s++) {
            String was = name(before, before.masters()[s]);
            String now = name(after, after.masters()[s]);
            if (Objects.equals(was, now)) {
                continue;
            }
            List<int[]> ranges = moves.computeIfAbsent(java.util.Arrays.asList(was, now), k -> new ArrayList<>());
            int[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last[1] == s - 1) {
                last[1] = s;
            } else {
                ranges.add(new int[] {s, s});
            }
        }
        for (Map.Entry<List<String>, List<int[]>> e : moves.entrySet()) {
            String was = e.getKey().get(0);
            String now = e.getKey().get(1);
            String slots = slots(e.getValue());
            if (now == null) {
                out.add(slots + " without a master in the map (was " + was + ")");
            } else if (was == null) {
                out.add(now + " took " + slots);
            } else {
                out.add(now + " took " + slots + " from " + was);
            }
        }
        Map<String, Boolean> wasReplica = roles(before);
        Map<String, Boolean> isReplica = roles(after);
        for (Map.Entry<String, Boolean> n : isReplica.entrySet()) {
            Boolean was = wasReplica.get(n.getKey());
            if (was == null) {
                out.add(n.getKey() + " joined" + (n.getValue() ? " as a replica" : ""));
            } else if (!was && n.getValue()) {
                out.add(n.getKey() + " is a replica now");
            } else if (was && !n.getValue() && moves.keySet().stream().noneMatch(k -> n.getKey().equals(k.get(1)))) {
                out.add(n.getKey() + " is a master now");
            }
        }
        for (String gone : wasReplica.keySet()) {
            if (!isReplica.containsKey(gone)) {
                out.add(gone + " left the map");
            }
        }
        return out;
    }

    private static String name(ClusterLayout layout, int node) {
        return node < 0 ? null : layout.nodes().get(node).address();
    }

    private static Map<String, Boolean> roles(ClusterLayout layout) {
        Map<String, Boolean> m = new LinkedHashMap<>();
        for (ClusterLayout.ClusterNode n : layout.nodes()) {
            m.put(n.address(), n.replica());
        }
        return m;
    }

    /** {@code slot 42}, {@code slots 0-5,460}, {@code slots 0-99, 200-300}, or {@code 3,000 slots in 12 ranges}. */
    static String slots(List<int[]> ranges) {
        if (ranges.size() == 1 && ranges.get(0)[0] == ranges.get(0)[1]) {
            return "slot " + group(ranges.get(0)[0]);
        }
        if (ranges.size() > LISTED_RANGES) {
            long count = ranges.stream().mapToLong(r -> r[1] - r[0] + 1L).sum();
            return group(count) + " slots in " + ranges.size() + " ranges";
        }
        StringBuilder b = new StringBuilder("slots ");
        for (int i = 0; i < ranges.size(); i++) {
            int[] r = ranges.get(i);
            b.append(i == 0 ? "" : ", ").append(group(r[0]));
            if (r[1] != r[0]) {
                b.append('-').append(group(r[1]));
            }
        }
        return b.toString();
    }

    private static String group(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
