package io.fluxperf.engine.protocol.resp.cluster;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.ClusterLayout;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a redis Cluster's slot map from the first of a list of nodes that answers: {@code CLUSTER
 * SHARDS} (redis 7, which names masters without slots too), or {@code CLUSTER SLOTS} where that
 * command is unknown. A plain blocking socket with timeouts, authenticated with the run's
 * password: called on the run's thread before the load, and on the cluster map's own thread after
 * a MOVED, never on an event loop.
 */
public final class ClusterDiscovery {
    private ClusterDiscovery() {
    }

    /** An error reply. */
    record Err(String message) {
    }

    /**
     * @param seeds HOST:PORT of the nodes to ask, in order
     * @throws UserError when none answers, or one answers that it is no cluster node
     */
    public static ClusterLayout read(List<String> seeds, String user, String password, Duration timeout) {
        List<String> failures = new ArrayList<>();
        for (String seed : seeds) {
            try {
                return readFrom(seed, user, password, timeout);
            } catch (IOException e) {
                failures.add(seed + ": " + describe(e));
            }
        }
        throw new UserError("--cluster: no node answered to give the slot map (" + String.join("; ", failures) + ")");
    }

    private static String describe(IOException e) {
        if (e instanceof SocketTimeoutException) {
            return "no answer within the connect timeout";
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.toLowerCase(java.util.Locale.ROOT);
    }

    private static ClusterLayout readFrom(String seed, String user, String password, Duration timeout) throws IOException {
        HostPort at = HostPort.parse(seed);
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(at.host(), at.port()), millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            if (password != null) {
                Object auth = command(in, out, user != null ? new String[] {"AUTH", user, password}
                        : new String[] {"AUTH", password});
                if (auth instanceof Err e) {
                    throw new UserError("--password: the cluster node " + seed + " refused AUTH: " + e.message());
                }
            }
            Object shards = command(in, out, "CLUSTER", "SHARDS");
            if (shards instanceof Err e && e.message().toLowerCase(java.util.Locale.ROOT).contains("unknown")) {
                Object slots = command(in, out, "CLUSTER", "SLOTS");
                return checked(seed, slots instanceof Err se ? se : fromSlots(slots, at.host()), "CLUSTER SLOTS");
            }
            return checked(seed, shards instanceof Err e ? e : fromShards(shards, at.host()), "CLUSTER SHARDS");
        }
    }

    private static ClusterLayout checked(String seed, Object parsed, String asked) {
        if (parsed instanceof Err e) {
            String said = e.message().endsWith(".") ? e.message() : e.message() + ".";
            if (e.message().contains("cluster support disabled")) {
                throw new UserError("--cluster: " + seed + " is not a redis Cluster node (it answered " + asked + " with: "
                        + said + ")");
            }
            if (e.message().startsWith("NOAUTH")) {
                throw new UserError("--password: the cluster node " + seed + " requires a password (it answered " + asked
                        + " with: " + said + ")");
            }
            throw new UserError("--cluster: " + seed + " answered " + asked + " with: " + said);
        }
        ClusterLayout layout = (ClusterLayout) parsed;
        if (Arrays.stream(layout.masters()).allMatch(m -> m < 0)) {
            throw new UserError("--cluster: " + seed + " belongs to a cluster with no slot assigned to any node yet");
        }
        return layout;
    }

    /** {@code CLUSTER SHARDS}: per shard ["slots", [start, end, …], "nodes", [[key, value, …], …]]. */
    private static Object fromShards(Object reply, String seedHost) throws IOException {
        Builder b = new Builder();
        for (Object shard : list(reply)) {
            Map<String, Object> fields = pairs(shard);
            List<Object> ranges = list(fields.get("slots"));
            int master = -1;
            List<Integer> copies = new ArrayList<>();
            for (Object n : list(fields.get("nodes"))) {
                Map<String, Object> node = pairs(n);
                String host = text(node.get("endpoint"));
                if (host == null || host.isEmpty() || host.equals("?")) {
                    host = text(node.get("ip"));
                }
                String address = address(host, seedHost, number(node.get("port")));
                boolean replica = !"master".equals(text(node.get("role")));
                String health = text(node.get("health"));
                if (replica && "fail".equals(health)) {
                    continue; // a failed replica serves no reads (redis 7.0 says "loading" of a replica that got no write yet: it serves)
                }
                int index = b.node(address, replica);
                if (replica) {
                    copies.add(index);
                } else {
                    master = index;
                }
            }
            for (int i = 0; i + 1 < ranges.size(); i += 2) {
                b.assign((int) number(ranges.get(i)), (int) number(ranges.get(i + 1)), master, copies);
            }
        }
        return b.build();
    }

    /** {@code CLUSTER SLOTS}: per range [start, end, [ip, port, id, …] (master), [ip, port, id, …] (replicas)…]. */
    private static Object fromSlots(Object reply, String seedHost) throws IOException {
        Builder b = new Builder();
        for (Object range : list(reply)) {
            List<Object> r = list(range);
            int master = -1;
            List<Integer> copies = new ArrayList<>();
            for (int i = 2; i < r.size(); i++) {
                List<Object> node = list(r.get(i));
                String address = address(text(node.get(0)), seedHost, number(node.get(1)));
                int index = b.node(address, i > 2);
                if (i == 2) {
                    master = index;
                } else {
                    copies.add(index);
                }
            }
            b.assign((int) number(r.get(0)), (int) number(r.get(1)), master, copies);
        }
        return b.build();
    }

    /** HOST:PORT as the run names a node; an empty host (redis' "the node you asked") is the seed's. */
    private static String address(String host, String seedHost, long port) {
        String h = host == null || host.isEmpty() ? seedHost : host;
        return (h.contains(":") ? "[" + h + "]" : h) + ":" + port;
    }

    /** Collects nodes and slots into a layout. */
    private static final class Builder {
        private final List<ClusterLayout.ClusterNode> nodes = new ArrayList<>();
        private final int[] masters = new int[HashSlots.SLOTS];
        private final int[][] replicas = new int[HashSlots.SLOTS][];

        Builder() {
            Arrays.fill(masters, -1);
            Arrays.fill(replicas, new int[0]);
        }

        int node(String address, boolean replica) {
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i).address().equals(address)) {
                    return i;
                }
            }
            nodes.add(new ClusterLayout.ClusterNode(address, replica));
            return nodes.size() - 1;
        }

        void assign(int from, int to, int master, List<Integer> copies) throws IOException {
            if (from < 0 || to >= HashSlots.SLOTS || from > to) {
                throw new IOException("a slot range " + from + "-" + to + " outside 0-" + (HashSlots.SLOTS - 1));
            }
            int[] c = copies.stream().mapToInt(Integer::intValue).toArray();
            for (int s = from; s <= to; s++) {
                masters[s] = master;
                replicas[s] = c;
            }
        }

        ClusterLayout build() {
            return new ClusterLayout(nodes, masters, replicas);
        }
    }

    // ---- a small blocking RESP2 client ----

    private static Object command(InputStream in, OutputStream out, String... words) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(("*" + words.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String w : words) {
            byte[] bytes = w.getBytes(StandardCharsets.UTF_8);
            b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(bytes);
            b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write(b.toByteArray());
        out.flush();
        return read(in, 0);
    }

    private static Object read(InputStream in, int depth) throws IOException {
        if (depth > 8) {
            throw new IOException("a reply nested deeper than a slot map is");
        }
        int type = in.read();
        if (type < 0) {
            throw new EOFException("the node closed the connection");
        }
        String line = line(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                return new Err(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(n);
                if (bytes.length < n || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("a bulk string cut short");
                }
                return new String(bytes, StandardCharsets.UTF_8);
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(Math.min(n, 1024));
                for (int i = 0; i < n; i++) {
                    items.add(read(in, depth + 1));
                }
                return items;
            }
            default:
                throw new IOException("not a RESP2 reply (type byte " + (char) type + ")");
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("a line without its LF");
                }
                return b.toString(StandardCharsets.UTF_8);
            }
            b.write(c);
            if (b.size() > 65536) {
                throw new IOException("a reply line longer than 64 KiB");
            }
        }
        throw new EOFException("the node closed the connection mid-line");
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object v) throws IOException {
        if (v instanceof List<?> l) {
            return (List<Object>) l;
        }
        throw new IOException("expected an array in the slot map, not " + v);
    }

    private static Map<String, Object> pairs(Object v) throws IOException {
        List<Object> l = list(v);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < l.size(); i += 2) {
            m.put(String.valueOf(l.get(i)), l.get(i + 1));
        }
        return m;
    }

    private static String text(Object v) {
        return v == null ? null : v.toString();
    }

    private static long number(Object v) throws IOException {
        if (v instanceof Long n) {
            return n;
        }
        if (v instanceof String s) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new IOException("expected a number in the slot map, not " + s);
            }
        }
        throw new IOException("expected a number in the slot map, not " + v);
    }

    /** A node's HOST:PORT, [IPv6]:PORT taken apart. */
    record HostPort(String host, int port) {
        static HostPort parse(String text) {
            int colon = text.lastIndexOf(':');
            String host = text.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            return new HostPort(host, Integer.parseInt(text.substring(colon + 1)));
        }
    }
}
