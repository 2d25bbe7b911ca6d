package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.metrics.TopologyFigures;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.protocol.ClusterLayout;
import io.fluxperf.engine.request.Command;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** What the report says of a cluster's changes and gaps, from made-up maps and times (no servers). */
class ClusterTopologyTest {
    private static final long S = 1_000_000_000L;

    /** Three masters A, B, C over the usual thirds; B's replica R (or, {@code failedOver}, R the master and B its replica). */
    private static ClusterLayout layout(boolean failedOver) {
        List<ClusterLayout.ClusterNode> nodes = List.of(new ClusterLayout.ClusterNode("a:1", false),
                new ClusterLayout.ClusterNode("b:2", failedOver), new ClusterLayout.ClusterNode("c:3", false),
                new ClusterLayout.ClusterNode("r:4", !failedOver));
        int[] masters = new int[16384];
        int[][] replicas = new int[16384][];
        Arrays.fill(replicas, new int[0]);
        for (int s = 0; s < masters.length; s++) {
            masters[s] = s <= 5460 ? 0 : s <= 10922 ? (failedOver ? 3 : 1) : 2;
            if (s > 5460 && s <= 10922) {
                replicas[s] = new int[] {failedOver ? 1 : 3};
            }
        }
        return new ClusterLayout(nodes, masters, replicas);
    }

    @Test
    void aFailoverIsOneNodeTakingTheSlotsOfAnother() {
        assertEquals(List.of("r:4 took slots 5,461-10,922 from b:2", "b:2 is a replica now"),
                LayoutChanges.between(layout(false), layout(true)));
        assertEquals(List.of(), LayoutChanges.between(layout(false), layout(false)));
    }

    @Test
    void oneSlotMovedAndManyRangesAreCounted() {
        ClusterLayout before = layout(false);
        int[] masters = before.masters().clone();
        masters[42] = 2;
        assertEquals(List.of("c:3 took slot 42 from a:1"),
                LayoutChanges.between(before, new ClusterLayout(before.nodes(), masters, before.replicas())));
        for (int s = 100; s < 110; s += 2) {
            masters[s] = 2;
        }
        assertEquals(List.of("c:3 took 6 slots in 6 ranges from a:1"),
                LayoutChanges.between(before, new ClusterLayout(before.nodes(), masters, before.replicas())));
    }

    @Test
    void aGapIsReportedInEveryWindowItOverlapsAndChangesOnce() {
        ClusterTopology t = new ClusterTopology();
        BitSet slots = new BitSet();
        slots.set(5461, 10923);
        t.change(3 * S, "b:2 unreachable");
        t.openGap("b:2", slots, 3 * S);
        int[] masters = new int[16384];
        boolean[] lost = {false, true, false, false};
        Arrays.fill(masters, 1);
        assertEquals(true, t.resolve(masters, lost, 4 * S), "B still owns its slots: open");

        TopologyFigures w3 = t.window(window(3, 2 * S, 4 * S)).topology();
        assertEquals("Topology: 1 change: b:2 unreachable; slot 5,461-10,922 without a master for 1.00 s so far", w3.line());

        Arrays.fill(masters, 3);
        t.change(5 * S + S / 2, "r:4 took slots 5,461-10,922 from b:2");
        t.change(5 * S + S / 4, "earlier, told later"); // a thread's loss told after a map read: kept in time order
        assertEquals(false, t.resolve(masters, lost, 5 * S + S / 2));
        TopologyFigures w4 = t.window(window(4, 4 * S, 6 * S)).topology();
        assertEquals("Topology: 2 changes: earlier, told later; r:4 took slots 5,461-10,922 from b:2; slot 5,461-10,922"
                + " without a master for 2.50 s", w4.line());
        TopologyFigures w5 = t.window(window(5, 6 * S, 8 * S)).topology();
        assertEquals("Topology: no change", w5.line());
        assertNull(w5.longestGap());

        TopologyFigures total = t.run(window(0, 2 * S, 8 * S)).topology();
        assertEquals(3, total.changes().size());
        assertEquals(5 * S / 2, total.longestGap().nanos());
    }

    private static WindowResult window(int number, long start, long end) {
        WindowResult empty = WindowResult.empty(number, start, List.of(WorkloadConfig.of(Command.GET)));
        return new WindowResult(number, start, end, empty.workloadConfigs(), empty.workloads(), empty.total(),
                empty.connections(), empty.sendLag(), empty.connectLatency(), 0, new long[0]);
    }
}
