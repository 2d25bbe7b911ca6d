package io.fluxperf.engine.log.capture;

import java.util.Arrays;

/**
 * One share's items of a {@link SplitChunk}: segments with their payloads copied, sweeps and the end.
 * The file thread fills it and the share's thread reads it back into a {@link TcpSegment}; kept as
 * parallel arrays so a chunk, once grown, is refilled without allocating.
 */
final class SplitItems {
    static final byte SEGMENT = 0;
    static final byte SWEEP = 1;
    static final byte END = 2;

    int count;
    byte[] kind = new byte[256];
    long[] time = new long[256];
    long[] now = new long[256];
    long[] packet = new long[256];
    long[] position = new long[256];
    long[] first = new long[256];
    long[] srcHi = new long[256];
    long[] srcLo = new long[256];
    long[] dstHi = new long[256];
    long[] dstLo = new long[256];
    int[] srcPort = new int[256];
    int[] dstPort = new int[256];
    int[] seq = new int[256];
    int[] ack = new int[256];
    int[] flags = new int[256];
    int[] from = new int[256];
    int[] length = new int[256];
    int[] missing = new int[256];
    byte[] bytes = new byte[1 << 16];
    int used;

    void clear() {
        count = 0;
        used = 0;
    }

    /** Adds {@code s}; returns its payload's length. */
    int segment(TcpSegment s, long t, long nowNanos, long packetNumber, long pos, long firstNanos) {
        int i = slot();
        kind[i] = SEGMENT;
        time[i] = t;
        now[i] = nowNanos;
        packet[i] = packetNumber;
        position[i] = pos;
        first[i] = firstNanos;
        srcHi[i] = s.srcHi;
        srcLo[i] = s.srcLo;
        dstHi[i] = s.dstHi;
        dstLo[i] = s.dstLo;
        srcPort[i] = s.srcPort;
        dstPort[i] = s.dstPort;
        seq[i] = s.seq;
        ack[i] = s.ack;
        flags[i] = s.flags;
        missing[i] = s.missing;
        int n = s.payloadLength;
        if (used + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(used + n, bytes.length * 2));
        }
        System.arraycopy(s.data, s.payloadOffset, bytes, used, n);
        from[i] = used;
        length[i] = n;
        used += n;
        return n;
    }

    void mark(byte k, long nowNanos, long pos, long firstNanos) {
        int i = slot();
        kind[i] = k;
        now[i] = nowNanos;
        position[i] = pos;
        first[i] = firstNanos;
    }

    void fill(int i, TcpSegment s) {
        s.srcHi = srcHi[i];
        s.srcLo = srcLo[i];
        s.dstHi = dstHi[i];
        s.dstLo = dstLo[i];
        s.srcPort = srcPort[i];
        s.dstPort = dstPort[i];
        s.seq = seq[i];
        s.ack = ack[i];
        s.flags = flags[i];
        s.missing = missing[i];
        s.data = bytes;
        s.payloadOffset = from[i];
        s.payloadLength = length[i];
    }

    private int slot() {
        if (count == kind.length) {
            int n = count * 2;
            kind = Arrays.copyOf(kind, n);
            time = Arrays.copyOf(time, n);
            now = Arrays.copyOf(now, n);
            packet = Arrays.copyOf(packet, n);
            position = Arrays.copyOf(position, n);
            first = Arrays.copyOf(first, n);
            srcHi = Arrays.copyOf(srcHi, n);
            srcLo = Arrays.copyOf(srcLo, n);
            dstHi = Arrays.copyOf(dstHi, n);
            dstLo = Arrays.copyOf(dstLo, n);
            srcPort = Arrays.copyOf(srcPort, n);
            dstPort = Arrays.copyOf(dstPort, n);
            seq = Arrays.copyOf(seq, n);
            ack = Arrays.copyOf(ack, n);
            flags = Arrays.copyOf(flags, n);
            from = Arrays.copyOf(from, n);
            length = Arrays.copyOf(length, n);
            missing = Arrays.copyOf(missing, n);
        }
        return count++;
    }
}
