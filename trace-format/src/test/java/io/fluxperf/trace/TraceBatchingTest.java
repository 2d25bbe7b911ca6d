package io.fluxperf.trace;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Format 2: a writing thread puts up to {@link TraceWriter#BATCH_RECORDS} records in one Chronicle
 * excerpt; readers read them one by one, and still read format 1 (one record per excerpt).
 */
class TraceBatchingTest {

    @TempDir
    Path tmp;

    @Test
    void aThreadsRecordsGoIntoTheQueueABatchPerExcerptAndReadBackInOrder() {
        Path dir = tmp.resolve("batched");
        int n = 10 * TraceWriter.BATCH_RECORDS + 5;
        TestTraces.write(dir, n, DENSE);
        assertEquals(11, excerpts(dir), "10 full batches and the 5 records close wrote");
        assertReadsBack(dir, n, DENSE);
    }

    /** Records this close together fill a batch before its age limit writes it. */
    private static final long DENSE = 10_000;

    @Test
    void aBatchOlderThanItsLimitIsWrittenWithTheNextRecord() {
        Path dir = tmp.resolve("slow");
        TraceRecord r = new TraceRecord();
        long gap = (TraceWriter.BATCH_MAX_AGE_MILLIS + 1) * 1_000_000L;
        try (TraceWriter w = TraceWriter.open(dir, TestTraces.header())) {
            for (int i = 0; i < 4; i++) {
                w.append(r.clear().intendedSendNanos(i * gap).actualSendNanos(i * gap).completionNanos(i * gap + 10)
                        .keyLatin1("slow:" + i));
            }
            assertEquals(3, excerpts(dir), "records completed further apart than the limit are not held back");
        }
        assertEquals(4, excerpts(dir));
    }

    @Test
    void flushPutsTheCallingThreadsBatchInTheQueueForAReaderWhileTheWriterIsOpen() {
        Path dir = tmp.resolve("flushed");
        TraceRecord r = new TraceRecord();
        try (TraceWriter w = TraceWriter.open(dir, TestTraces.header())) {
            for (int i = 0; i < 10; i++) {
                w.append(TestTraces.fill(r, i));
            }
            assertEquals(0, excerpts(dir), "10 records wait in the batch");
            w.flush();
            assertEquals(1, excerpts(dir));
            try (TraceReader reader = TraceReader.open(dir)) {
                assertEquals(10, TestTraces.readBackInOrder(reader));
                assertFalse(reader.closedCleanly(), "still being written");
            }
        }
    }

    @Test
    void aFormatOneTraceWithOneRecordPerExcerptStillReads() throws Exception {
        Path dir = tmp.resolve("format1");
        TraceWriter.open(dir, TestTraces.header()).close(); // header and end marker, no records
        Path header = dir.resolve(TraceFiles.HEADER_FILE);
        Files.writeString(header, Files.readString(header)
                .replace("\"formatVersion\" : " + TraceHeader.FORMAT_VERSION, "\"formatVersion\" : 1"));
        Files.delete(dir.resolve(TraceFiles.FOOTER_FILE));
        TraceRecord r = new TraceRecord();
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).rollCycle(RollCycles.FAST_HOURLY).build();
             ExcerptAppender a = q.createAppender()) {
            for (int i = 0; i < 300; i++) {
                try (DocumentContext dc = a.writingDocument()) {
                    TestTraces.fill(r, i).writeMarshallable(dc.wire().bytes());
                }
            }
        }
        assertEquals(300, excerpts(dir));
        try (TraceReader reader = TraceReader.open(dir)) {
            assertEquals(1, reader.header().formatVersion());
        }
        assertReadsBack(dir, 300);
    }

    @Test
    void aThreadAppenderWritesThatThreadsBatchLikeAppendAndFlush() throws Exception {
        Path dir = tmp.resolve("thread-appender");
        int n = 3 * TraceWriter.BATCH_RECORDS + 7;
        TraceRecord r = new TraceRecord();
        try (TraceWriter w = TraceWriter.open(dir, TestTraces.header())) {
            Thread other = new Thread(() -> {
                TraceWriter.ThreadAppender a = w.forThisThread();
                TraceRecord mine = new TraceRecord();
                for (int i = 0; i < n; i++) {
                    assertTrue(a.append(TestTraces.fill(mine, i, DENSE)));
                }
                a.flush();
            });
            other.start();
            other.join();
            assertEquals(n, w.recordsWritten());
            assertEquals(4, excerpts(dir), "3 full batches and the 7 records the appender's flush wrote");
            w.append(TestTraces.fill(r, n, DENSE)); // this thread's own batch, written at close
        }
        assertReadsBack(dir, n + 1, DENSE);
    }

    @Test
    void aKeyLargerThanTheBatchArrayStillFits() {
        Path dir = tmp.resolve("big-keys");
        byte[] key = new byte[TraceRecord.MAX_KEY_BYTES];
        TraceRecord r = new TraceRecord();
        try (TraceWriter w = TraceWriter.open(dir, TestTraces.header())) {
            for (int i = 0; i < 20; i++) {
                key[0] = (byte) i;
                assertTrue(w.append(r.clear().completionNanos(i).key(key)));
            }
        }
        try (TraceReader reader = TraceReader.open(dir)) {
            for (int i = 0; i < 20; i++) {
                assertTrue(reader.next(r));
                assertEquals(TraceRecord.MAX_KEY_BYTES, r.keyLength());
                assertEquals((byte) i, r.keyBytes()[0]);
            }
            assertFalse(reader.next(r));
        }
    }

    private static void assertReadsBack(Path dir, long n) {
        assertReadsBack(dir, n, 1_000_000);
    }

    private static void assertReadsBack(Path dir, long n, long spacingNanos) {
        try (TraceReader reader = TraceReader.open(dir)) {
            assertEquals(n, TestTraces.readBackInOrder(reader, spacingNanos));
            assertEquals(n, reader.recordsRead());
        }
    }

    /** Excerpts in the queue, counted with Chronicle's own tailer. */
    private static long excerpts(Path dir) {
        if (!hasQueueFile(dir)) {
            return 0;
        }
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).readOnly(true)
                .rollCycle(RollCycles.FAST_HOURLY).build(); ExcerptTailer t = q.createTailer()) {
            long count = 0;
            while (true) {
                try (DocumentContext dc = t.readingDocument()) {
                    if (!dc.isPresent()) {
                        return count;
                    }
                    count++;
                }
            }
        }
    }

    private static boolean hasQueueFile(Path dir) {
        try (var files = Files.list(dir)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".cq4"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
