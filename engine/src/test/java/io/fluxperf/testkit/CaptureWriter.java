package io.fluxperf.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes packet captures for tests: TCP conversations built segment by segment ({@link Connection}),
 * kept as a list of {@link Packet}s that a test may cut, reorder or duplicate, then written as pcap
 * (either byte order, microsecond or nanosecond timestamps) or pcapng, over any link type fluxperf
 * reads, with a snap length.
 */
public final class CaptureWriter {
    /** The file formats. */
    public enum Format { PCAP_MICROS_LE, PCAP_MICROS_BE, PCAP_NANOS_LE, PCAP_NANOS_BE, PCAPNG }

    /** Link layers, with their LINKTYPE_ number. */
    public enum Link {
        ETHERNET(1), ETHERNET_VLAN(1), ETHERNET_QINQ(1), LINUX_SLL(113), LINUX_SLL2(276), RAW(101), IPV4(228),
        IPV6(229), NULL_LE(0), NULL_BE(0), LOOP(108);

        final int type;

        Link(int type) {
            this.type = type;
        }
    }

    static final int FIN = 0x01;
    static final int SYN = 0x02;
    static final int RST = 0x04;
    static final int PSH = 0x08;
    static final int ACK = 0x10;

    /** One TCP segment as it will be written. */
    public static final class Packet {
        public long timeNanos;
        public final byte[] src;
        public final byte[] dst;
        public final int srcPort;
        public final int dstPort;
        public int seq;
        public int ack;
        public int flags;
        public byte[] payload;
        /** Bytes of the packet kept in the file (less than its length: cut by a snap length); -1 for the file's snap length. */
        public int capture = -1;

        Packet(long timeNanos, byte[] src, int srcPort, byte[] dst, int dstPort, int seq, int ack, int flags, byte[] payload) {
            this.timeNanos = timeNanos;
            this.src = src;
            this.srcPort = srcPort;
            this.dst = dst;
            this.dstPort = dstPort;
            this.seq = seq;
            this.ack = ack;
            this.flags = flags;
            this.payload = payload;
        }

        public Packet copy() {
            Packet p = new Packet(timeNanos, src, srcPort, dst, dstPort, seq, ack, flags, payload.clone());
            p.capture = capture;
            return p;
        }

        @Override
        public String toString() {
            return "packet " + srcPort + ">" + dstPort + " seq " + Integer.toUnsignedString(seq) + " len " + payload.length
                    + " flags " + Integer.toHexString(flags);
        }
    }

    private final List<Packet> packets = new ArrayList<>();
    private Format format = Format.PCAP_MICROS_LE;
    private Link link = Link.ETHERNET;
    private int snapLength = 262_144;

    public CaptureWriter format(Format f) {
        format = f;
        return this;
    }

    public CaptureWriter link(Link l) {
        link = l;
        return this;
    }

    /** Every packet keeps at most this many bytes (link header included), as tcpdump's {@code -s}. */
    public CaptureWriter snapLength(int n) {
        snapLength = n;
        return this;
    }

    /** The packets so far, in file order: a test may remove, reorder or add to them. */
    public List<Packet> packets() {
        return packets;
    }

    /** A connection from {@code client} to {@code server} (IPv4 or IPv6 literals), its sequence numbers starting at the given ones. */
    public Connection connection(String client, int clientPort, String server, int serverPort, int clientIsn, int serverIsn) {
        return new Connection(address(client), clientPort, address(server), serverPort, clientIsn, serverIsn);
    }

    public Connection connection(String client, int clientPort, String server, int serverPort) {
        return connection(client, clientPort, server, serverPort, 1_000_000 + clientPort * 7, 50_000_000 + clientPort * 13);
    }

    private static byte[] address(String literal) {
        try {
            return InetAddress.getByName(literal).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    /** One TCP connection's segments, each direction's sequence numbers kept. */
    public final class Connection {
        private final byte[] client;
        private final int clientPort;
        private final byte[] server;
        private final int serverPort;
        private int clientSeq;
        private int serverSeq;
        /** Payload bytes per segment (a larger send is split). */
        private int mss = 1448;

        Connection(byte[] client, int clientPort, byte[] server, int serverPort, int clientIsn, int serverIsn) {
            this.client = client;
            this.clientPort = clientPort;
            this.server = server;
            this.serverPort = serverPort;
            this.clientSeq = clientIsn;
            this.serverSeq = serverIsn;
        }

        public Connection mss(int n) {
            mss = n;
            return this;
        }

        /** SYN, SYN-ACK, ACK at {@code t}. */
        public Connection open(long t) {
            packets.add(new Packet(t, client, clientPort, server, serverPort, clientSeq, 0, SYN, new byte[0]));
            packets.add(new Packet(t + 10_000, server, serverPort, client, clientPort, serverSeq, clientSeq + 1, SYN | ACK,
                    new byte[0]));
            clientSeq++;
            serverSeq++;
            packets.add(new Packet(t + 20_000, client, clientPort, server, serverPort, clientSeq, serverSeq, ACK, new byte[0]));
            return this;
        }

        /** The client sends {@code bytes} at {@code t}, in segments of at most the mss, each 1 µs after the last. */
        public Connection send(long t, byte[] bytes) {
            return data(t, bytes, true);
        }

        public Connection send(long t, String text) {
            return send(t, text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }

        /** The server sends {@code bytes} at {@code t}. */
        public Connection reply(long t, byte[] bytes) {
            return data(t, bytes, false);
        }

        public Connection reply(long t, String text) {
            return reply(t, text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        }

        private Connection data(long t, byte[] bytes, boolean fromClient) {
            for (int off = 0, i = 0; off < bytes.length; off += mss, i++) {
                byte[] part = java.util.Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + mss));
                if (fromClient) {
                    packets.add(new Packet(t + i * 1000L, client, clientPort, server, serverPort, clientSeq, serverSeq,
                            ACK | PSH, part));
                    clientSeq += part.length;
                } else {
                    packets.add(new Packet(t + i * 1000L, server, serverPort, client, clientPort, serverSeq, clientSeq,
                            ACK | PSH, part));
                    serverSeq += part.length;
                }
            }
            return this;
        }

        /** The client's acknowledgement of everything the server sent, at {@code t}. */
        public Connection clientAck(long t) {
            packets.add(new Packet(t, client, clientPort, server, serverPort, clientSeq, serverSeq, ACK, new byte[0]));
            return this;
        }

        /** The server's acknowledgement of everything the client sent, at {@code t}. */
        public Connection serverAck(long t) {
            packets.add(new Packet(t, server, serverPort, client, clientPort, serverSeq, clientSeq, ACK, new byte[0]));
            return this;
        }

        /** FIN from the client, FIN from the server, the last ACK. */
        public Connection close(long t) {
            packets.add(new Packet(t, client, clientPort, server, serverPort, clientSeq, serverSeq, FIN | ACK, new byte[0]));
            clientSeq++;
            packets.add(new Packet(t + 10_000, server, serverPort, client, clientPort, serverSeq, clientSeq, FIN | ACK,
                    new byte[0]));
            serverSeq++;
            packets.add(new Packet(t + 20_000, client, clientPort, server, serverPort, clientSeq, serverSeq, ACK, new byte[0]));
            return this;
        }

        /** The client resets the connection. */
        public Connection reset(long t) {
            packets.add(new Packet(t, client, clientPort, server, serverPort, clientSeq, serverSeq, RST | ACK, new byte[0]));
            return this;
        }
    }

    // ---- writing ----

    public void writeTo(Path file) {
        try {
            Files.write(file, bytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean ng = format == Format.PCAPNG;
        ByteOrder order = format == Format.PCAP_MICROS_BE || format == Format.PCAP_NANOS_BE ? ByteOrder.BIG_ENDIAN
                : ByteOrder.LITTLE_ENDIAN;
        boolean nanos = format == Format.PCAP_NANOS_BE || format == Format.PCAP_NANOS_LE || ng;
        if (ng) {
            out.writeBytes(sectionHeader());
            out.writeBytes(interfaceBlock(link.type, snapLength, true));
        } else {
            ByteBuffer h = ByteBuffer.allocate(24).order(order);
            h.putInt(nanos ? 0xa1b23c4d : 0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                    .putInt(snapLength).putInt(link.type);
            out.writeBytes(h.array());
        }
        for (Packet p : packets) {
            byte[] frame = frame(p);
            int kept = Math.min(frame.length, p.capture >= 0 ? p.capture : snapLength);
            if (ng) {
                out.writeBytes(enhancedPacket(0, p.timeNanos, frame, kept));
            } else {
                ByteBuffer r = ByteBuffer.allocate(16).order(order);
                long seconds = p.timeNanos / 1_000_000_000L;
                long fraction = p.timeNanos % 1_000_000_000L;
                r.putInt((int) seconds).putInt((int) (nanos ? fraction : fraction / 1000)).putInt(kept).putInt(frame.length);
                out.writeBytes(r.array());
                out.write(frame, 0, kept);
            }
        }
        return out.toByteArray();
    }

    /** A pcapng section header block (little-endian). */
    public static byte[] sectionHeader() {
        ByteBuffer b = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x0a0d0d0a).putInt(28).putInt(0x1a2b3c4d).putShort((short) 1).putShort((short) 0).putLong(-1).putInt(28);
        return b.array();
    }

    /** A pcapng interface description block, with a nanosecond timestamp resolution when asked. */
    public static byte[] interfaceBlock(int linkType, int snap, boolean nanos) {
        int options = nanos ? 8 + 4 : 0; // if_tsresol (4 + 1 padded to 4), end of options (4)
        int length = 20 + options;
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(1).putInt(length).putShort((short) linkType).putShort((short) 0).putInt(snap);
        if (nanos) {
            b.putShort((short) 9).putShort((short) 1).put((byte) 9).put((byte) 0).put((byte) 0).put((byte) 0);
            b.putShort((short) 0).putShort((short) 0);
        }
        b.putInt(length);
        return b.array();
    }

    /** A pcapng enhanced packet block of interface {@code id}, nanosecond timestamp. */
    public static byte[] enhancedPacket(int id, long timeNanos, byte[] frame, int kept) {
        return enhancedPacketUnits(id, timeNanos, frame, kept);
    }

    /** A pcapng enhanced packet block of interface {@code id} whose timestamp is {@code units} of its interface's resolution. */
    public static byte[] enhancedPacketUnits(int id, long units, byte[] frame, int kept) {
        long timeNanos = units;
        int padded = (kept + 3) & ~3;
        int length = 32 + padded;
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(6).putInt(length).putInt(id).putInt((int) (timeNanos >>> 32)).putInt((int) timeNanos).putInt(kept)
                .putInt(frame.length);
        b.put(frame, 0, kept);
        b.position(28 + padded);
        b.putInt(length);
        return b.array();
    }

    /** The packet's bytes on the wire from its link header on, with this writer's link type. */
    public byte[] frame(Packet p) {
        byte[] ip = ip(p);
        boolean v6 = p.src.length == 16;
        ByteBuffer b = ByteBuffer.allocate(ip.length + 32);
        switch (link) {
            case ETHERNET, ETHERNET_VLAN, ETHERNET_QINQ -> {
                b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1});
                if (link == Link.ETHERNET_QINQ) {
                    b.putShort((short) 0x88a8).putShort((short) 7);
                }
                if (link != Link.ETHERNET) {
                    b.putShort((short) 0x8100).putShort((short) 42);
                }
                b.putShort((short) (v6 ? 0x86dd : 0x0800));
            }
            case LINUX_SLL -> b.putShort((short) 0).putShort((short) 772).putShort((short) 6)
                    .put(new byte[8]).putShort((short) (v6 ? 0x86dd : 0x0800));
            case LINUX_SLL2 -> b.putShort((short) (v6 ? 0x86dd : 0x0800)).putShort((short) 0).putInt(1)
                    .putShort((short) 772).put((byte) 0).put((byte) 6).put(new byte[8]);
            case NULL_LE -> b.order(ByteOrder.LITTLE_ENDIAN).putInt(v6 ? 30 : 2).order(ByteOrder.BIG_ENDIAN);
            case NULL_BE, LOOP -> b.putInt(v6 ? 24 : 2);
            default -> {
                // raw IP
            }
        }
        b.put(ip);
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    /** Whether IPv6 packets carry a hop-by-hop and a destination options header before TCP. */
    private boolean extensionHeaders;

    public CaptureWriter ipv6ExtensionHeaders(boolean v) {
        extensionHeaders = v;
        return this;
    }

    private byte[] ip(Packet p) {
        byte[] tcp = tcp(p);
        if (p.src.length == 4) {
            ByteBuffer b = ByteBuffer.allocate(20 + tcp.length);
            b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + tcp.length)).putShort((short) 1).putShort((short) 0x4000)
                    .put((byte) 64).put((byte) 6).putShort((short) 0).put(p.src).put(p.dst).put(tcp);
            return b.array();
        }
        int ext = extensionHeaders ? 16 : 0;
        ByteBuffer b = ByteBuffer.allocate(40 + ext + tcp.length);
        b.putInt(0x60000000).putShort((short) (ext + tcp.length)).put((byte) (extensionHeaders ? 0 : 6)).put((byte) 64)
                .put(p.src).put(p.dst);
        if (extensionHeaders) {
            b.put((byte) 60).put((byte) 0).put(new byte[6]); // hop-by-hop, then destination options
            b.put((byte) 6).put((byte) 0).put(new byte[6]); // destination options, then TCP
        }
        b.put(tcp);
        return b.array();
    }

    private static byte[] tcp(Packet p) {
        // 32-byte header: a timestamp option, as Linux sends
        ByteBuffer b = ByteBuffer.allocate(32 + p.payload.length);
        b.putShort((short) p.srcPort).putShort((short) p.dstPort).putInt(p.seq).putInt(p.ack).put((byte) (8 << 4))
                .put((byte) p.flags).putShort((short) 512).putShort((short) 0).putShort((short) 0);
        b.put(new byte[] {1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2});
        b.put(p.payload);
        return b.array();
    }
}
