package io.fluxperf.engine.pool;

import io.fluxperf.engine.protocol.ClusterLayout;
import io.fluxperf.engine.protocol.ClusterProtocol;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Redirect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cluster run's slot map, shared by its load threads: the layout read at the start and each one
 * read again, as member indexes, with a generation number. Every node of the map is a member with
 * connections of its own (replicas too, so that a failover finds the promoted replica's
 * connections open). The map is read again on a thread of its own (the read is blocking; never on
 * an event loop):
 * <ul>
 *   <li>after a MOVED, once per generation: the MOVED replies of requests placed by the map that
 *       is being replaced ask for nothing more, so a moved slot costs one read, not one per reply;</li>
 *   <li>when a load thread loses its last connection to a node ({@link MemberWatch}): when the
 *       node was a master, its slots go without a master (a gap, {@link ClusterTopology}), and the
 *       map is read every {@link #POLL_MILLIS} ms until a map names a master for them that the run
 *       reaches (its replica promoted), or the node answers again;</li>
 *   <li>when a lost node is reached again (it may have come back as a replica);</li>
 *   <li>every {@link #CHECK_MILLIS} ms, for changes nothing else shows.</li>
 * </ul>
 * Each map read that differs from the last is a change of the topology, in words
 * ({@link LayoutChanges}); so are a node lost and a node reached again.
 *
 * <p>The run connects to the nodes it found at the start: a node that a later map names and the
 * run has no connections to is counted ({@link #unknownNodes()}), and its keys end as errors.
 */
public final class ClusterRouting implements MemberWatch, AutoCloseable {
    /** While a gap is open, the map is read this often (ms): a failover is seen within this of the promotion. */
    static final long POLL_MILLIS = 100;
    /**
     * The map is also read this often (ms) whatever happens: a change that nothing else shows (a
     * master that came back as a replica, a manual failover caught half-way by a read) is taken
     * up within it. Such a read counts in {@link #refreshCount()} only when it finds a change.
     */
    static final long CHECK_MILLIS = 1_000;

    /**
     * The map as member indexes; arrays read-only once published.
     *
     * @param masterMembers the members that are masters of a shard, ascending (where keyless requests go)
     */
    record Snapshot(long generation, int[] masters, int[][] replicas, int[] masterMembers) {
    }

    private final ClusterProtocol protocol;
    private final ProtocolOptions options;
    private final Duration timeout;
    private final List<PoolMember> members;
    private final byte[][] memberNames;
    private final List<String> seeds;
    private volatile Snapshot snapshot;
    /** The layout of {@link #snapshot}, for telling what a new one changes; guarded by {@link #lock}. */
    private ClusterLayout layout;
    private final Object lock = new Object();
    /** Members some load thread has no connection to, by member; guarded by {@link #lock}. */
    private final boolean[] lost;
    private ScheduledFuture<?> polling;
    private final ClusterTopology topology = new ClusterTopology();
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicLong refreshes = new AtomicLong();
    private final AtomicLong failedRefreshes = new AtomicLong();
    private final Set<String> unknown = ConcurrentHashMap.newKeySet();
    private volatile String lastFailure;
    private volatile boolean closed;
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(task -> {
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
        this.lost = new boolean[members.size()];
        this.layout = first;
        this.snapshot = snapshotOf(first, 0);
        topology.roles(roles(first));
        refresher.scheduleWithFixedDelay(() -> read(null, false, true), CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }

    ClusterProtocol protocol() {
        return protocol;
    }

    Snapshot snapshot() {
        return snapshot;
    }

    /** What the run saw of the cluster's layout, cut into its windows. */
    ClusterTopology topology() {
        return topology;
    }

    /** The member a redirect names, or -1 when the run has no connections to that node. Allocation-free. */
    public int memberOf(Redirect r) {
        for (int i = 0; i < memberNames.length; i++) {
            if (r.names(memberNames[i])) {
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
        submit(() -> {
            try {
                read(first, true, false);
            } finally {
                refreshing.set(false);
            }
        });
    }

    @Override
    public void down(int member, long nanos) {
        synchronized (lock) {
            if (lost[member]) {
                return;
            }
            lost[member] = true;
            PoolMember m = members.get(member);
            topology.change(nanos, m.name() + " unreachable");
            BitSet served = new BitSet();
            int[] masters = snapshot.masters();
            for (int s = 0; s < masters.length; s++) {
                if (masters[s] == member) {
                    served.set(s);
                }
            }
            if (!served.isEmpty()) {
                topology.openGap(m.name(), served, nanos);
                startPolling();
            }
        }
    }

    @Override
    public void up(int member, long nanos) {
        synchronized (lock) {
            if (!lost[member]) {
                return;
            }
            lost[member] = false;
            topology.change(nanos, members.get(member).name() + " reachable again");
            if (!topology.resolve(snapshot.masters(), lost, nanos)) {
                stopPolling();
            }
        }
        submit(() -> read(null, false, false)); // it may have come back as a replica of the master that took its slots
    }

    /** Reads the map now and every {@link #POLL_MILLIS} ms until no gap is open. Under {@link #lock}. */
    private void startPolling() {
        if (polling == null && !closed) {
            polling = refresher.scheduleWithFixedDelay(() -> read(null, false, false), 0, POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void stopPolling() {
        if (polling != null) {
            polling.cancel(false);
            polling = null;
        }
    }

    private void submit(Runnable task) {
        if (!closed) {
            try {
                refresher.execute(task);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closed meanwhile: the run is over
            }
        }
    }

    /**
     * Reads the map, asking {@code first} (a redirect's node) first, then the nodes not lost, then
     * the seeds; publishes it when it differs (always after a MOVED, whose thread corrected its own
     * copy), and tells what changed. On the map's thread.
     *
     * @param check the periodic read ({@link #CHECK_MILLIS}): counted only when it finds a change
     */
    private void read(String first, boolean afterMoved, boolean check) {
        Set<String> ask = new LinkedHashSet<>();
        if (first != null) {
            ask.add(first);
        }
        synchronized (lock) {
            for (boolean replicas : new boolean[] {false, true}) {
                for (PoolMember m : members) {
                    if (!lost[m.index()] && m.isReplica() == replicas) {
                        ask.add(m.name());
                    }
                }
            }
        }
        ask.addAll(seeds);
        ClusterLayout read;
        try {
            read = protocol.discover(new ArrayList<>(ask), options, timeout);
        } catch (RuntimeException e) { // a UserError too: the old map stays
            if (!check) {
                failedRefreshes.incrementAndGet();
                lastFailure = e.getMessage();
            }
            return;
        }
        long now = System.nanoTime();
        synchronized (lock) {
            List<String> changes = LayoutChanges.between(layout, read);
            if (!check || !changes.isEmpty()) {
                refreshes.incrementAndGet();
            }
            if (!changes.isEmpty() || afterMoved) {
                layout = read;
                snapshot = snapshotOf(read, snapshot.generation() + 1);
                topology.roles(roles(read));
                for (String c : changes) {
                    topology.change(now, c);
                }
            }
            if (!topology.resolve(snapshot.masters(), lost, now)) {
                stopPolling();
            }
        }
    }

    private Snapshot snapshotOf(ClusterLayout l, long generation) {
        int[] memberOfNode = new int[l.nodes().size()];
        for (int n = 0; n < memberOfNode.length; n++) {
            ClusterLayout.ClusterNode node = l.nodes().get(n);
            memberOfNode[n] = -1;
            for (int i = 0; i < members.size(); i++) {
                if (members.get(i).name().equals(node.address())) {
                    memberOfNode[n] = i;
                }
            }
        }
        int shards = l.masters().length;
        int[] masters = new int[shards];
        int[][] replicas = new int[shards][];
        BitSet masterMembers = new BitSet();
        for (int s = 0; s < shards; s++) {
            int node = l.masters()[s];
            masters[s] = node < 0 ? -1 : memberOfNode[node];
            if (node >= 0 && masters[s] < 0) {
                unknown.add(l.nodes().get(node).address());
            }
            if (masters[s] >= 0) {
                masterMembers.set(masters[s]);
            }
            int[] r = l.replicas()[s];
            replicas[s] = Arrays.stream(r).map(n -> memberOfNode[n]).filter(i -> i >= 0).toArray();
        }
        return new Snapshot(generation, masters, replicas, masterMembers.stream().toArray());
    }

    /** Each node's role in {@code l}, by HOST:PORT. */
    private static Map<String, String> roles(ClusterLayout l) {
        Map<String, String> m = new HashMap<>();
        for (ClusterLayout.ClusterNode n : l.nodes()) {
            m.put(n.address(), n.replica() ? "replica" : "master");
        }
        return m;
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
        closed = true;
        synchronized (lock) {
            stopPolling();
        }
        refresher.shutdownNow();
        try {
            refresher.awaitTermination(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
