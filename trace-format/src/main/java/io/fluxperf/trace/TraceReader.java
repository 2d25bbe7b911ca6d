package io.fluxperf.trace;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads a trace directory record by record, in the order the records were appended, into a
 * {@link TraceRecord} the caller reuses: memory stays bounded whatever the trace's size.
 *
 * <p>{@link #open(Path)} refuses, with a {@link TraceFormatException} whose message is one sentence
 * naming the directory: a path that does not exist or is a file, an empty directory, a directory
 * that is not a trace, a trace of an unknown format version, a trace without records, and a
 * record file that is no Chronicle Queue file (naming the file).
 *
 * <p>A trace whose writer was killed has no end marker: it reads up to its last whole record (a
 * record being written at the kill is not complete in the queue and is not returned), and
 * {@link #closedCleanly()} is false. A trace whose record file was cut short (copied in part,
 * truncated) reads up to the last whole excerpt before the cut: its files are checked with plain
 * reads before Chronicle maps any ({@link QueueFiles}), and such a trace is read without
 * Chronicle ({@link FileExcerpts}). Check {@link #warning()} after the last record.
 */
public final class TraceReader implements AutoCloseable {

    /** Where the excerpts come from: Chronicle's tailer, or the files read plainly. */
    interface ExcerptSource extends AutoCloseable {
        /** Copies the next excerpt's bytes into {@code into}; false at the end. */
        boolean next(Bytes<?> into);

        @Override
        void close();
    }

    private final Path directory;
    private final TraceHeader header;
    private final Optional<TraceFooter> footer;
    private final ExcerptSource source;
    private final QueueFiles.Cut cut;
    private long recordsRead;
    private boolean atEnd;

    private TraceReader(Path directory, TraceHeader header, Optional<TraceFooter> footer, ExcerptSource source,
                        QueueFiles.Cut cut) {
        this.directory = directory;
        this.header = header;
        this.footer = footer;
        this.source = source;
        this.cut = cut;
    }

    /**
     * Whether {@code directory} holds a trace's header, so that a command given a trace where it
     * wants something else can say what it was given; the trace may still be damaged.
     */
    public static boolean isTrace(Path directory) {
        return Files.isRegularFile(directory.resolve(TraceFiles.HEADER_FILE));
    }

    /**
     * Opens a trace directory for reading.
     *
     * @throws TraceFormatException when the directory is no readable trace (see the class comment)
     */
    public static TraceReader open(Path directory) {
        TraceHeader header = TraceFiles.readHeader(directory);
        Optional<TraceFooter> footer = TraceFiles.readFooter(directory);
        if (!QueueFiles.any(directory)) {
            throw noRecords(directory);
        }
        QueueFiles.Check check = QueueFiles.check(directory);
        if (!check.records()) {
            throw noRecords(directory);
        }
        if (!check.whole()) {
            return new TraceReader(directory, header, footer, new FileExcerpts(check.cycleFiles()), check.cut());
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
            return new TraceReader(directory, header, footer, new QueueExcerpts(queue, tailer), null);
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

    /** A whole trace's excerpts, through Chronicle's tailer. */
    private static final class QueueExcerpts implements ExcerptSource {
        private final SingleChronicleQueue queue;
        private final ExcerptTailer tailer;

        QueueExcerpts(SingleChronicleQueue queue, ExcerptTailer tailer) {
            this.queue = queue;
            this.tailer = tailer;
        }

        @Override
        public boolean next(Bytes<?> into) {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return false;
                }
                into.clear();
                into.write(dc.wire().bytes());
                return true;
            }
        }

        @Override
        public void close() {
            tailer.close();
            queue.close();
        }
    }

    private static TraceFormatException noRecords(Path directory) {
        return new TraceFormatException(directory + " holds a trace header but no records (the run issued no"
                + " request, or its writer stopped before the first one).");
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
        if (excerpt.readRemaining() == 0 && !source.next(excerpt)) {
            atEnd = true;
            return false;
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
     * The records read, in words that do not pass a reading stopped early (by a limit) for the
     * trace's end: "read 2 whole records" would read as all it holds.
     */
    private String whatWasRead(String ofHowMany) {
        return atEnd ? "read " + recordsRead + " whole records" + ofHowMany
                : "read its first " + recordsRead + " records only" + ofHowMany + ", stopping before its end";
    }

    /**
     * After the last record: one sentence when the trace is not whole — truncated (not closed
     * cleanly), records lost by the writer, or fewer records than the end marker counts; empty when
     * the trace is complete. Before the end it describes only what the end marker says.
     */
    public Optional<String> warning() {
        if (cut != null) {
            return Optional.of("Trace " + directory + " is truncated: its record file " + cut.file().getFileName()
                    + " is cut short at " + cut.size() + " bytes (a partial copy, or truncated); "
                    + whatWasRead(footer.map(f -> " of the " + f.recordsWritten() + " its end marker counts").orElse(""))
                    + (atEnd ? ", up to its byte " : " (its whole records reach its byte ") + cut.wholeUpTo()
                    + (atEnd ? "." : ")."));
        }
        if (unreadableAt > 0) {
            return Optional.of("Trace " + directory + " is truncated: record " + unreadableAt + " could not be read"
                    + " (its write failed, e.g. on a full disk); read " + recordsRead + " whole records before it"
                    + footer.map(f -> f.recordsLost() > 0 ? ", and its writer LOST " + f.recordsLost() + " records" : "")
                            .orElse("") + ".");
        }
        if (footer.isEmpty()) {
            return Optional.of("Trace " + directory + " is truncated: it was not closed cleanly (its writer was"
                    + " killed or is still running); " + whatWasRead("") + ".");
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
        source.close();
    }
}
