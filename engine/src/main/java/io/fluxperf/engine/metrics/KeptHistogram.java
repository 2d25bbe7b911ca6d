package io.fluxperf.engine.metrics;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * A latency histogram kept after its window was reported, in HdrHistogram's own encoding (its
 * counts with runs of zeros folded): a typical window's histogram takes 5–15 KB this way instead
 * of the 270 KB of counts a {@link io.fluxperf.trace.LatencyHistograms#create() full one} holds.
 *
 * <p>Encoding takes a quarter of a millisecond. The {@code PackedHistogram} copy used before took
 * 20–40 ms per histogram (its packed array grows one bucket at a time), six of them at each
 * window end: 100–150 ms of the run's thread on the client's CPU, handed out in scheduler slices
 * of 1–4 ms that held a paced load loop up at the start of every window.
 */
public final class KeptHistogram {
    private final byte[] encoded;
    private final long totalCount;
    private final long startTimeStamp;
    private final long endTimeStamp;
    private final String tag;

    private KeptHistogram(byte[] encoded, AbstractHistogram h) {
        this.encoded = encoded;
        this.totalCount = h.getTotalCount();
        this.startTimeStamp = h.getStartTimeStamp();
        this.endTimeStamp = h.getEndTimeStamp();
        this.tag = h.getTag();
    }

    /**
     * Encodes {@code h}'s counts; later changes to {@code h} do not show in the result. Encoding
     * needs a buffer of the histogram's worst case (270 KB for a latency histogram), so a caller
     * that keeps several histograms at once encodes them through one {@link Encoder}.
     */
    public static KeptHistogram of(AbstractHistogram h) {
        return new Encoder().keep(h);
    }

    /**
     * Keeps histograms one after another through one buffer of the worst case's size: a window's
     * compact copy encodes 2W + 4 histograms, and a buffer per histogram made 12 MB of garbage at
     * each window end of a 20-workload run (docs/bench-history.md, pass 41). Used by one thread;
     * the buffer goes when the encoder does.
     */
    public static final class Encoder {
        private ByteBuffer buffer = ByteBuffer.allocate(0);

        /** {@link KeptHistogram#of}, reusing this encoder's buffer. */
        public KeptHistogram keep(AbstractHistogram h) {
            int needed = h.getNeededByteBufferCapacity();
            if (buffer.capacity() < needed) {
                buffer = ByteBuffer.allocate(needed);
            }
            buffer.clear();
            int length = h.encodeIntoByteBuffer(buffer);
            return new KeptHistogram(Arrays.copyOf(buffer.array(), length), h);
        }
    }

    /**
     * A new full histogram with the kept counts, range and precision (a fresh copy on each call:
     * callers read it once per report, and a kept window stays small).
     */
    public Histogram histogram() {
        Histogram h = Histogram.decodeFromByteBuffer(ByteBuffer.wrap(encoded), 0);
        h.setStartTimeStamp(startTimeStamp);
        h.setEndTimeStamp(endTimeStamp);
        h.setTag(tag);
        return h;
    }

    /** The number of values recorded, without decoding. */
    public long totalCount() {
        return totalCount;
    }

    /** Bytes this copy holds. */
    public int encodedBytes() {
        return encoded.length;
    }
}
