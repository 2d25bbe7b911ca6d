package io.fluxperf.engine.pool;

import io.fluxperf.engine.config.PoolOptions;
import io.fluxperf.engine.config.ReadFrom;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.ServerDistribution;
import io.fluxperf.engine.config.ServerSpec;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.protocol.ClusterLayout;
import io.fluxperf.engine.protocol.ClusterProtocol;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The servers of one run with more than one: a pool whose keys are placed by libmemcached's
 * ketama or modula, or a cluster's nodes, read from a seed's slot map. Made once per run on the
 * run's thread (a cluster's map is read there, blocking), shared by the load threads, each of
 * which places its requests through a {@link PoolRouter} of its own.
 */
public final class ServerPool implements AutoCloseable {
    private final List<PoolMember> members;
    private final int[] anyMembers;
    private final KetamaContinuum ketama;
    private final ClusterRouting cluster;
    private final boolean readsFromReplicas;
    private final String description;

    private ServerPool(List<PoolMember> members, KetamaContinuum ketama, ClusterRouting cluster, boolean readsFromReplicas,
                       String description) {
        this.members = List.copyOf(members);
        this.anyMembers = members.stream().filter(m -> !m.isReplica()).mapToInt(PoolMember::index).toArray();
        this.ketama = ketama;
        this.cluster = cluster;
        this.readsFromReplicas = readsFromReplicas;
        this.description = description;
    }

    /**
     * The pool {@code config} names, or null for a run against one server. Each server's codecs
     * are the protocol's for that server (an HTTP Host header names it); a cluster's nodes get the
     * protocol's cluster codecs.
     *
     * @throws io.fluxperf.engine.UserError for an address that does not resolve, or a cluster whose
     *                                      map cannot be read
     */
    public static ServerPool open(RunConfig config, Protocol protocol) {
        PoolOptions p = config.pool();
        if (!p.isPool()) {
            return null;
        }
        if (p.cluster()) {
            return openCluster(config, protocol);
        }
        List<PoolMember> members = new ArrayList<>();
        List<KetamaContinuum.Server> points = new ArrayList<>();
        for (String text : p.servers()) {
            ServerSpec spec = ServerSpec.parse(text);
            SocketAddress address = ServerAddress.parse(spec.address(), "--server");
            members.add(new PoolMember(members.size(), spec.address(), address, spec.weight(), null,
                    protocol.codecs(config.protocolOptions(), spec.address())));
            points.add(ketamaServer(spec, address));
        }
        KetamaContinuum ketama = p.distribution() == ServerDistribution.KETAMA ? KetamaContinuum.of(points) : null;
        String description = p.servers().stream().collect(Collectors.joining(", ")) + " (" + p.distribution().label() + ")";
        return new ServerPool(members, ketama, null, false, description);
    }

    /** How libmemcached names a server when it hashes it: the host as written, without IPv6 brackets; a socket's path with port 0. */
    static KetamaContinuum.Server ketamaServer(ServerSpec spec, SocketAddress address) {
        String a = spec.address();
        if (a.startsWith("unix:")) {
            return new KetamaContinuum.Server(a.substring("unix:".length()), 0, spec.weight());
        }
        int colon = a.lastIndexOf(':');
        String host = a.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = address instanceof InetSocketAddress inet ? inet.getPort() : Integer.parseInt(a.substring(colon + 1));
        return new KetamaContinuum.Server(host, port, spec.weight());
    }

    private static ServerPool openCluster(RunConfig config, Protocol protocol) {
        ClusterProtocol cp = protocol.cluster();
        List<String> seeds = config.pool().servers().stream().map(s -> ServerSpec.parse(s).address()).toList();
        for (String seed : seeds) {
            ServerAddress.parse(seed, "--server"); // a host that does not resolve is named as the flag's
        }
        Duration timeout = config.connectTimeout() != null ? config.connectTimeout()
                : Duration.ofMillis(Math.max(1000, Math.min(5000, config.timeout().toMillis() * 2)));
        ClusterLayout layout = cp.discover(seeds, config.protocolOptions(), timeout);
        boolean replicas = config.pool().readFrom() == ReadFrom.REPLICA;
        // every node gets connections, replicas too: a failover then finds the promoted replica's
        // connections open, and with --read-from replica every connection says READONLY first, so
        // that a master that comes back as a replica serves reads at once (READONLY is no-op on a master)
        CodecFactory codecs = cp.nodeCodecs(config.protocolOptions(), replicas);
        List<PoolMember> members = new ArrayList<>();
        int masterCount = 0;
        int replicaCount = 0;
        List<ClusterLayout.ClusterNode> bySlot = inSlotOrder(layout);
        for (boolean replica : new boolean[] {false, true}) {
            for (ClusterLayout.ClusterNode node : bySlot) {
                if (node.replica() == replica) {
                    members.add(new PoolMember(members.size(), node.address(),
                            ServerAddress.parse(node.address(), "--cluster"), 1, replica ? "replica" : "master", codecs));
                    if (replica) {
                        replicaCount++;
                    } else {
                        masterCount++;
                    }
                }
            }
        }
        ClusterRouting routing = new ClusterRouting(cp, config.protocolOptions(), timeout, seeds, members, layout);
        String description = "cluster of " + masterCount + " master" + (masterCount == 1 ? "" : "s")
                + (replicaCount > 0 ? " and " + replicaCount + " replica" + (replicaCount == 1 ? "" : "s") : "")
                + " (map from " + String.join(", ", seeds) + ")";
        return new ServerPool(members, null, routing, replicas, description);
    }

    /**
     * The layout's nodes in the order of the first slot each serves (the master of slot 0 first,
     * each replica after the masters in its master's place), so that reports list a cluster's nodes
     * the same way each run; nodes that serve no slot last.
     */
    static List<ClusterLayout.ClusterNode> inSlotOrder(ClusterLayout layout) {
        int n = layout.nodes().size();
        int[] first = new int[n];
        java.util.Arrays.fill(first, Integer.MAX_VALUE);
        for (int s = layout.masters().length - 1; s >= 0; s--) {
            if (layout.masters()[s] >= 0) {
                first[layout.masters()[s]] = s;
            }
            for (int r : layout.replicas()[s]) {
                first[r] = s;
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        order.sort(java.util.Comparator.comparingInt((Integer i) -> first[i]).thenComparing(i -> layout.nodes().get(i).address()));
        return order.stream().map(layout.nodes()::get).toList();
    }

    public List<PoolMember> members() {
        return members;
    }

    /** What the report calls these servers. */
    public String describe() {
        return description;
    }

    /** A cluster's nodes, which place keys and redirect themselves; null for a pool. */
    public ClusterRouting cluster() {
        return cluster;
    }

    /**
     * One load thread's queues over {@code memberSlots} (each member's connections on the thread);
     * a cluster hears through them when the thread loses a node ({@link MemberWatch}).
     */
    public ServerQueues newQueues(List<List<io.fluxperf.engine.connection.ConnectionSlot>> memberSlots, int pipeline) {
        return new ServerQueues(memberSlots, pipeline, cluster);
    }

    /** A cluster's changes of layout and slots without a master, for the run's windows; null for a pool. */
    public io.fluxperf.engine.load.RunAddendum topology() {
        return cluster != null ? cluster.topology() : null;
    }

    /** A new router for one load thread. */
    public PoolRouter newRouter() {
        KeyPlacement placement = cluster != null ? new ClusterPlacement(cluster, readsFromReplicas)
                : new HashPlacement(ketama, members.size());
        return new PoolRouter(placement, anyMembers, cluster);
    }

    /** The members a keyless request may go to (every server of a pool; a cluster's masters), and that a flush goes to. */
    public int[] writableMembers() {
        return anyMembers.clone();
    }

    @Override
    public void close() {
        if (cluster != null) {
            cluster.close();
        }
    }
}
