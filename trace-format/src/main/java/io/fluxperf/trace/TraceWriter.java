package io.fluxperf.trace;

import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes trace records into a trace directory: a Chronicle Queue (binary, hourly files) plus the
 * header {@value TraceFiles#HEADER_FILE} written at open and the end marker
 * {@value TraceFiles#FOOTER_FILE} written at {@link #close()}.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>{@link #append(TraceRecord)} may be called from any number of threads at once. Each thread
 *       gathers its records in its own batch and writes the batch as one Chronicle excerpt, through
 *       its own appender (appenders are confined to their thread), when it holds
 *       {@value #BATCH_RECORDS} records (or {@value #BATCH_BYTES} bytes), when its first record completed
 *       {@value #BATCH_MAX_AGE_MILLIS} ms before the record being added, at {@link #flush()} and at
 *       {@link #close()}. One excerpt per record cost more than the record itself (Chronicle's
 *       clock read, write lock and index per excerpt). So records of one thread are in append
 *       order, and records of different threads are ordered batch by batch.</li>
 *   <li>{@code append} never throws for an I/O problem and allocates nothing per record. It copies
 *       the record into its thread's batch and returns; the caller may reuse the record at once.
 *       The only waits are in writing a batch: Chronicle's short write lock between appending
 *       threads and the page faults of a new memory-mapped chunk.</li>
 *   <li>A writer killed with {@code kill -9} loses what its batches held: at most
 *       {@value #BATCH_RECORDS} records or {@value #BATCH_MAX_AGE_MILLIS} ms of each thread.</li>
 *   <li>On the first failure (a full disk, a closed file) tracing stops: the batch being written,
 *       every batch not yet written and every later record are counted in {@link #recordsLost()},
 *       the failure is kept in {@link #failure()}, and records already written stay readable. A
 *       trace that lost records says so in its end marker. {@link #recordsWritten()} counts the
 *       records taken and not lost, so that at every moment the two add up to the records
 *       appended.</li>
 *   <li>{@link #close()} waits for appends in progress (up to 10 s), writes every thread's batch,
 *       closes the queue and writes the end marker; appends after it are counted as lost.</li>
 * </ul>
 */
public final class TraceWriter implements AutoCloseable {

    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Path directory;
    private final TraceHeader header;
    private final SingleChronicleQueue queue;
    private final ThreadLocal<Slot> slots;
    private final Queue<Slot> allSlots = new ConcurrentLinkedQueue<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean closed;
    private volatile boolean failed;

    private TraceWriter(Path directory, TraceHeader header, SingleChronicleQueue queue) {
        this.directory = directory;
        this.header = header;
        this.queue = queue;
        this.slots = ThreadLocal.withInitial(() -> {
            Slot s = new Slot();
            allSlots.add(s);
            return s;
        });
    }

    /**
     * Creates the trace directory (it must be new or empty), writes the header and opens the queue.
     *
     * @throws TraceFormatException when the directory is a file, is not empty or cannot be created
     */
    public static TraceWriter open(Path directory, TraceHeader header) {
        if (Files.exists(directory)) {
            if (!Files.isDirectory(directory)) {
                throw new TraceFormatException(directory + " is a file; a trace needs a new or empty directory.");
            }
            if (!TraceFiles.isEmpty(directory)) {
                throw new TraceFormatException(directory + " is not empty; a trace needs a new or empty directory"
                        + " (delete it or choose another).");
            }
        }
        try {
            Files.createDirectories(directory);
            TraceFiles.writeAtomically(directory.resolve(TraceFiles.HEADER_FILE), header.toJson());
        } catch (IOException e) {
            throw new TraceFormatException("Cannot create trace directory " + directory + ": " + FileErrors.describe(e) + ".", e);
        }
        SingleChronicleQueue queue;
        try {
            queue = SingleChronicleQueueBuilder.binary(directory).rollCycle(RollCycles.FAST_HOURLY).build();
        } catch (RuntimeException e) {
            throw new TraceFormatException("Cannot open the trace queue in " + directory + ": "
                    + (e.getMessage() != null ? e.getMessage() : "the queue library failed") + ".", e);
        }
        return new TraceWriter(directory, header, queue);
    }

    /**
     * Records a thread gathers before writing them as one excerpt (fewer when they fill
     * {@value #BATCH_BYTES} bytes first). Chronicle's work per excerpt (its clock, lock and index)
     * runs cold on a busy event loop: measured on a whole traced run, 64 records to an excerpt cost
     * 0.88 of the untraced requests/s and 1,024 cost 0.935.
     */
    public static final int BATCH_RECORDS = 1024;

    /** The batch array's size: a batch is written before a record that might not fit in it. */
    public static final int BATCH_BYTES = 64 * 1024;

    /** A batch whose first record completed this long before the record being added is written. */
    public static final long BATCH_MAX_AGE_MILLIS = 100;

    private static final long BATCH_MAX_AGE_NANOS = TimeUnit.MILLISECONDS.toNanos(BATCH_MAX_AGE_MILLIS);

    /**
     * Appends one record to the calling thread's batch. Callable from any thread; never throws for
     * I/O trouble.
     *
     * @return true when the record was taken, false when it was counted as lost (tracing stopped
     * after a failure, or the writer is closed). A record taken may still be lost if writing its
     * batch fails later; the counts then say so.
     */
    public boolean append(TraceRecord record) {
        return append(slots.get(), record);
    }

    /**
     * The calling thread's appender: the same as {@link #append} and {@link #flush()} from that
     * thread, without looking its batch up on every call (a thread-local look-up per record, which
     * a busy event loop's cold caches made a tenth of the trace's cost). Use it on the thread that
     * got it, and only there.
     */
    public ThreadAppender forThisThread() {
        return new ThreadAppender(slots.get());
    }

    /** One thread's way into the writer; see {@link #forThisThread()}. Not thread-safe. */
    public final class ThreadAppender {
        private final Slot slot;

        private ThreadAppender(Slot slot) {
            this.slot = slot;
        }

        /** {@link TraceWriter#append(TraceRecord)} from this appender's thread. */
        public boolean append(TraceRecord record) {
            return TraceWriter.this.append(slot, record);
        }

        /** {@link TraceWriter#flush()} from this appender's thread. */
        public void flush() {
            TraceWriter.this.flush(slot);
        }
    }

    private boolean append(Slot s, TraceRecord record) {
        s.busy = 1; // volatile store: close() sees it, or this thread sees closed
        try {
            if (closed || failed) {
                LOST.setRelease(s, s.lost + 1);
                return false;
            }
            boolean taken = false;
            try {
                if (s.records > 0 && (s.length + record.maxEncodedLength() > s.batch.length
                        || record.completionNanos() - s.firstCompletionNanos > BATCH_MAX_AGE_NANOS)) {
                    writeBatch(s, s.appender());
                }
                s.add(record);
                taken = true;
                WRITTEN.setRelease(s, s.written + 1);
                if (s.records >= BATCH_RECORDS) {
                    writeBatch(s, s.appender());
                }
                return true;
            } catch (Throwable t) {
                batchFailed(s, t);
                if (!taken) {
                    LOST.setRelease(s, s.lost + 1);
                }
                return false;
            }
        } finally {
            BUSY.setRelease(s, 0);
        }
    }

    /**
     * Writes the calling thread's batch into the queue now, so that a reader (or a writer killed
     * after this) has every record this thread appended.
     */
    public void flush() {
        flush(slots.get());
    }

    private void flush(Slot s) {
        s.busy = 1;
        try {
            if (closed || failed || s.records == 0) {
                return;
            }
            try {
                writeBatch(s, s.appender());
            } catch (Throwable t) {
                batchFailed(s, t);
            }
        } finally {
            BUSY.setRelease(s, 0);
        }
    }

    /**
     * Writing the slot's batch failed: tracing stops and the batch's records count as lost.
     * OutOfMemoryError and StackOverflowError are not ours to hide; InternalError is how the JVM
     * reports SIGBUS on a memory-mapped file of a full disk.
     */
    private void batchFailed(Slot s, Throwable t) {
        if (t instanceof VirtualMachineError && !(t instanceof InternalError)) {
            throw (VirtualMachineError) t;
        }
        fail(t);
        s.batchLost();
    }

    /** Writes the slot's records as one excerpt and empties the batch; throws what Chronicle throws. */
    private static void writeBatch(Slot s, ExcerptAppender a) {
        try (DocumentContext dc = a.writingDocument()) {
            try {
                dc.wire().bytes().write(s.batch, 0, s.length);
            } catch (Throwable t) {
                dc.rollbackOnClose();
                throw t;
            }
        }
        s.records = 0;
        s.length = 0;
    }

    private void fail(Throwable t) {
        failure.compareAndSet(null, t);
        failed = true;
    }

    /** Records written so far, over all threads. */
    public long recordsWritten() {
        long n = 0;
        for (Slot s : allSlots) {
            n += (long) WRITTEN.getAcquire(s);
        }
        return n;
    }

    /** Records that could not be written (after a failure or after close), over all threads. */
    public long recordsLost() {
        long n = 0;
        for (Slot s : allSlots) {
            n += (long) LOST.getAcquire(s);
        }
        return n;
    }

    /** True once an I/O failure stopped tracing. */
    public boolean failed() {
        return failed;
    }

    /** The failure that stopped tracing, described in one line, if there was one. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure.get()).map(TraceWriter::describe);
    }

    private static String describe(Throwable t) {
        String msg = FileErrors.describe(t);
        if (t instanceof InternalError) {
            msg += " (a memory-mapped write failed; is the disk full?)";
        }
        return msg;
    }

    /** One line for the run report, e.g. {@code Trace: 1200345 records in /tmp/t}; loud when records were lost. */
    public String statusLine() {
        return statusLine(recordsWritten(), recordsLost(), failed, failure().orElse(null), directory);
    }

    /**
     * The trace's line from its figures (a run directory keeps them, and shows the line again).
     *
     * @param failure why writing failed, or null
     */
    public static String statusLine(long written, long lost, boolean failed, String failure, Path directory) {
        if (lost == 0 && !failed) {
            return "Trace: " + written + " records in " + directory;
        }
        return "Trace: INCOMPLETE: " + written + " records in " + directory + ", " + lost + " records LOST"
                + (failure != null ? " after failure: " + failure : " (appended after close)");
    }

    /** The queue, for tests that break it underneath the writer. */
    SingleChronicleQueue queue() {
        return queue;
    }

    public Path directory() {
        return directory;
    }

    public TraceHeader header() {
        return header;
    }

    /**
     * Stops accepting records, waits for appends in progress, closes the queue (its data is then in
     * the files) and writes the end marker with the counts. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean quiet = awaitAppendsInProgress();
        if (quiet) {
            writeRemainingBatches();
            try {
                for (Slot s : allSlots) {
                    ExcerptAppender a = s.appender;
                    if (a != null) {
                        a.singleThreadedCheckDisabled(true);
                        a.close();
                    }
                }
                queue.close();
            } catch (RuntimeException e) {
                fail(e);
            }
        } else {
            // A thread is stuck inside an append: unmapping its file now could crash the JVM. Leave the
            // queue open (the OS keeps what was written) and say so in the end marker.
            fail(new IllegalStateException("an append did not finish within 10 s of close"));
        }
        try {
            TraceFiles.writeFooter(directory, new TraceFooter(recordsWritten(), recordsLost(),
                    failure().orElse(null), epochNanosNow()));
        } catch (IOException e) {
            fail(e); // the reader will report the trace as not closed cleanly, which is then true
        }
    }

    /** At close, with no append in progress: every thread's batch, through this thread's own appender. */
    private void writeRemainingBatches() {
        ExcerptAppender closing = null;
        for (Slot s : allSlots) {
            if (s.records == 0) {
                continue;
            }
            if (failed) {
                s.batchLost();
                continue;
            }
            try {
                if (closing == null) {
                    closing = queue.createAppender();
                }
                writeBatch(s, closing);
            } catch (Throwable t) {
                batchFailed(s, t);
            }
        }
        if (closing != null) {
            closing.close();
        }
    }

    private boolean awaitAppendsInProgress() {
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        for (Slot s : allSlots) {
            while (s.busy != 0) {
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                Thread.onSpinWait();
                Thread.yield();
            }
        }
        return true;
    }

    private static long epochNanosNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** Per-thread state: the thread's appender, its batch and its counters (written only by that thread). */
    private final class Slot {
        ExcerptAppender appender;
        /** Records laid out back to back, as the excerpt will hold them. */
        byte[] batch = new byte[BATCH_BYTES];
        int length;
        int records;
        long firstCompletionNanos;
        long written;
        long lost;
        volatile int busy;

        ExcerptAppender appender() {
            if (appender == null) {
                appender = queue.createAppender();
            }
            return appender;
        }

        void add(TraceRecord record) {
            int need = record.maxEncodedLength();
            if (length + need > batch.length) { // only when a single record outgrows an empty batch
                batch = Arrays.copyOf(batch, length + need);
            }
            if (records == 0) {
                firstCompletionNanos = record.completionNanos();
            }
            length = record.encodeInto(batch, length);
            records++;
        }

        /** The batch's records were counted as written; they are lost instead. */
        void batchLost() {
            WRITTEN.setRelease(this, written - records);
            LOST.setRelease(this, lost + records);
            records = 0;
            length = 0;
        }
    }

    private static final VarHandle WRITTEN;
    private static final VarHandle LOST;
    private static final VarHandle BUSY;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            WRITTEN = l.findVarHandle(Slot.class, "written", long.class);
            LOST = l.findVarHandle(Slot.class, "lost", long.class);
            BUSY = l.findVarHandle(Slot.class, "busy", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
