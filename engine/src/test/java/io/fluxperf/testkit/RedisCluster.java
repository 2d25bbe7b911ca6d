package io.fluxperf.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A real redis Cluster on loopback ports, as STACK.md describes: redis-server nodes with
 * {@code --cluster-enabled yes --cluster-config-file nodes.conf --save '' --appendonly no} (each
 * with its bus on a free port of its own), joined by {@code redis-cli --cluster create …
 * --cluster-replicas N --cluster-yes}; {@link #start} returns once every node says
 * {@code cluster_state:ok} and knows every other, and every replica is in sync. A cluster takes a
 * few seconds to start: a test class shares one. Helpers read the slot map and move a slot from
 * one master to another as {@code redis-cli --cluster reshard} does.
 */
public final class RedisCluster implements AutoCloseable {
    private final List<RedisProcess> masters;
    private final List<RedisProcess> replicas;

    private RedisCluster(List<RedisProcess> masters, List<RedisProcess> replicas) {
        this.masters = masters;
        this.replicas = replicas;
    }

    /** {@code masters} masters, each with {@code replicasEach} replicas (a node timeout of 15 s: no failover in a test's time). */
    public static RedisCluster start(int masters, int replicasEach) {
        return start(masters, replicasEach, 15_000);
    }

    /**
     * As {@link #start(int, int)} with {@code cluster-node-timeout} of {@code nodeTimeoutMillis}: a
     * master unreachable that long is failed, and a replica of it promoted a second or so later.
     */
    public static RedisCluster start(int masters, int replicasEach, int nodeTimeoutMillis) {
        List<RedisProcess> nodes = new ArrayList<>();
        try {
            int count = masters * (1 + replicasEach);
            for (int i = 0; i < count; i++) {
                // the bus on a port of its own: port + 10000 may be taken or beyond 65535
                nodes.add(RedisProcess.startOn(FreePorts.tcp(), null, "--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf", "--cluster-port", Integer.toString(FreePorts.tcp()),
                        "--cluster-node-timeout", Integer.toString(nodeTimeoutMillis)));
            }
            List<String> create = new ArrayList<>(List.of(ExternalServer.executable("redis-cli"), "--cluster", "create"));
            nodes.forEach(n -> create.add(n.address()));
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasEach), "--cluster-yes"));
            run(create, Duration.ofSeconds(60));
            RedisCluster cluster = new RedisCluster(new ArrayList<>(), new ArrayList<>());
            // a busy machine (other builds) makes the nodes slow to agree: wait for the state, never a fixed time
            Awaitility.await("cluster_state:ok on every node").atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(100)).until(() -> nodes.stream().allMatch(n -> ready(n, count)));
            for (RedisProcess n : nodes) {
                String role = RedisProcess.Client.fields(n.info("replication")).get("role");
                ("master".equals(role) ? cluster.masters : cluster.replicas).add(n);
            }
            if (!cluster.replicas.isEmpty()) {
                Awaitility.await("replicas in sync").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                        .until(() -> cluster.replicas.stream().allMatch(r ->
                                "up".equals(RedisProcess.Client.fields(r.info("replication")).get("master_link_status"))));
            }
            return cluster;
        } catch (RuntimeException e) {
            nodes.forEach(RedisProcess::close);
            throw e;
        }
    }

    private static boolean ready(RedisProcess n, int count) {
        Map<String, String> info = RedisProcess.Client.fields((String) n.command("CLUSTER", "INFO"));
        return "ok".equals(info.get("cluster_state")) && Integer.toString(count).equals(info.get("cluster_known_nodes"));
    }

    private static void run(List<String> command, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException(command + " failed: " + new String(output, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public List<RedisProcess> masters() {
        return masters;
    }

    public List<RedisProcess> replicas() {
        return replicas;
    }

    /** Every node, masters first. */
    public List<RedisProcess> nodes() {
        List<RedisProcess> all = new ArrayList<>(masters);
        all.addAll(replicas);
        return all;
    }

    /** {@code --server} for fluxperf: the first master. */
    public String seed() {
        return masters.get(0).address();
    }

    /** The slot of {@code key}, as the cluster computes it (CLUSTER KEYSLOT). */
    public int keyslot(String key) {
        return ((Long) masters.get(0).command("CLUSTER", "KEYSLOT", key)).intValue();
    }

    /** The master that serves {@code slot} now, by CLUSTER SLOTS as {@code node} sees it. */
    public RedisProcess ownerOf(int slot, RedisProcess node) {
        @SuppressWarnings("unchecked")
        List<Object> ranges = (List<Object>) node.command("CLUSTER", "SLOTS");
        for (Object range : ranges) {
            List<?> r = (List<?>) range;
            if ((Long) r.get(0) <= slot && slot <= (Long) r.get(1)) {
                long port = (Long) ((List<?>) r.get(2)).get(1);
                return nodes().stream().filter(m -> m.port() == port).findFirst().orElseThrow();
            }
        }
        throw new IllegalStateException("no node serves slot " + slot);
    }

    /** The replica whose master is {@code master} (the first, by INFO replication's master_port). */
    public RedisProcess replicaOf(RedisProcess master) {
        return replicas.stream().filter(r -> Integer.toString(master.port()).equals(
                        RedisProcess.Client.fields(r.info("replication")).get("master_port")))
                .findFirst().orElseThrow(() -> new IllegalStateException("no replica of " + master.address()));
    }

    /** Whether {@code node} says in CLUSTER NODES that it is a master now (its own line's flags: myself,master). */
    public static boolean saysMaster(RedisProcess node) {
        String nodes = (String) node.command("CLUSTER", "NODES");
        for (String line : nodes.split("\n")) {
            String[] f = line.split(" ");
            if (f.length > 2 && f[2].contains("myself")) {
                return f[2].contains("master");
            }
        }
        throw new IllegalStateException("CLUSTER NODES of " + node.address() + " has no myself line: " + nodes);
    }

    /** The slots {@code master} serves, as [first, last] of each range, by CLUSTER SLOTS as {@code node} sees it. */
    public List<long[]> slotsOf(RedisProcess master, RedisProcess node) {
        @SuppressWarnings("unchecked")
        List<Object> ranges = (List<Object>) node.command("CLUSTER", "SLOTS");
        List<long[]> out = new ArrayList<>();
        for (Object range : ranges) {
            List<?> r = (List<?>) range;
            if ((Long) ((List<?>) r.get(2)).get(1) == master.port()) {
                out.add(new long[] {(Long) r.get(0), (Long) r.get(1)});
            }
        }
        return out;
    }

    /** The node's cluster id. */
    public static String id(RedisProcess node) {
        return ((String) node.command("CLUSTER", "MYID")).trim();
    }

    /** Marks {@code slot} as moving from {@code from} to {@code to}: IMPORTING on the target, then MIGRATING on the source. */
    public void beginMove(int slot, RedisProcess from, RedisProcess to) {
        expectOk(to.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", id(from)));
        expectOk(from.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", id(to)));
    }

    /** The keys of {@code slot} that {@code node} holds (at most 1000). */
    @SuppressWarnings("unchecked")
    public List<String> keysIn(int slot, RedisProcess node) {
        return (List<String>) node.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "1000");
    }

    /** MIGRATE one key from {@code from} to {@code to}. */
    public void migrate(String key, RedisProcess from, RedisProcess to) {
        Object reply = from.command("MIGRATE", "127.0.0.1", Integer.toString(to.port()), key, "0", "5000");
        if (!(reply instanceof RedisProcess.Simple)) {
            throw new IllegalStateException("MIGRATE " + key + " answered " + reply);
        }
    }

    /** Ends a move: the slot belongs to {@code to}, told to the target first, then the source, then every other master. */
    public void endMove(int slot, RedisProcess from, RedisProcess to) {
        String target = id(to);
        expectOk(to.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", target));
        expectOk(from.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", target));
        for (RedisProcess m : masters) {
            if (m != from && m != to) {
                expectOk(m.command("CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", target));
            }
        }
    }

    /** FLUSHALL on every master. */
    public void flushAll() {
        masters.forEach(m -> m.command("FLUSHALL"));
    }

    private static void expectOk(Object reply) {
        if (!new RedisProcess.Simple("OK").equals(reply)) {
            throw new IllegalStateException("CLUSTER SETSLOT answered " + reply);
        }
    }

    @Override
    public void close() {
        nodes().forEach(RedisProcess::close);
    }
}
