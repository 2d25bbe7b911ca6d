package io.fluxperf.trace;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The one-copy encoder writes exactly the bytes that Chronicle Bytes' own field-by-field writes
 * gave (layout version 1), so traces written before and after it read alike.
 */
class TraceRecordEncodingTest {

    private static final long[] EDGES = {0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, Integer.MAX_VALUE,
            Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, -1, -2, -127, -128, -129, -16_384, -16_385,
            1L << 62, -(1L << 62), 0x7F_FFFF_FFFFL};

    @Test
    void stopBitNumbersMatchChronicleAtEveryEdgeAndAtRandom() {
        SplittableRandom random = new SplittableRandom(7);
        long[] values = new long[EDGES.length + 2_000];
        System.arraycopy(EDGES, 0, values, 0, EDGES.length);
        for (int i = EDGES.length; i < values.length; i++) {
            values[i] = random.nextLong() >> random.nextInt(64); // every magnitude, both signs
        }
        for (long v : values) {
            Bytes<?> chronicle = Bytes.allocateElasticOnHeap(16);
            chronicle.writeStopBit(v);
            byte[] ours = new byte[11];
            int n = TraceRecord.putStopBit(ours, 0, v);
            assertArrayEquals(chronicle.toByteArray(), Arrays.copyOf(ours, n), "stop-bit encoding of " + v);
            assertEquals(v, Bytes.wrapForRead(Arrays.copyOf(ours, n)).readStopBit(), "read back " + v);
        }
    }

    @Test
    void recordsMatchTheFieldByFieldLayoutAndReadBack() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 500; i++) {
            byte[] key = new byte[i % 50 == 0 ? 3_000 + i : random.nextInt(40)]; // some outgrow the first array
            random.nextBytes(key);
            long intended = random.nextLong() >> random.nextInt(64);
            long actual = intended + (random.nextLong() >> random.nextInt(64));
            TraceRecord r = new TraceRecord().intendedSendNanos(intended).actualSendNanos(actual)
                    .completionNanos(actual + (random.nextLong() >> random.nextInt(64)))
                    .workload(random.nextInt(65_536)).protocol(random.nextInt(256)).command(random.nextInt(256))
                    .outcome(random.nextInt(256)).flags(random.nextInt(256))
                    .key(key).keyCount(random.nextInt()).valueSize(random.nextInt()).requestBytes(random.nextInt())
                    .responseBytes(random.nextInt()).connectionId(random.nextInt());

            Bytes<?> written = Bytes.allocateElasticOnHeap(64);
            r.writeMarshallable(written);
            assertArrayEquals(fieldByField(r), written.toByteArray(), "record " + i);

            TraceRecord back = new TraceRecord();
            back.readMarshallable(written);
            assertEquals(r.intendedSendNanos(), back.intendedSendNanos());
            assertEquals(r.actualSendNanos(), back.actualSendNanos());
            assertEquals(r.completionNanos(), back.completionNanos());
            assertEquals(r.connectionId(), back.connectionId());
            assertEquals(r.keyCount(), back.keyCount());
            assertArrayEquals(r.keyBytes(), back.keyBytes());
            assertEquals(0, written.readRemaining(), "nothing left after record " + i);
        }
    }

    /** Version 1 as Chronicle Bytes wrote it before the one-copy encoder. */
    private static byte[] fieldByField(TraceRecord r) {
        Bytes<?> out = Bytes.allocateElasticOnHeap(64);
        out.writeByte(TraceRecord.LAYOUT_VERSION);
        out.writeByte((byte) r.flags());
        out.writeByte((byte) r.outcome());
        out.writeByte((byte) r.protocol());
        out.writeByte((byte) r.command());
        out.writeShort((short) r.workload());
        out.writeStopBit(r.intendedSendNanos());
        out.writeStopBit(r.actualSendNanos() - r.intendedSendNanos());
        out.writeStopBit(r.completionNanos() - r.actualSendNanos());
        out.writeStopBit(r.connectionId());
        out.writeStopBit(r.valueSize());
        out.writeStopBit(r.requestBytes());
        out.writeStopBit(r.responseBytes());
        out.writeStopBit(r.keyCount());
        byte[] key = r.keyBytes();
        out.writeStopBit(key.length);
        out.write(key);
        return out.toByteArray();
    }
}
