package io.fluxperf.engine.metrics;

import java.util.List;

/**
 * The per-server part of a window (or of the whole run) of a run with several servers or a
 * cluster: each server's figures, in the pool's order, and how often the cluster's slot map was
 * read again because a node answered MOVED.
 *
 * @param servers      one per pool member or cluster node
 * @param cluster      the servers are a cluster's nodes (the report shows redirects)
 * @param mapRefreshes times the cluster's layout was read again in the window
 */
public record PoolFigures(List<ServerStats> servers, boolean cluster, long mapRefreshes) {
    public PoolFigures {
        servers = List.copyOf(servers);
    }

    /** MOVED redirects over every server. */
    public long moved() {
        return servers.stream().mapToLong(ServerStats::moved).sum();
    }

    /** ASK redirects over every server. */
    public long ask() {
        return servers.stream().mapToLong(ServerStats::ask).sum();
    }

    /**
     * These figures with each server's role as {@code roles} says (by server name; a server it
     * does not name keeps its own): a cluster's roles at a window's end, after a failover.
     */
    public PoolFigures withRoles(java.util.Map<String, String> roles) {
        List<ServerStats> renamed = new java.util.ArrayList<>();
        for (ServerStats s : servers) {
            String role = roles.get(s.name());
            renamed.add(role == null || role.equals(s.role()) || s.isNotSent() ? s : s.withRole(role));
        }
        return new PoolFigures(renamed, cluster, mapRefreshes);
    }

    /** A read-only copy whose histograms are kept encoded. */
    public PoolFigures kept() {
        return new PoolFigures(servers.stream().map(ServerStats::kept).toList(), cluster, mapRefreshes);
    }

    /** These figures with {@code other}'s added, server by server. */
    public PoolFigures plus(PoolFigures other) {
        List<ServerStats> sum = new java.util.ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            ServerStats s = servers.get(i).copy();
            if (i < other.servers.size()) {
                s.add(other.servers.get(i));
            }
            sum.add(s);
        }
        return new PoolFigures(sum, cluster, mapRefreshes + other.mapRefreshes);
    }
}
