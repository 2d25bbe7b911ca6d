package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogInput;

/**
 * The one thread of a split read that reads the file and decodes its packets. It keeps the capture's
 * clock as {@link CaptureReader} does ({@code now}, the {@link CaptureReader#SWEEP_NANOS} sweeps, the
 * first packet's time) and gives each TCP segment, its payload copied, to the share its connection's
 * hash names (the same both ways); a sweep and the capture's end go to every share.
 */
final class SplitFileThread implements Runnable {
    private final LogInput input;
    private final CaptureFile file;
    private final SplitRing ring;
    private final int threads;
    private final TcpSegment seg = new TcpSegment();

    SplitFileThread(LogInput input, CaptureFile file, SplitRing ring, int threads) {
        this.input = input;
        this.file = file;
        this.ring = ring;
        this.threads = threads;
    }

    @Override
    public void run() {
        long k = 0;
        SplitChunk c = null;
        long pos = 0;
        try {
            c = ring.take(k);
            long first = Long.MIN_VALUE;
            long now = 0;
            long lastSweep = 0;
            while (c != null && file.next()) {
                long t = file.timeNanos();
                if (first == Long.MIN_VALUE) {
                    first = t;
                    lastSweep = t;
                }
                now = Math.max(now, t);
                pos = input.filePosition();
                int kind = PacketDecoder.decode(file.data(), file.dataOffset(), file.capturedLength(), file.linkType(), seg);
                if (kind == PacketDecoder.TCP) {
                    TcpSegment s = seg;
                    int h = CaptureReader.hash(s.srcHi, s.srcLo, s.srcPort) + CaptureReader.hash(s.dstHi, s.dstLo, s.dstPort);
                    int w = Math.floorMod(h ^ h >>> 16, threads);
                    c.add(w, c.in[w].segment(s, t, now, file.packetNumber(), pos, first));
                }
                if (now - lastSweep >= CaptureReader.SWEEP_NANOS) {
                    lastSweep = now;
                    c.addAll(SplitItems.SWEEP, now, pos, first);
                }
                if (c.full()) {
                    ring.publish(c, k++, pos, file.packetNumber());
                    c = null;
                    c = ring.take(k);
                }
            }
            if (c != null) {
                c.addAll(SplitItems.END, now, input.filePosition(), first);
                ring.publish(c, k++, input.filePosition(), file.packetNumber());
                c = null;
            }
            ring.finish(k, null);
        } catch (Throwable t) {
            if (c != null) {
                ring.publish(c, k++, pos, file.packetNumber()); // the packets before the failure are given out, as one reader gives them
            }
            ring.finish(k, t);
        } finally {
            ring.fileDone();
        }
    }
}
