package io.fluxperf.engine.pool;

import io.fluxperf.engine.protocol.ClusterLayout;
import io.fluxperf.engine.protocol.ClusterProtocol;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Redirect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cluster run's slot map, shared by its load threads: the layout read at the start and each one
 * read again after a node answered MOVED, as member indexes, with a generation number. A refresh
 * runs on a thread of its own (the read is blocking; never on an event loop), once per
 * generation: the MOVED replies of requests placed by the map that is being replaced ask for
 * nothing more, so a moved slot costs one read of the map, not one per reply.
 *
 * <p>The run connects to the nodes it found at the start: a node that a later map names and the
 * run has no connections to is counted ({@link #unknownNodes()}), and its keys end as errors.
 */
public final class ClusterRouting implements AutoCloseable {
    /** The map as member indexes; arrays read-only once published. */
    record Snapshot(long generation, int[] masters, int[][] replicas) {
    }

    private final ClusterProtocol protocol;
    private final ProtocolOptions options;
    private final Duration timeout;
    private final List<PoolMember> members;
    private final byte[][] memberNames;
    private final List<String> seeds;
    private volatile Snapshot snapshot;
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicLong refreshes = new AtomicLong();
    private final AtomicLong failedRefreshes = new AtomicLong();
    private final Set<String> unknown = ConcurrentHashMap.newKeySet();
    private volatile String lastFailure;
    private final ExecutorService refresher = Executors.newSingleThreadExecutor(task -> {
        Thread t = new Thread(task, "fluxperf-cluster-map");
        t.setDaemon(true);
        return t;
    });

    ClusterRouting(ClusterProtocol protocol, ProtocolOptions options, Duration timeout, List<String> seeds,
                   List<PoolMember> members, ClusterLayout first) {
        this.protocol = protocol;
        this.options = options;
        this.timeout = timeout;
        this.seeds = List.copyOf(seeds);
        this.members = List.copyOf(members);
        this.memberNames = new byte[members.size()][];
        for (int i = 0; i < members.size(); i++) {
            memberNames[i] = members.get(i).nameBytes();
        }
        this.snapshot = snapshotOf(first, 0);
    }

    ClusterProtocol protocol() {
        return protocol;
    }

    Snapshot snapshot() {
        return snapshot;
    }

    /** The member a redirect names, or -1 when the run has no connections to that node. Allocation-free. */
    public int memberOf(Redirect r) {
        for (int i = 0; i < memberNames.length; i++) {
            if (r.names(memberNames[i]) && !members.get(i).isReplica()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A node answered MOVED to a request placed by generation {@code seen} of the map: read the map
     * again, unless that generation is already replaced or being replaced.
     *
     * @param hint the node the redirect named, asked first (it owns the slot now)
     */
    public void requestRefresh(long seen, Redirect hint) {
        if (seen != snapshot.generation() || !refreshing.compareAndSet(false, true)) {
            return;
        }
        String first = hint != null ? hint.address() : null;
        refresher.execute(() -> refresh(seen, first));
    }

    private void refresh(long seen, String first) {
        try {
            Set<String> ask = new LinkedHashSet<>();
            if (first != null) {
                ask.add(first);
            }
            for (PoolMember m : members) {
                if (!m.isReplica()) {
                    ask.add(m.name());
                }
            }
            ask.addAll(seeds);
            ClusterLayout layout = protocol.discover(new ArrayList<>(ask), options, timeout);
            snapshot = snapshotOf(layout, seen + 1);
            refreshes.incrementAndGet();
        } catch (RuntimeException e) { // a UserError too: the old map stays
            failedRefreshes.incrementAndGet();
            lastFailure = e.getMessage();
        } finally {
            refreshing.set(false);
        }
    }

    private Snapshot snapshotOf(ClusterLayout layout, long generation) {
        int[] memberOfNode = new int[layout.nodes().size()];
        for (int n = 0; n < memberOfNode.length; n++) {
            ClusterLayout.ClusterNode node = layout.nodes().get(n);
            memberOfNode[n] = -1;
            for (int i = 0; i < members.size(); i++) {
                PoolMember m = members.get(i);
                if (m.name().equals(node.address()) && m.isReplica() == node.replica()) {
                    memberOfNode[n] = i;
                }
            }
        }
        int shards = layout.masters().length;
        int[] masters = new int[shards];
        int[][] replicas = new int[shards][];
        for (int s = 0; s < shards; s++) {
            int node = layout.masters()[s];
            masters[s] = node < 0 ? -1 : memberOfNode[node];
            if (node >= 0 && masters[s] < 0) {
                unknown.add(layout.nodes().get(node).address());
            }
            int[] r = layout.replicas()[s];
            replicas[s] = Arrays.stream(r).map(n -> memberOfNode[n]).filter(i -> i >= 0).toArray();
        }
        return new Snapshot(generation, masters, replicas);
    }

    /** Times the map was read again during the run. */
    public long refreshCount() {
        return refreshes.get();
    }

    /** Reads of the map that failed (the old map stayed), and why the last one failed (null: none did). */
    public long failedRefreshCount() {
        return failedRefreshes.get();
    }

    public String lastFailure() {
        return lastFailure;
    }

    /** Nodes that own slots in a later map but that the run has no connections to. */
    public List<String> unknownNodes() {
        return List.copyOf(unknown);
    }

    @Override
    public void close() {
        refresher.shutdownNow();
        try {
            refresher.awaitTermination(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
