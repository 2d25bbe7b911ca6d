package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.UserError;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;

/**
 * The packet records of a pcap or pcapng file, streamed from its (decompressed) bytes: one record
 * at a time in a buffer that is reused, nothing allocated per packet. Both pcap byte orders and
 * timestamp resolutions (microseconds, nanoseconds) are read, and pcapng's sections, interfaces
 * (each with its own link type, snap length and timestamp resolution) and packet blocks
 * (enhanced, simple and the obsolete packet block); other pcapng blocks are skipped.
 *
 * <p>Formats: pcap as libpcap's {@code pcap-savefile(5)} describes it; pcapng as in the IETF
 * draft {@code draft-ietf-opsawg-pcapng}. A file that is neither, a record that claims more
 * bytes than any capture holds, and a file cut short inside a record are a {@link UserError}
 * naming the file and the byte offset.
 *
 * <p>After {@link #next()} returns true, the packet is {@code data()[dataOffset(), dataOffset() +
 * capturedLength())}, valid until the next call.
 */
public final class CaptureFile {
    /** pcap's magic numbers as read in the file's own byte order: microsecond and nanosecond timestamps. */
    static final int PCAP_MICROS = 0xa1b2c3d4;
    static final int PCAP_NANOS = 0xa1b23c4d;
    /** pcapng's section header block type, the same in either byte order. */
    static final int PCAPNG_SECTION = 0x0a0d0d0a;
    static final int PCAPNG_BYTE_ORDER = 0x1a2b3c4d;
    /** A record or block larger than this is damage, not a packet (tcpdump's largest snap length is 256 KiB). */
    static final int MAX_RECORD = 64 << 20;

    private static final int PCAPNG_INTERFACE = 1;
    private static final int PCAPNG_OBSOLETE_PACKET = 2;
    private static final int PCAPNG_SIMPLE_PACKET = 3;
    private static final int PCAPNG_ENHANCED_PACKET = 6;
    private static final int OPTION_TSRESOL = 9;
    private static final int OPTION_TSOFFSET = 14;

    /** The two file formats. */
    public enum Kind {
        PCAP, PCAPNG;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final String name;
    private final InputStream in;
    private byte[] buf = new byte[1 << 18];
    private int pos;
    private int limit;
    /** Stream offset of buf[0]. */
    private long base;
    private boolean eof;

    private final Kind kind;
    private boolean bigEndian;
    // pcap
    private boolean pcapNanos;
    private int pcapLinkType;
    private int pcapSnap;
    // pcapng: interfaces of the current section
    private int interfaces;
    private int[] ifLinkType = new int[4];
    private int[] ifSnap = new int[4];
    /** Timestamp unit: 10^-exp seconds (decimal) or 2^-exp (binary). */
    private int[] ifTsExp = new int[4];
    private boolean[] ifTsBinary = new boolean[4];
    private long[] ifTsOffsetSeconds = new long[4];
    private int sections;

    // the current packet
    private long packets;
    private long recordOffset;
    private long timeNanos;
    private int linkType;
    private int snapLength;
    private int dataOffset;
    private int captured;
    private long original;

    /** Largest snap length among the file's interfaces (pcap: its one). */
    private int largestSnap;
    private boolean anyNanos;

    /**
     * Opens the capture in {@code in} (its first bytes decide pcap or pcapng).
     *
     * @param name the file's name, for messages
     * @throws UserError when the bytes are no capture
     */
    public CaptureFile(String name, InputStream in) {
        this.name = name;
        this.in = in;
        if (!fill(4)) {
            throw new UserError(name + ": not a packet capture (" + (limit == 0 ? "empty file" : "only " + limit + " bytes") + ")");
        }
        int be = beInt(0);
        int le = Integer.reverseBytes(be);
        if (be == PCAP_MICROS || be == PCAP_NANOS || le == PCAP_MICROS || le == PCAP_NANOS) {
            kind = Kind.PCAP;
            bigEndian = be == PCAP_MICROS || be == PCAP_NANOS;
            readPcapHeader();
        } else if (be == PCAPNG_SECTION) {
            kind = Kind.PCAPNG;
        } else {
            throw new UserError(name + ": not a packet capture (it starts with " + hex(0, 4)
                    + ", not the magic number of pcap or pcapng)");
        }
    }

    /** Whether the first four bytes of {@code head} are a pcap or pcapng magic number. */
    public static boolean recognizes(byte[] head, int length) {
        if (length < 4) {
            return false;
        }
        int be = (head[0] & 0xff) << 24 | (head[1] & 0xff) << 16 | (head[2] & 0xff) << 8 | head[3] & 0xff;
        int le = Integer.reverseBytes(be);
        return be == PCAP_MICROS || be == PCAP_NANOS || le == PCAP_MICROS || le == PCAP_NANOS || be == PCAPNG_SECTION;
    }

    private void readPcapHeader() {
        if (!fill(24)) {
            throw new UserError(name + ": cut short at byte " + limit + ", inside the 24-byte pcap file header");
        }
        int magic = bigEndian ? beInt(0) : leInt(0);
        pcapNanos = magic == PCAP_NANOS;
        anyNanos = pcapNanos;
        int major = u16(4);
        if (major != 2) {
            throw new UserError(name + ": pcap version " + major + "." + u16(6) + " at byte 4 is not one fluxperf reads (2.4)");
        }
        pcapSnap = int32(16);
        largestSnap = pcapSnap;
        pcapLinkType = int32(20) & 0xffff; // the upper bits carry the FCS length
        pos = 24;
    }

    /**
     * Moves to the next packet.
     *
     * @return false at the end of the file
     * @throws UserError when the file is damaged or cut short (naming the byte offset)
     */
    public boolean next() throws IOException {
        return kind == Kind.PCAP ? nextPcap() : nextPcapng();
    }

    private boolean nextPcap() throws IOException {
        if (!fill(16)) {
            if (limit - pos == 0) {
                return false;
            }
            throw new UserError(name + ": cut short at byte " + (base + limit) + ", inside the header of packet "
                    + (packets + 1) + " (which starts at byte " + (base + pos) + ")");
        }
        long seconds = int32(pos) & 0xffffffffL;
        long fraction = int32(pos + 4) & 0xffffffffL;
        int incl = int32(pos + 8);
        long orig = int32(pos + 12) & 0xffffffffL;
        if (incl < 0 || incl > MAX_RECORD) {
            throw new UserError(name + ": packet " + (packets + 1) + " at byte " + (base + pos) + " claims "
                    + (incl & 0xffffffffL) + " bytes, more than a capture holds: the file is damaged");
        }
        recordOffset = base + pos;
        if (!fill(16 + incl)) {
            throw new UserError(name + ": cut short at byte " + (base + limit) + ", inside packet " + (packets + 1)
                    + " (its record at byte " + recordOffset + " announces " + incl + " bytes, " + (limit - pos - 16)
                    + " are there)");
        }
        timeNanos = seconds * 1_000_000_000L + (pcapNanos ? fraction : fraction * 1000);
        linkType = pcapLinkType;
        snapLength = pcapSnap;
        dataOffset = pos + 16;
        captured = incl;
        original = Math.max(orig, incl);
        pos += 16 + incl;
        packets++;
        return true;
    }

    private boolean nextPcapng() throws IOException {
        while (true) {
            if (!fill(8)) {
                if (limit - pos == 0) {
                    return false;
                }
                throw new UserError(name + ": cut short at byte " + (base + limit) + ", inside the header of the pcapng block at byte "
                        + (base + pos));
            }
            int type = beInt(pos);
            long at = base + pos;
            if (type == PCAPNG_SECTION) {
                if (!fill(12)) {
                    throw new UserError(name + ": cut short at byte " + (base + limit) + ", inside the section header at byte " + at);
                }
                int bom = beInt(pos + 8);
                if (bom == PCAPNG_BYTE_ORDER) {
                    bigEndian = true;
                } else if (Integer.reverseBytes(bom) == PCAPNG_BYTE_ORDER) {
                    bigEndian = false;
                } else {
                    throw new UserError(name + ": the pcapng section header at byte " + at
                            + " has no byte-order magic (" + hex(pos + 8, 4) + "): the file is damaged");
                }
            }
            int length = int32(pos + 4);
            if (length < 12 || (length & 3) != 0 || length > MAX_RECORD) {
                throw new UserError(name + ": the pcapng block at byte " + at + " claims " + (length & 0xffffffffL)
                        + " bytes, which no block has: the file is damaged");
            }
            if (!fill(length)) {
                throw new UserError(name + ": cut short at byte " + (base + limit) + ", inside the pcapng block at byte " + at
                        + " (it announces " + length + " bytes, " + (limit - pos) + " are there)");
            }
            if (int32(pos + length - 4) != length) {
                throw new UserError(name + ": the pcapng block at byte " + at + " ends with another length than it starts with"
                        + " (" + (int32(pos + length - 4) & 0xffffffffL) + ", not " + length + "): the file is damaged");
            }
            int blockType = int32(pos);
            int body = pos + 8;
            int end = pos + length - 4;
            recordOffset = at;
            boolean packet = switch (blockType) {
                case PCAPNG_SECTION -> {
                    section(body, end, at);
                    yield false;
                }
                case PCAPNG_INTERFACE -> {
                    iface(body, end, at);
                    yield false;
                }
                case PCAPNG_ENHANCED_PACKET -> enhanced(body, end, at);
                case PCAPNG_SIMPLE_PACKET -> simple(body, end, at);
                case PCAPNG_OBSOLETE_PACKET -> obsolete(body, end, at);
                default -> false; // statistics, name resolution, journal, custom: nothing to replay
            };
            pos += length;
            if (packet) {
                packets++;
                return true;
            }
        }
    }

    private void section(int body, int end, long at) {
        int major = u16(body + 4);
        if (major != 1) {
            throw new UserError(name + ": pcapng version " + major + "." + u16(body + 6) + " (section at byte " + at
                    + ") is not one fluxperf reads (1.0)");
        }
        sections++;
        interfaces = 0; // interface ids count from 0 in every section
    }

    private void iface(int body, int end, long at) {
        if (end - body < 8) {
            throw new UserError(name + ": the pcapng interface block at byte " + at + " is too short: the file is damaged");
        }
        if (interfaces == ifLinkType.length) {
            int n = interfaces * 2;
            ifLinkType = Arrays.copyOf(ifLinkType, n);
            ifSnap = Arrays.copyOf(ifSnap, n);
            ifTsExp = Arrays.copyOf(ifTsExp, n);
            ifTsBinary = Arrays.copyOf(ifTsBinary, n);
            ifTsOffsetSeconds = Arrays.copyOf(ifTsOffsetSeconds, n);
        }
        int i = interfaces++;
        ifLinkType[i] = u16(body);
        ifSnap[i] = int32(body + 4);
        largestSnap = ifSnap[i] == 0 ? Math.max(largestSnap, 262_144) : Math.max(largestSnap, ifSnap[i]);
        ifTsExp[i] = 6;
        ifTsBinary[i] = false;
        ifTsOffsetSeconds[i] = 0;
        int p = body + 8;
        while (p + 4 <= end) {
            int code = u16(p);
            int len = u16(p + 2);
            int value = p + 4;
            if (code == 0 || value + len > end) {
                break;
            }
            if (code == OPTION_TSRESOL && len >= 1) {
                int r = buf[value] & 0xff;
                ifTsBinary[i] = (r & 0x80) != 0;
                ifTsExp[i] = r & 0x7f;
                if (!ifTsBinary[i] && ifTsExp[i] > 18 || ifTsBinary[i] && ifTsExp[i] > 62) {
                    throw new UserError(name + ": the pcapng interface block at byte " + at + " gives a timestamp resolution of "
                            + (ifTsBinary[i] ? "2" : "10") + "^-" + ifTsExp[i] + " s, which fluxperf cannot read");
                }
                anyNanos |= ifTsBinary[i] ? ifTsExp[i] > 20 : ifTsExp[i] > 6;
            } else if (code == OPTION_TSOFFSET && len >= 8) {
                ifTsOffsetSeconds[i] = int64(value);
            }
            p = value + ((len + 3) & ~3);
        }
    }

    private boolean enhanced(int body, int end, long at) {
        if (end - body < 20) {
            throw new UserError(name + ": the pcapng packet block at byte " + at + " is too short: the file is damaged");
        }
        int id = interfaceOf(int32(body), at);
        long ts = (int32(body + 4) & 0xffffffffL) << 32 | (int32(body + 8) & 0xffffffffL);
        int incl = int32(body + 12);
        long orig = int32(body + 16) & 0xffffffffL;
        if (incl < 0 || body + 20 + incl > end) {
            throw new UserError(name + ": the pcapng packet block at byte " + at + " claims " + (incl & 0xffffffffL)
                    + " captured bytes, more than the block holds: the file is damaged");
        }
        packet(id, ts, body + 20, incl, Math.max(orig, incl));
        return true;
    }

    private boolean simple(int body, int end, long at) {
        int id = interfaceOf(0, at);
        long orig = int32(body) & 0xffffffffL;
        int room = end - body - 4;
        int incl = (int) Math.min(orig, room);
        if (ifSnap[id] > 0) {
            incl = Math.min(incl, ifSnap[id]);
        }
        // a simple packet block has no timestamp: it keeps the last one seen
        linkType = ifLinkType[id];
        snapLength = ifSnap[id];
        dataOffset = body + 4;
        captured = incl;
        original = Math.max(orig, incl);
        return true;
    }

    private boolean obsolete(int body, int end, long at) {
        if (end - body < 20) {
            throw new UserError(name + ": the pcapng packet block at byte " + at + " is too short: the file is damaged");
        }
        int id = interfaceOf(u16(body), at);
        long ts = (int32(body + 4) & 0xffffffffL) << 32 | (int32(body + 8) & 0xffffffffL);
        int incl = int32(body + 12);
        long orig = int32(body + 16) & 0xffffffffL;
        if (incl < 0 || body + 20 + incl > end) {
            throw new UserError(name + ": the pcapng packet block at byte " + at + " claims " + (incl & 0xffffffffL)
                    + " captured bytes, more than the block holds: the file is damaged");
        }
        packet(id, ts, body + 20, incl, Math.max(orig, incl));
        return true;
    }

    private int interfaceOf(int id, long at) {
        if (id < 0 || id >= interfaces) {
            throw new UserError(name + ": the pcapng packet block at byte " + at + " names interface " + id
                    + ", which its section does not describe: the file is damaged");
        }
        return id;
    }

    private void packet(int id, long ts, int data, int incl, long orig) {
        timeNanos = toNanos(ts, ifTsExp[id], ifTsBinary[id]) + ifTsOffsetSeconds[id] * 1_000_000_000L;
        linkType = ifLinkType[id];
        snapLength = ifSnap[id];
        dataOffset = data;
        captured = incl;
        original = orig;
    }

    /** A pcapng timestamp in units of 10^-exp or 2^-exp seconds, as ns. */
    static long toNanos(long units, int exp, boolean binary) {
        if (binary) {
            long whole = units >>> exp;
            long fraction = units & ((1L << exp) - 1);
            long fractionNanos = exp <= 33 ? (fraction * 1_000_000_000L) >>> exp
                    : (long) (fraction / Math.pow(2, exp) * 1e9);
            return whole * 1_000_000_000L + fractionNanos;
        }
        if (exp <= 9) {
            long scale = 1;
            for (int i = exp; i < 9; i++) {
                scale *= 10;
            }
            return units * scale;
        }
        long scale = 1;
        for (int i = 9; i < exp; i++) {
            scale *= 10;
        }
        return units / scale;
    }

    // ---- the current packet ----

    public byte[] data() {
        return buf;
    }

    public int dataOffset() {
        return dataOffset;
    }

    /** Bytes of the packet in the file. */
    public int capturedLength() {
        return captured;
    }

    /** Bytes the packet had on the wire (more than {@link #capturedLength()} when the snap length cut it). */
    public long originalLength() {
        return original;
    }

    /** Capture time, ns since the epoch. */
    public long timeNanos() {
        return timeNanos;
    }

    /** The link type of the packet's interface (LINKTYPE_ values of tcpdump.org). */
    public int linkType() {
        return linkType;
    }

    /** The snap length of the packet's interface, bytes (0: none given). */
    public int snapLength() {
        return snapLength;
    }

    /** 1-based number of the packet. */
    public long packetNumber() {
        return packets;
    }

    /** Where the packet's record (pcap) or block (pcapng) starts, bytes into the (decompressed) file. */
    public long recordOffset() {
        return recordOffset;
    }

    // ---- the file ----

    public Kind kind() {
        return kind;
    }

    /** Whether timestamps are finer than microseconds. */
    public boolean nanosecondTimestamps() {
        return anyNanos;
    }

    /** The largest snap length of the file's interfaces, bytes. */
    public int largestSnapLength() {
        return largestSnap;
    }

    // ---- bytes ----

    /**
     * Makes {@code n} bytes from {@link #pos} available in the buffer; false when the stream ends first.
     */
    private boolean fill(int n) {
        if (limit - pos >= n) {
            return true;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            base += pos;
            limit -= pos;
            pos = 0;
        }
        if (n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(n, Math.min(buf.length * 2, MAX_RECORD + 64)));
        }
        while (limit < n && !eof) {
            int k;
            try {
                k = in.read(buf, limit, buf.length - limit);
            } catch (IOException e) {
                throw new UserError(name + ": cannot read at byte " + (base + limit) + ": " + e.getMessage(), e);
            }
            if (k < 0) {
                eof = true;
            } else {
                limit += k;
            }
        }
        return limit - pos >= n;
    }

    private static final java.lang.invoke.VarHandle BE_INT =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.BIG_ENDIAN);
    private static final java.lang.invoke.VarHandle LE_INT =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(int[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private int beInt(int at) {
        return (int) BE_INT.get(buf, at);
    }

    private int leInt(int at) {
        return (int) LE_INT.get(buf, at);
    }

    private int int32(int at) {
        return bigEndian ? beInt(at) : leInt(at);
    }

    private long int64(int at) {
        long a = int32(at) & 0xffffffffL;
        long b = int32(at + 4) & 0xffffffffL;
        return bigEndian ? a << 32 | b : b << 32 | a;
    }

    private int u16(int at) {
        int v = (buf[at] & 0xff) << 8 | buf[at + 1] & 0xff;
        return bigEndian ? v : Integer.reverseBytes(v) >>> 16;
    }

    private String hex(int from, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < from + n && i < limit; i++) {
            s.append(i > from ? " " : "").append(String.format("%02x", buf[i] & 0xff));
        }
        return s.toString();
    }
}
