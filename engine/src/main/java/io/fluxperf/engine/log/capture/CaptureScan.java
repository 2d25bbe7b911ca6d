package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.LogInput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass over a capture's packet headers before it is replayed: it checks the whole file (a
 * damaged or cut-short file, or a link type fluxperf does not read, is an error before anything is
 * sent), finds the server side of every TCP connection, and tells each server's protocol from the
 * first bytes its clients sent. No reassembly: a connection is known by its endpoints, and memory
 * is the connections open at a time plus one small record per server.
 *
 * <p>The server side of a connection: the receiver of its SYN (or the sender of its SYN-ACK). For a
 * connection open before the capture began: an endpoint that other connections opened to, else the
 * side whose first bytes are a client's request of a known protocol, else the lower port.
 */
final class CaptureScan {
    private static final int HEAD = 256;

    /** What the pass found out about one server side. */
    static final class Server {
        final Endpoint endpoint;
        int connections;
        int openBefore;
        long requestBytes;
        /** Connections whose first request each protocol recognized, by protocol name. */
        final Map<String, Integer> recognized = new LinkedHashMap<>();
        final Map<String, CaptureProtocol> readers = new LinkedHashMap<>();

        Server(Endpoint endpoint) {
            this.endpoint = endpoint;
        }

        /** The reading most of its connections were recognized by, or null. */
        CaptureProtocol protocol() {
            Map<CaptureProtocol, Integer> votes = new HashMap<>();
            recognized.forEach((name, n) -> votes.merge(readers.get(name), n, Integer::sum));
            return votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse(null);
        }

        /** The protocol names its connections were recognized as, by {@code p}. */
        Set<String> names(CaptureProtocol p) {
            Set<String> out = new LinkedHashSet<>();
            recognized.keySet().forEach(n -> {
                if (readers.get(n) == p) {
                    out.add(n);
                }
            });
            return out;
        }
    }

    private final String name;
    private final List<CaptureProtocol> protocols;
    final Map<Endpoint, Server> servers = new LinkedHashMap<>();
    private final Set<Endpoint> opened = new java.util.HashSet<>();
    private final Map<Key, Flow> flows = new HashMap<>();
    private final Key probe = new Key();

    CaptureFile.Kind kind;
    boolean nanosecondTimestamps;
    final Set<Integer> linkTypes = new LinkedHashSet<>();
    int snapLength;
    long packets;
    long tcpPackets;
    long cutPackets;
    long fragments;
    long headersCut;
    long firstNanos = Long.MIN_VALUE;
    long lastNanos = Long.MIN_VALUE;

    private CaptureScan(String name, List<CaptureProtocol> protocols) {
        this.name = name;
        this.protocols = protocols;
    }

    /** Scans {@code log}; a damaged file is a {@link UserError} naming the file and the byte offset. */
    static CaptureScan of(Path log, String name, List<CaptureProtocol> protocols) {
        CaptureScan scan = new CaptureScan(name, protocols);
        try (LogInput in = LogInput.open(log)) {
            scan.read(new CaptureFile(name, in.stream()));
        } catch (IOException e) {
            throw new UserError(name + ": cannot read: " + e.getMessage(), e);
        }
        return scan;
    }

    private void read(CaptureFile file) throws IOException {
        kind = file.kind();
        TcpSegment s = new TcpSegment();
        while (file.next()) {
            packets++;
            long t = file.timeNanos();
            if (firstNanos == Long.MIN_VALUE) {
                firstNanos = t;
            }
            lastNanos = Math.max(lastNanos, t);
            if (!PacketDecoder.knows(file.linkType())) {
                throw new UserError(name + ": packet " + file.packetNumber() + " (byte " + file.recordOffset()
                        + ") has link type " + file.linkType() + ", which fluxperf does not read; it reads "
                        + PacketDecoder.KNOWN);
            }
            linkTypes.add(file.linkType());
            if (file.originalLength() > file.capturedLength()) {
                cutPackets++;
            }
            int kindOf = PacketDecoder.decode(file.data(), file.dataOffset(), file.capturedLength(), file.linkType(), s);
            switch (kindOf) {
                case PacketDecoder.TCP -> {
                    tcpPackets++;
                    segment(s);
                }
                case PacketDecoder.FRAGMENT -> fragments++;
                case PacketDecoder.HEADERS_CUT -> headersCut++;
                default -> {
                    // not IP, not TCP, malformed: not a command of any connection
                }
            }
        }
        nanosecondTimestamps = file.nanosecondTimestamps();
        snapLength = file.largestSnapLength();
        for (Flow f : flows.values()) {
            finish(f);
        }
        flows.clear();
    }

    private void segment(TcpSegment s) {
        probe.set(s.srcHi, s.srcLo, s.srcPort, s.dstHi, s.dstLo, s.dstPort);
        Flow f = flows.get(probe);
        boolean syn = s.has(TcpSegment.SYN);
        if (f != null && syn && !s.has(TcpSegment.ACK) && f.fromStart && f.requestStart != s.seq + 1) {
            finish(f); // the same ports opened again, the capture having seen no end of the connection before
            flows.remove(f.key);
            f = null;
        }
        if (f == null) {
            if (!syn && s.wireLength() == 0) {
                return;
            }
            Key key = probe.copy();
            f = new Flow(key);
            flows.put(key, f);
        }
        boolean fromA = probe.fromA;
        if (syn && !s.has(TcpSegment.ACK)) {
            f.decide(fromA ? Side.B : Side.A); // the SYN's receiver serves
            f.fromStart = true;
            f.requestStart = s.seq + 1;
            opened.add(f.serverEndpoint());
        } else if (syn) {
            if (f.server == null) {
                f.decide(fromA ? Side.A : Side.B);
                f.fromStart = true;
                f.requestStart = s.ack;
                opened.add(f.serverEndpoint());
            }
        }
        int wire = s.wireLength();
        if (wire > 0) {
            int seq = s.seq + (syn ? 1 : 0);
            if (fromA) {
                f.bytesFromA += wire;
                if (f.headA == null) {
                    f.headA = head(s);
                    f.headAStart = seq;
                }
            } else {
                f.bytesFromB += wire;
                if (f.headB == null) {
                    f.headB = head(s);
                    f.headBStart = seq;
                }
            }
        }
        if (s.has(TcpSegment.RST)) {
            finish(f);
            flows.remove(f.key);
            return;
        }
        if (s.has(TcpSegment.FIN)) {
            if (fromA) {
                f.finA = true;
            } else {
                f.finB = true;
            }
            if (f.finA && f.finB) {
                finish(f);
                flows.remove(f.key);
            }
        }
    }

    private static byte[] head(TcpSegment s) {
        return java.util.Arrays.copyOfRange(s.data, s.payloadOffset, s.payloadOffset + Math.min(HEAD, s.payloadLength));
    }

    /** Adds a connection that ended (or that the capture ends inside) to its server's figures. */
    private void finish(Flow f) {
        if (f.server == null) {
            Endpoint a = f.key.a();
            Endpoint b = f.key.b();
            if (opened.contains(a) != opened.contains(b)) {
                f.decide(opened.contains(a) ? Side.A : Side.B);
            } else {
                boolean aAsks = f.headA != null && recognize(f.headA) != null;
                boolean bAsks = f.headB != null && recognize(f.headB) != null;
                if (aAsks != bAsks) {
                    f.decide(aAsks ? Side.B : Side.A);
                } else {
                    f.decide(a.port() <= b.port() ? Side.A : Side.B);
                }
            }
        }
        boolean serverIsA = f.server == Side.A;
        long requestBytes = serverIsA ? f.bytesFromB : f.bytesFromA;
        byte[] requestHead = serverIsA ? f.headB : f.headA;
        int headStart = serverIsA ? f.headBStart : f.headAStart;
        Endpoint endpoint = f.serverEndpoint();
        Server server = servers.computeIfAbsent(endpoint, Server::new);
        server.connections++;
        if (!f.fromStart) {
            server.openBefore++;
        }
        server.requestBytes += requestBytes;
        if (requestHead != null && (!f.fromStart || headStart == f.requestStart)) {
            for (CaptureProtocol p : protocols) {
                String n = p.recognize(requestHead, 0, requestHead.length);
                if (n != null) {
                    server.recognized.merge(n, 1, Integer::sum);
                    server.readers.put(n, p);
                    break;
                }
            }
        }
    }

    private String recognize(byte[] head) {
        for (CaptureProtocol p : protocols) {
            String n = p.recognize(head, 0, head.length);
            if (n != null) {
                return n;
            }
        }
        return null;
    }

    /** The servers that clients sent requests to, the busiest first. */
    List<Server> serversWithRequests() {
        List<Server> out = new ArrayList<>();
        for (Server s : servers.values()) {
            if (s.requestBytes > 0) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingLong((Server s) -> s.requestBytes).reversed()
                .thenComparing(s -> s.endpoint.toString()));
        return out;
    }

    double seconds() {
        return firstNanos == Long.MIN_VALUE ? 0 : (lastNanos - firstNanos) / 1e9;
    }

    private enum Side { A, B }

    /** A connection's endpoints, the lesser first so that both directions find it; reused as a probe. */
    private static final class Key {
        long aHi;
        long aLo;
        int aPort;
        long bHi;
        long bLo;
        int bPort;
        /** Set by {@link #set}: the packet went from a to b. */
        boolean fromA;

        void set(long sHi, long sLo, int sPort, long dHi, long dLo, int dPort) {
            boolean srcFirst = sHi != dHi ? Long.compareUnsigned(sHi, dHi) < 0
                    : sLo != dLo ? Long.compareUnsigned(sLo, dLo) < 0 : sPort <= dPort;
            fromA = srcFirst;
            if (srcFirst) {
                aHi = sHi; aLo = sLo; aPort = sPort; bHi = dHi; bLo = dLo; bPort = dPort;
            } else {
                aHi = dHi; aLo = dLo; aPort = dPort; bHi = sHi; bLo = sLo; bPort = sPort;
            }
        }

        Key copy() {
            Key k = new Key();
            k.aHi = aHi; k.aLo = aLo; k.aPort = aPort; k.bHi = bHi; k.bLo = bLo; k.bPort = bPort;
            return k;
        }

        Endpoint a() {
            return new Endpoint(aHi, aLo, aPort);
        }

        Endpoint b() {
            return new Endpoint(bHi, bLo, bPort);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.aPort == aPort && k.bPort == bPort && k.aLo == aLo && k.bLo == bLo
                    && k.aHi == aHi && k.bHi == bHi;
        }

        @Override
        public int hashCode() {
            long x = (aHi ^ aLo) * 0x9E3779B97F4A7C15L + (bHi ^ bLo) * 0xC2B2AE3D27D4EB4FL + ((long) aPort << 16 | bPort);
            x *= 0x165667B19E3779F9L;
            return (int) (x ^ x >>> 32);
        }
    }

    private static final class Flow {
        final Key key;
        Side server;
        boolean fromStart;
        int requestStart;
        long bytesFromA;
        long bytesFromB;
        byte[] headA;
        byte[] headB;
        int headAStart;
        int headBStart;
        boolean finA;
        boolean finB;

        Flow(Key key) {
            this.key = key;
        }

        void decide(Side side) {
            if (server == null) {
                server = side;
            }
        }

        Endpoint serverEndpoint() {
            return server == Side.A ? key.a() : key.b();
        }
    }
}
