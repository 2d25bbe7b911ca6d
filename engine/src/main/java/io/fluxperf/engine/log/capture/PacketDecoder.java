package io.fluxperf.engine.log.capture;

/**
 * Decodes a captured packet's link layer, IPv4 or IPv6 and TCP headers into a {@link TcpSegment},
 * in place. Link types (tcpdump.org's LINKTYPE_ numbers): Ethernet (1) with any number of 802.1Q
 * and 802.1ad (QinQ) tags, Linux cooked capture v1 (113) and v2 (276, what {@code tcpdump -i any}
 * writes), raw IP (101, 228 IPv4, 229 IPv6) and BSD loopback (0 NULL, in the capturing host's byte
 * order, and 108 LOOP, in network order). IPv6 extension headers are skipped; fragments, other
 * transports and packets whose headers the snap length cut are not TCP segments (each counted by
 * its reason).
 */
public final class PacketDecoder {
    private PacketDecoder() {
    }

    static final int LINK_NULL = 0;
    static final int LINK_ETHERNET = 1;
    static final int LINK_RAW = 101;
    static final int LINK_LOOP = 108;
    static final int LINK_LINUX_SLL = 113;
    static final int LINK_IPV4 = 228;
    static final int LINK_IPV6 = 229;
    static final int LINK_LINUX_SLL2 = 276;

    /** What {@link #decode} made of a packet. */
    public static final int TCP = 0;
    static final int NOT_IP = 1;
    static final int NOT_TCP = 2;
    static final int FRAGMENT = 3;
    static final int HEADERS_CUT = 4;
    static final int MALFORMED = 5;
    static final int UNKNOWN_LINK = 6;

    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_IPV6 = 0x86dd;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88a8;
    private static final int ETHERTYPE_QINQ_OLD = 0x9100;

    /** Whether fluxperf reads packets of link type {@code link}. */
    static boolean knows(int link) {
        return switch (link) {
            case LINK_NULL, LINK_ETHERNET, LINK_RAW, LINK_LOOP, LINK_LINUX_SLL, LINK_IPV4, LINK_IPV6, LINK_LINUX_SLL2 -> true;
            default -> false;
        };
    }

    /** The link types fluxperf reads, for messages. */
    static final String KNOWN = "Ethernet (1), Linux cooked v1 (113) and v2 (276), raw IP (101, 228, 229)"
            + " and BSD loopback (0, 108)";

    /** A link type's name for the notes. */
    static String linkName(int link) {
        return switch (link) {
            case LINK_NULL -> "BSD loopback";
            case LINK_ETHERNET -> "Ethernet";
            case LINK_RAW, LINK_IPV4, LINK_IPV6 -> "raw IP";
            case LINK_LOOP -> "OpenBSD loopback";
            case LINK_LINUX_SLL -> "Linux cooked v1";
            case LINK_LINUX_SLL2 -> "Linux cooked v2";
            default -> "link type " + link;
        };
    }

    /**
     * Decodes {@code b[off, off + captured)}, a packet of {@code link} type, into {@code s}.
     *
     * @return {@link #TCP} when {@code s} holds a segment, else why not
     */
    public static int decode(byte[] b, int off, int captured, int link, TcpSegment s) {
        int end = off + captured;
        int p;
        int ethertype;
        switch (link) {
            case LINK_ETHERNET -> {
                if (captured < 14) {
                    return HEADERS_CUT;
                }
                ethertype = u16(b, off + 12);
                p = off + 14;
            }
            case LINK_LINUX_SLL -> {
                if (captured < 16) {
                    return HEADERS_CUT;
                }
                ethertype = u16(b, off + 14);
                p = off + 16;
            }
            case LINK_LINUX_SLL2 -> {
                if (captured < 20) {
                    return HEADERS_CUT;
                }
                ethertype = u16(b, off);
                p = off + 20;
            }
            case LINK_RAW, LINK_IPV4, LINK_IPV6 -> {
                if (captured < 1) {
                    return HEADERS_CUT;
                }
                int version = (b[off] & 0xff) >>> 4;
                ethertype = version == 4 ? ETHERTYPE_IPV4 : version == 6 ? ETHERTYPE_IPV6 : 0;
                p = off;
            }
            case LINK_NULL, LINK_LOOP -> {
                if (captured < 4) {
                    return HEADERS_CUT;
                }
                int be = u16(b, off) << 16 | u16(b, off + 2);
                int family = link == LINK_LOOP ? be : (be & 0xffff0000) == 0 ? be : Integer.reverseBytes(be);
                // AF_INET is 2 everywhere; AF_INET6 is 10 (Linux), 24 (NetBSD, OpenBSD), 28 (FreeBSD), 30 (macOS)
                ethertype = family == 2 ? ETHERTYPE_IPV4
                        : family == 10 || family == 24 || family == 28 || family == 30 ? ETHERTYPE_IPV6 : 0;
                p = off + 4;
            }
            default -> {
                return UNKNOWN_LINK;
            }
        }
        while (ethertype == ETHERTYPE_VLAN || ethertype == ETHERTYPE_QINQ || ethertype == ETHERTYPE_QINQ_OLD) {
            if (end - p < 4) {
                return HEADERS_CUT;
            }
            ethertype = u16(b, p + 2);
            p += 4;
        }
        if (ethertype == ETHERTYPE_IPV4) {
            return ipv4(b, p, end, s);
        }
        if (ethertype == ETHERTYPE_IPV6) {
            return ipv6(b, p, end, s);
        }
        return NOT_IP;
    }

    private static int ipv4(byte[] b, int p, int end, TcpSegment s) {
        if (end - p < 20) {
            return HEADERS_CUT;
        }
        int version = (b[p] & 0xff) >>> 4;
        int headerLength = (b[p] & 0x0f) * 4;
        if (version != 4 || headerLength < 20) {
            return MALFORMED;
        }
        int total = u16(b, p + 2);
        int fragment = u16(b, p + 6);
        if ((fragment & 0x3fff) != 0) {
            return FRAGMENT; // more fragments, or not the first
        }
        if ((b[p + 9] & 0xff) != 6) {
            return NOT_TCP;
        }
        if (total < headerLength) {
            return MALFORMED;
        }
        if (end - p < headerLength) {
            return HEADERS_CUT;
        }
        s.srcHi = 0;
        s.srcLo = TcpSegment.mappedLo(int32(b, p + 12));
        s.dstHi = 0;
        s.dstLo = TcpSegment.mappedLo(int32(b, p + 16));
        return tcp(b, p + headerLength, p + total, end, s);
    }

    private static int ipv6(byte[] b, int p, int end, TcpSegment s) {
        if (end - p < 40) {
            return HEADERS_CUT;
        }
        if ((b[p] & 0xff) >>> 4 != 6) {
            return MALFORMED;
        }
        int payload = u16(b, p + 4);
        if (payload == 0) {
            return MALFORMED; // a jumbogram: not on the networks caches run on
        }
        int next = b[p + 6] & 0xff;
        s.srcHi = int64(b, p + 8);
        s.srcLo = int64(b, p + 16);
        s.dstHi = int64(b, p + 24);
        s.dstLo = int64(b, p + 32);
        int ipEnd = p + 40 + payload;
        int q = p + 40;
        while (true) {
            switch (next) {
                case 6 -> {
                    return tcp(b, q, ipEnd, end, s);
                }
                case 0, 43, 60 -> { // hop-by-hop, routing, destination options
                    if (end - q < 2) {
                        return HEADERS_CUT;
                    }
                    next = b[q] & 0xff;
                    q += ((b[q + 1] & 0xff) + 1) * 8;
                }
                case 51 -> { // authentication header
                    if (end - q < 2) {
                        return HEADERS_CUT;
                    }
                    next = b[q] & 0xff;
                    q += ((b[q + 1] & 0xff) + 2) * 4;
                }
                case 44 -> { // fragment
                    if (end - q < 8) {
                        return HEADERS_CUT;
                    }
                    int offsetAndMore = u16(b, q + 2);
                    if ((offsetAndMore & 0xfff9) != 0) {
                        return FRAGMENT;
                    }
                    next = b[q] & 0xff;
                    q += 8;
                }
                default -> {
                    return NOT_TCP; // ESP, UDP, ICMPv6, no next header, …
                }
            }
            if (q > ipEnd) {
                return MALFORMED;
            }
        }
    }

    /** The TCP header at {@code p}; the IP packet ends at {@code ipEnd} on the wire, the capture at {@code end}. */
    private static int tcp(byte[] b, int p, int ipEnd, int end, TcpSegment s) {
        if (end - p < 20) {
            return HEADERS_CUT;
        }
        int dataOffset = ((b[p + 12] & 0xff) >>> 4) * 4;
        if (dataOffset < 20 || p + dataOffset > ipEnd) {
            return MALFORMED;
        }
        if (end - p < dataOffset) {
            return HEADERS_CUT;
        }
        s.srcPort = u16(b, p);
        s.dstPort = u16(b, p + 2);
        s.seq = int32(b, p + 4);
        s.ack = int32(b, p + 8);
        s.flags = b[p + 13] & 0xff;
        s.data = b;
        s.payloadOffset = p + dataOffset;
        int capturedEnd = Math.min(end, ipEnd); // Ethernet pads short frames: the IP length is the truth
        s.payloadLength = capturedEnd - s.payloadOffset;
        s.missing = ipEnd - capturedEnd;
        return TCP;
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
    }

    private static int int32(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | b[at + 3] & 0xff;
    }

    private static long int64(byte[] b, int at) {
        return (int32(b, at) & 0xffffffffL) << 32 | int32(b, at + 4) & 0xffffffffL;
    }
}
