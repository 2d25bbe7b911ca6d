package io.fluxperf.trace;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads a trace directory record by record, in the order the records were appended, into a
 * {@link TraceRecord} the caller reuses: memory stays bounded whatever the trace's size.
 *
 * <p>{@link #open(Path)} refuses, with a {@link TraceFormatException} whose message is one sentence
 * naming the directory: a path that does not exist or is a file, an empty directory, a directory
 * that is not a trace, a trace of an unknown format version, and a trace without records.
 *
 * <p>A trace whose writer was killed has no end marker: it reads up to its last whole record (a
 * record being written at the kill is not complete in the queue and is not returned), and
 * {@link #closedCleanly()} is false. Check {@link #warning()} after the last record.
 */
public final class TraceReader implements AutoCloseable {

    private final Path directory;
    private final TraceHeader header;
    private final Optional<TraceFooter> footer;
    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private long recordsRead;
    private boolean atEnd;

    private TraceReader(Path directory, TraceHeader header, Optional<TraceFooter> footer,
                        SingleChronicleQueue queue, ExcerptTailer tailer) {
        this.directory = directory;
        this.header = header;
        this.footer = footer;
        this.queue = queue;
        this.tailer = tailer;
    }

    /**
     * Opens a trace directory for reading.
     *
     * @throws TraceFormatException when the directory is no readable trace (see the class comment)
     */
    public static TraceReader open(Path directory) {
        TraceHeader header = TraceFiles.readHeader(directory);
        Optional<TraceFooter> footer = TraceFiles.readFooter(directory);
        if (!hasQueueFiles(directory)) {
            throw noRecords(directory);
        }
        SingleChronicleQueue queue;
        try {
            queue = SingleChronicleQueueBuilder.binary(directory).readOnly(true)
                    .rollCycle(RollCycles.FAST_HOURLY).build();
        } catch (RuntimeException e) {
            throw new TraceFormatException("Cannot open the records of trace " + directory + ": " + FileErrors.describe(e) + ".", e);
        }
        ExcerptTailer tailer = null;
        try {
            tailer = queue.createTailer();
            boolean any;
            try (DocumentContext dc = tailer.readingDocument()) {
                any = dc.isPresent();
                if (any) {
                    dc.rollbackOnClose(); // peek only: next() reads it again
                }
            }
            if (!any) {
                throw noRecords(directory);
            }
            return new TraceReader(directory, header, footer, queue, tailer);
        } catch (RuntimeException e) {
            if (tailer != null) {
                tailer.close();
            }
            queue.close();
            if (e instanceof TraceFormatException) {
                throw e;
            }
            throw new TraceFormatException("Cannot read the records of trace " + directory + ": " + FileErrors.describe(e) + ".", e);
        }
    }

    private static TraceFormatException noRecords(Path directory) {
        return new TraceFormatException(directory + " holds a trace header but no records (the run issued no"
                + " request, or its writer stopped before the first one).");
    }

    private static boolean hasQueueFiles(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".cq4"));
        } catch (IOException e) {
            throw new TraceFormatException("Cannot list trace directory " + directory + ": " + FileErrors.describe(e) + ".", e);
        }
    }

    public Path directory() {
        return directory;
    }

    public TraceHeader header() {
        return header;
    }

    /** The end marker, empty when the writer did not close the trace. */
    public Optional<TraceFooter> footer() {
        return footer;
    }

    /** True when the writer closed the trace (its end marker is there). */
    public boolean closedCleanly() {
        return footer.isPresent();
    }

    /**
     * Reads the next record into {@code into}.
     *
     * @return false at the end of the trace (then {@code into} is unchanged)
     * @throws TraceFormatException when a record is damaged or of an unknown layout version; the
     *                              message names the directory and the record number (from 1)
     */
    public boolean next(TraceRecord into) {
        if (atEnd) {
            return false;
        }
        try {
            return readNext(into);
        } catch (InternalError e) {
            // the JVM's report of a fault reading the memory-mapped file: the bytes are not on disk
            // (a write that failed on a full disk). What came before is whole; stop here.
            unreadableAt = recordsRead + 1;
            atEnd = true;
            return false;
        }
    }

    /** The excerpt being read: its records, copied out of the queue (a writer puts several in one). */
    private final Bytes<?> excerpt = Bytes.allocateElasticOnHeap(16 * 1024);

    private boolean readNext(TraceRecord into) {
        if (excerpt.readRemaining() == 0) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    atEnd = true;
                    return false;
                }
                excerpt.clear();
                excerpt.write(dc.wire().bytes());
            }
        }
        try {
            into.readMarshallable(excerpt);
        } catch (TraceFormatException e) {
            excerpt.clear(); // the rest of this excerpt cannot be trusted
            throw new TraceFormatException("In trace " + directory + ", record " + (recordsRead + 1) + " "
                    + e.getMessage() + ".", e);
        } catch (RuntimeException e) {
            excerpt.clear();
            throw new TraceFormatException("In trace " + directory + ", record " + (recordsRead + 1)
                    + " is damaged (" + FileErrors.describe(e) + ").", e);
        }
        recordsRead++;
        return true;
    }

    /** 1-based number of a record whose bytes could not be read (a failed write), or 0. */
    private long unreadableAt;

    /** Records returned by {@link #next(TraceRecord)} so far. */
    public long recordsRead() {
        return recordsRead;
    }

    /** True once {@link #next(TraceRecord)} has returned false. */
    public boolean atEnd() {
        return atEnd;
    }

    /**
     * After the last record: one sentence when the trace is not whole — truncated (not closed
     * cleanly), records lost by the writer, or fewer records than the end marker counts; empty when
     * the trace is complete. Before the end it describes only what the end marker says.
     */
    public Optional<String> warning() {
        if (unreadableAt > 0) {
            return Optional.of("Trace " + directory + " is truncated: record " + unreadableAt + " could not be read"
                    + " (its write failed, e.g. on a full disk); read " + recordsRead + " whole records before it"
                    + footer.map(f -> f.recordsLost() > 0 ? ", and its writer LOST " + f.recordsLost() + " records" : "")
                            .orElse("") + ".");
        }
        if (footer.isEmpty()) {
            return Optional.of("Trace " + directory + " is truncated: it was not closed cleanly (its writer was"
                    + " killed or is still running); read " + recordsRead + " whole records.");
        }
        TraceFooter f = footer.get();
        if (f.recordsLost() > 0 || f.failure() != null) {
            return Optional.of("Trace " + directory + " is incomplete: its writer LOST " + f.recordsLost()
                    + " records" + (f.failure() == null ? "" : " after a failure (" + f.failure() + ")")
                    + "; it holds " + f.recordsWritten() + ".");
        }
        if (atEnd && recordsRead != f.recordsWritten()) {
            return Optional.of("Trace " + directory + " is damaged: its end marker counts " + f.recordsWritten()
                    + " records but " + recordsRead + " could be read.");
        }
        return Optional.empty();
    }

    @Override
    public void close() {
        tailer.close();
        queue.close();
    }
}
