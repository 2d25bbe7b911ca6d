package io.fluxperf.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A trace's Chronicle Queue files, checked with plain reads ({@link QueueFile}) before Chronicle
 * maps any of them: whether each is a queue file at all, and whether each holds its data whole.
 * A trace whose files are all whole is read through Chronicle; one with a file cut short (copied
 * in part, truncated) is read by {@link FileExcerpts} up to its last whole record; a file that is
 * no queue file is refused in one sentence. Either way this takes a few reads per file, not
 * Chronicle's wait for a header that will never be written.
 */
final class QueueFiles {
    static final String CYCLE_SUFFIX = ".cq4";
    static final String TABLE_STORE = "metadata.cq4t";

    /**
     * What the check found.
     *
     * @param cycleFiles the record files, in the order of their cycles (their names sort so)
     * @param whole      every record file and the table store whole: Chronicle may read them
     * @param cut        the first record file cut short: its name, where, and how; null when none is
     * @param records    whether any file holds a data document before its end or cut
     */
    record Check(List<Path> cycleFiles, boolean whole, Cut cut, boolean records) {
    }

    /**
     * A record file cut short.
     *
     * @param size          its size, bytes: where it is cut
     * @param wholeUpTo     where its last whole document ends (the header that does not fit starts here)
     * @param wholeExcerpts the data excerpts before the cut
     */
    record Cut(Path file, long size, long wholeUpTo, long wholeExcerpts) {
    }

    private QueueFiles() {
    }

    /** Whether {@code dir} holds any record file. */
    static boolean any(Path dir) {
        return !cycleFiles(dir).isEmpty();
    }

    /**
     * Checks the record files of trace {@code dir}.
     *
     * @throws TraceFormatException naming the file when one is no Chronicle Queue file, or when no
     *                              file holds a whole record and one of them says why
     */
    static Check check(Path dir) {
        List<Path> files = cycleFiles(dir);
        boolean whole = true;
        boolean records = false;
        Cut cut = null;
        String noRecordsWhy = null;
        for (Path f : files) {
            try (QueueFile q = QueueFile.open(f)) {
                if (q.size() == 0) {
                    whole = false;
                    noRecordsWhy = noRecordsWhy != null ? noRecordsWhy : "its record file " + f.getFileName()
                            + " is empty (0 bytes)";
                    continue;
                }
                if (q.hasNoHeader()) {
                    whole = false; // Chronicle would wait for the header to be written
                    noRecordsWhy = noRecordsWhy != null ? noRecordsWhy : "its record file " + f.getFileName()
                            + " has no queue header (its writer stopped as it created it)";
                    continue;
                }
                if (!q.startsWithHeader(QueueFile.CYCLE_FILE)) {
                    throw new TraceFormatException("Trace " + dir + " cannot be read: its record file " + f.getFileName()
                            + " (" + q.size() + " bytes) is not a Chronicle Queue file, or its header is cut short.");
                }
                q.walkToEnd();
                records |= q.dataDocuments() > 0;
                if (q.end() == QueueFile.End.CUT) {
                    whole = false;
                    if (cut == null) {
                        cut = new Cut(f, q.size(), q.position(), q.dataDocuments());
                    }
                }
            } catch (IOException e) {
                throw new TraceFormatException("Cannot read trace " + dir + "'s record file " + f.getFileName() + ": "
                        + FileErrors.describe(e) + ".", e);
            }
        }
        if (!records && cut != null) {
            throw new TraceFormatException("Trace " + dir + " holds no whole record: its record file "
                    + cut.file().getFileName() + " is cut short at " + cut.size() + " bytes, before its first record.");
        }
        if (!records && noRecordsWhy != null) {
            throw new TraceFormatException("Trace " + dir + " holds no records: " + noRecordsWhy + ".");
        }
        return new Check(files, whole && tableStoreWhole(dir), cut, records);
    }

    /** Whether metadata.cq4t is there and whole: Chronicle maps it too. */
    private static boolean tableStoreWhole(Path dir) {
        Path f = dir.resolve(TABLE_STORE);
        if (!Files.isRegularFile(f)) {
            return false;
        }
        try (QueueFile q = QueueFile.open(f)) {
            if (!q.startsWithHeader(QueueFile.TABLE_STORE)) {
                return false;
            }
            // its values are documents too; the walk counts them as data and stops at the first unwritten one
            return q.walkToEnd().end() == QueueFile.End.WRITER_STOPPED;
        } catch (IOException e) {
            return false;
        }
    }

    private static List<Path> cycleFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> out = new ArrayList<>(s.filter(p -> p.getFileName().toString().endsWith(CYCLE_SUFFIX)).toList());
            out.sort(null);
            return out;
        } catch (IOException e) {
            throw new TraceFormatException("Cannot list trace directory " + dir + ": " + FileErrors.describe(e) + ".", e);
        }
    }
}
