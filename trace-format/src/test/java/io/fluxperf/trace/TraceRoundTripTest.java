package io.fluxperf.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceRoundTripTest {

    @TempDir
    Path tmp;

    @Test
    void everyFieldAndTheHeaderRoundTrip() {
        Path dir = tmp.resolve("trace");
        byte[] longKey = new byte[300];
        for (int i = 0; i < longKey.length; i++) {
            longKey[i] = (byte) i; // all byte values, including 0 and 0xFF
        }
        List<TraceRecord> written = new ArrayList<>();
        written.add(new TraceRecord().intendedSendNanos(5).actualSendNanos(3).completionNanos(2)
                .workload(65535).protocol(255).command(255).outcome(Outcome.CLOSED).flags(0xFF & ~2)
                .key(longKey).keyCount(1000).valueSize(Integer.MAX_VALUE).requestBytes(Integer.MAX_VALUE)
                .responseBytes(0).connectionId(-1));
        written.add(new TraceRecord().intendedSendNanos(Long.MAX_VALUE / 4).actualSendNanos(Long.MAX_VALUE / 4)
                .completionNanos(Long.MAX_VALUE / 4 + 3_600_000_000_000L).outcome(Outcome.TIMEOUT)
                .key(ByteBuffer.wrap("buffer-key".getBytes(StandardCharsets.US_ASCII))).connectionId(7));
        written.add(new TraceRecord().intendedSendNanos(-1_000).actualSendNanos(-10).completionNanos(0)
                .keyLatin1("")); // empty key, negative times
        written.add(new TraceRecord().key(new byte[TraceRecord.MAX_KEY_BYTES + 10])); // truncated
        for (int i = 0; i < 20; i++) {
            written.add(TestTraces.fill(new TraceRecord(), i));
        }
        try (TraceWriter w = TraceWriter.open(dir, TestTraces.header())) {
            for (TraceRecord r : written) {
                assertTrue(w.append(r));
            }
            assertEquals(written.size(), w.recordsWritten());
        }
        assertEquals(TraceRecord.FLAG_KEY_TRUNCATED, written.get(3).flags());
        assertEquals(TraceRecord.MAX_KEY_BYTES, written.get(3).keyLength());

        try (TraceReader reader = TraceReader.open(dir)) {
            TraceHeader h = reader.header();
            assertEquals(TraceHeader.FORMAT_VERSION, h.formatVersion());
            assertEquals("0.1.0-test", h.fluxperfVersion());
            assertEquals(1_700_000_000_000_000_000L, h.clockOriginEpochNanos());
            assertEquals(123_456_789L, h.clockOriginMonotonicNanos());
            assertEquals("{\"target\":\"127.0.0.1:11211\",\"rate\":1000}", h.configJson());
            assertEquals(TestTraces.WORKLOADS, h.workloads());
            assertEquals(TestTraces.COMMANDS, h.commands());
            assertEquals(TestTraces.PROTOCOLS, h.protocols());
            assertEquals("mget", h.commandName(3));
            assertEquals("command#9", h.commandName(9));
            assertEquals(1, h.commandCode("SET"));
            assertEquals(-1, h.commandCode("incr"));

            TraceRecord r = new TraceRecord();
            for (TraceRecord expected : written) {
                assertTrue(reader.next(r));
                assertEquals(expected, r, () -> "expected " + expected + " but read " + r);
            }
            assertArrayEquals(longKey, Arrays.copyOf(written.get(0).keyBytes(), 300));
            assertFalse(reader.next(r));
            assertEquals(written.size(), reader.recordsRead());
            assertTrue(reader.closedCleanly());
            assertTrue(reader.warning().isEmpty(), () -> reader.warning().get());
            assertEquals(written.size(), reader.footer().orElseThrow().recordsWritten());
        }
    }

    @Test
    void keyTextEscapesWhatIsNotPrintable() {
        TraceRecord r = new TraceRecord().key(new byte[]{'a', '\\', 0, (byte) 0xff, ' ', 'z'});
        assertEquals("a\\\\\\x00\\xff z", r.keyText());
    }

    @Test
    void severalWriterThreadsEachWithItsOwnAppender() throws Exception {
        Path dir = tmp.resolve("threads");
        int threads = 4;
        int perThread = 50_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        try (TraceWriter w = TraceWriter.open(dir, TestTraces.header())) {
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread th = new Thread(() -> {
                    TraceRecord r = new TraceRecord();
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        // connection id = thread, intended time = sequence within the thread
                        w.append(r.clear().connectionId(id).intendedSendNanos(i).actualSendNanos(i)
                                .completionNanos(i + 10).keyLatin1("t" + id + ":" + i));
                    }
                }, "writer-" + t);
                th.start();
                workers.add(th);
            }
            start.countDown();
            for (Thread th : workers) {
                th.join();
            }
            assertEquals((long) threads * perThread, w.recordsWritten());
            assertEquals(0, w.recordsLost());
        }
        long[] nextPerThread = new long[threads];
        Set<String> keys = new HashSet<>();
        try (TraceReader reader = TraceReader.open(dir)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                int id = r.connectionId();
                // each thread's records come back in its own order
                assertEquals(nextPerThread[id], r.intendedSendNanos());
                nextPerThread[id]++;
                keys.add(r.keyText());
            }
            assertEquals((long) threads * perThread, reader.recordsRead());
            assertTrue(reader.warning().isEmpty());
        }
        for (long n : nextPerThread) {
            assertEquals(perThread, n);
        }
        assertEquals(threads * perThread, keys.size());
    }

    @Test
    void appendsAfterCloseAreCountedAsLostNotThrown() {
        Path dir = tmp.resolve("closed");
        TraceWriter w = TraceWriter.open(dir, TestTraces.header());
        TraceRecord r = TestTraces.fill(new TraceRecord(), 1);
        assertTrue(w.append(r));
        w.close();
        assertFalse(w.append(r));
        assertEquals(1, w.recordsWritten());
        assertEquals(1, w.recordsLost());
        assertTrue(w.statusLine().contains("LOST"), w.statusLine());
    }
}
