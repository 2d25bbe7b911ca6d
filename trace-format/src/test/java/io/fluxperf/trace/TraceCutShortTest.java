package io.fluxperf.trace;

import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Invariants 5 and 6 for a record file that is cut short, random or empty (issue 46, item 7):
 * a trace reads up to its last whole record, or is refused in one sentence naming the file, and
 * quickly; never a fault in Chronicle's mapped memory, never a wait for a header.
 */
class TraceCutShortTest {
    private static final int RECORDS = 20_000;

    @TempDir
    static Path tmp;

    private static Path whole;
    private static Path cycleFile;
    /** Each data excerpt of the whole trace: where its header starts, where its payload ends, and the records up to its end. */
    private static final List<long[]> excerpts = new ArrayList<>();
    /** Where the writer's data ends: the position of the header of 0 after the last excerpt. */
    private static long dataEnd;

    @BeforeAll
    static void writeOneTrace() throws IOException {
        whole = tmp.resolve("whole");
        TestTraces.write(whole, RECORDS);
        try (Stream<Path> s = Files.list(whole)) {
            cycleFile = s.filter(p -> p.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        // where each excerpt lies, and how many records end with it: read plainly, decoded as the reader decodes
        try (QueueFile q = QueueFile.open(cycleFile)) {
            assertTrue(q.startsWithHeader(QueueFile.CYCLE_FILE));
            long records = 0;
            TraceRecord r = new TraceRecord();
            int length;
            while ((length = q.nextData()) >= 0) {
                byte[] payload = new byte[length];
                q.readPayload(payload);
                Bytes<byte[]> b = Bytes.wrapForRead(payload);
                while (b.readRemaining() > 0) {
                    r.readMarshallable(b);
                    records++;
                }
                excerpts.add(new long[] {q.payloadPosition() - 4, q.payloadPosition() + length, records});
            }
            assertEquals(QueueFile.End.WRITER_STOPPED, q.end());
            dataEnd = q.position();
            assertEquals(RECORDS, records, "the plain walk decodes every record");
        }
        assertTrue(excerpts.size() > 10, "several excerpts: " + excerpts.size());
    }

    /** A copy of the whole trace with its record file's first {@code bytes} bytes only. */
    private static Path cutAt(String name, long bytes) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        try (Stream<Path> s = Files.list(whole)) {
            for (Path p : s.toList()) {
                if (!p.equals(cycleFile)) {
                    Files.copy(p, dir.resolve(p.getFileName()));
                }
            }
        }
        try (FileChannel in = FileChannel.open(cycleFile);
             FileChannel out = FileChannel.open(dir.resolve(cycleFile.getFileName()), StandardOpenOption.CREATE_NEW,
                     StandardOpenOption.WRITE)) {
            long done = 0;
            while (done < bytes) {
                done += in.transferTo(done, bytes - done, out);
            }
        }
        return dir;
    }

    private static void readsUpToTheCut(Path dir, long at) {
        long expected = 0;
        for (long[] e : excerpts) {
            if (e[1] <= at) { // its payload's last byte is in the file
                expected = e[2];
            }
        }
        if (expected == 0) {
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.open(dir).close());
            assertEquals("Trace " + dir + " holds no whole record: its record file " + cycleFile.getFileName()
                    + " is cut short at " + at + " bytes, before its first record.", e.getMessage());
            return;
        }
        try (TraceReader reader = TraceReader.open(dir)) {
            assertEquals(expected, TestTraces.readBackInOrder(reader), "records before a cut at byte " + at);
            String warning = reader.warning().orElseThrow();
            assertTrue(warning.startsWith("Trace " + dir + " is truncated: its record file " + cycleFile.getFileName()
                    + " is cut short at " + at + " bytes (a partial copy, or truncated); read " + expected
                    + " whole records of the " + RECORDS + " its end marker counts, up to its byte "), warning);
        }
    }

    @Test
    void aCutInsideTheIndexBeforeAnyRecordIsOneSentenceNamingTheFile() throws IOException {
        Path dir = cutAt("cut-4096", 4096); // as `truncate -s 4096 t/*.cq4` leaves it
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.open(dir).close());
        assertEquals("Trace " + dir + " holds no whole record: its record file " + cycleFile.getFileName()
                + " is cut short at 4096 bytes, before its first record.", e.getMessage());
    }

    @Test
    void aCutAnywhereReadsEveryWholeRecordBeforeIt() throws IOException {
        List<Long> cuts = new ArrayList<>();
        long[] first = excerpts.get(0);
        long[] middle = excerpts.get(excerpts.size() / 2);
        long[] last = excerpts.get(excerpts.size() - 1);
        for (long[] e : List.of(first, middle, last)) {
            cuts.add(e[0]);          // on an excerpt's header
            cuts.add(e[0] + 2);      // inside it
            cuts.add(e[0] + 4);      // just after it: no payload
            cuts.add(e[1] - 1);      // one byte short of its end
            cuts.add(e[1]);          // right after it
        }
        cuts.add(dataEnd);           // every record there, but no end-of-data header
        cuts.add(dataEnd + 2);
        int i = 0;
        for (long at : cuts) {
            readsUpToTheCut(cutAt("cut-" + (i++) + "-" + at, at), at);
        }
    }

    @Test
    void aFileCutAfterItsDataIsWholeAndReadThroughChronicle() throws IOException {
        Path dir = cutAt("after-data", dataEnd + 4096);
        try (TraceReader reader = TraceReader.open(dir)) {
            assertEquals(RECORDS, TestTraces.readBackInOrder(reader));
            assertTrue(reader.warning().isEmpty(), reader.warning().orElse(""));
        }
    }

    @Test
    void aTableStoreCutShortStillReadsEveryRecord() throws IOException {
        Path dir = cutAt("table-store", Files.size(cycleFile));
        Path store = dir.resolve(QueueFiles.TABLE_STORE);
        byte[] bytes = Files.readAllBytes(store);
        Files.write(store, java.util.Arrays.copyOf(bytes, 100));
        try (TraceReader reader = TraceReader.open(dir)) {
            assertEquals(RECORDS, TestTraces.readBackInOrder(reader));
        }
    }

    @Test
    void randomBytesAreNoRecordFile() throws IOException {
        Path dir = cutAt("random", 0);
        byte[] noise = new byte[100_000];
        new Random(46).nextBytes(noise);
        noise[0] = 0x11; // not 0: a header of 0 would be a file whose writer stopped at its start
        Files.write(dir.resolve(cycleFile.getFileName()), noise);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.open(dir).close());
        assertEquals("Trace " + dir + " cannot be read: its record file " + cycleFile.getFileName()
                + " (100000 bytes) is not a Chronicle Queue file, or its header is cut short.", e.getMessage());
    }

    @Test
    void anEmptyRecordFileSaysSo() throws IOException {
        Path dir = cutAt("empty", 0);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.open(dir).close());
        assertEquals("Trace " + dir + " holds no records: its record file " + cycleFile.getFileName()
                + " is empty (0 bytes).", e.getMessage());
    }

    @Test
    @Tag("timing")
    void refusalsComeQuickly() throws IOException {
        // before: Chronicle waited about 12 s for the header of an empty file to be written
        Path empty = cutAt("empty-timed", 0);
        Path cut = cutAt("cut-timed", 4096);
        long start = System.nanoTime();
        assertThrows(TraceFormatException.class, () -> TraceReader.open(empty).close());
        assertThrows(TraceFormatException.class, () -> TraceReader.open(cut).close());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 3000, "refused in " + millis + " ms");
    }
}
