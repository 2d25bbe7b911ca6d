package io.fluxperf.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceWriterFailureTest {

    @TempDir
    Path tmp;

    @Test
    void anIoFailureStopsTracingCountsTheLostRecordsAndNeverThrowsIntoTheCaller() {
        Path dir = tmp.resolve("failing");
        TraceRecord r = new TraceRecord();
        TraceWriter w = TraceWriter.open(dir, TestTraces.header());
        for (int i = 0; i < 100; i++) {
            assertTrue(w.append(TestTraces.fill(r, i)));
            if (i == 63) {
                w.flush(); // 64 records in the queue; the other 36 wait in the batch
            }
        }
        assertEquals(100, w.recordsWritten(), "taken so far");
        w.queue().close(); // the queue's files go away underneath the writer, as on a failed disk
        int firstRefused = -1;
        for (int i = 100; i < 100 + 2 * TraceWriter.BATCH_RECORDS; i++) {
            boolean taken = w.append(TestTraces.fill(r, i));
            if (!taken && firstRefused < 0) {
                firstRefused = i;
            }
            assertTrue(taken == (firstRefused < 0), "every append after the failure is refused (record " + i + ")");
        }
        assertTrue(firstRefused > 0 && firstRefused < 100 + TraceWriter.BATCH_RECORDS,
                "the failure shows at the next batch write, within a batch: " + firstRefused);
        assertTrue(w.failed());
        long appended = 100 + 2 * TraceWriter.BATCH_RECORDS;
        long written = w.recordsWritten();
        long lost = w.recordsLost();
        assertEquals(appended, written + lost, "every append is counted once");
        assertTrue(written < 100 && lost > appended - 100, "the batch that failed counts as lost: " + written + "/" + lost);
        assertTrue(w.failure().isPresent());
        assertTrue(w.statusLine().startsWith("Trace: INCOMPLETE: " + written + " records in " + dir + ", " + lost
                + " records LOST after failure: "), w.statusLine());
        w.close();
        assertEquals(written, w.recordsWritten(), "close writes no batch after a failure");

        try (TraceReader reader = TraceReader.open(dir)) {
            assertEquals(written, TestTraces.readBackInOrder(reader));
            assertEquals(lost, reader.footer().orElseThrow().recordsLost());
            String warning = reader.warning().orElseThrow();
            assertTrue(warning.startsWith("Trace " + dir + " is incomplete: its writer LOST " + lost
                    + " records after a failure"), warning);
        }
    }

    @Test
    void closingWhileThreadsStillAppendLosesNothingUncountedAndCrashesNothing() throws Exception {
        Path dir = tmp.resolve("busy");
        TraceWriter w = TraceWriter.open(dir, TestTraces.header());
        AtomicLong calls = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            Thread th = new Thread(() -> {
                TraceRecord r = new TraceRecord();
                for (long i = 0; i < 300_000; i++) {
                    w.append(TestTraces.fill(r, i));
                    calls.incrementAndGet();
                }
            });
            th.start();
            threads.add(th);
        }
        while (w.recordsWritten() < 50_000) {
            Thread.onSpinWait();
        }
        w.close(); // while the threads keep appending
        for (Thread th : threads) {
            th.join();
        }
        assertEquals(calls.get(), w.recordsWritten() + w.recordsLost());
        assertTrue(w.recordsLost() > 0, "some appends came after close");
        try (TraceReader reader = TraceReader.open(dir)) {
            TraceRecord r = new TraceRecord();
            long n = 0;
            while (reader.next(r)) {
                n++;
            }
            assertEquals(w.recordsWritten(), n);
            assertEquals(n, reader.footer().orElseThrow().recordsWritten());
        }
    }
}
