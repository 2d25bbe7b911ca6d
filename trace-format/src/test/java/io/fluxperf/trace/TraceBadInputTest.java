package io.fluxperf.trace;

import net.openhft.chronicle.queue.ExcerptAppender;
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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Invariant 6: each kind of bad trace input gets one clear sentence that names the directory. */
class TraceBadInputTest {

    @TempDir
    Path tmp;

    private String openFails(Path dir) {
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.open(dir).close());
        String m = e.getMessage();
        assertTrue(m.contains(dir.toString()), "names the directory: " + m);
        assertTrue(m.endsWith("."), "one sentence: " + m);
        assertFalse(m.contains("\n"), "one line: " + m);
        return m;
    }

    @Test
    void aPathThatDoesNotExist() {
        Path dir = tmp.resolve("nothing-here");
        assertEquals("Trace directory " + dir + " does not exist.", openFails(dir));
    }

    @Test
    void aFileInsteadOfADirectory() throws Exception {
        Path file = Files.writeString(tmp.resolve("trace.csv"), "a,b\n");
        assertEquals(file + " is a file, not a trace directory (a trace is the directory that --trace DIR writes).",
                openFails(file));
    }

    @Test
    void anEmptyDirectory() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("empty"));
        assertEquals(dir + " is empty: it holds no trace.", openFails(dir));
    }

    @Test
    void aDirectoryThatIsNoTrace() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("photos"));
        Files.writeString(dir.resolve("cat.jpg"), "meow");
        assertEquals(dir + " is not a trace directory: it has no fluxperf-trace.json.", openFails(dir));
    }

    @Test
    void aChronicleQueueWithoutOurHeaderIsNoTrace() {
        Path dir = tmp.resolve("queue");
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).build();
             ExcerptAppender a = q.createAppender()) {
            a.writeText("hello");
        }
        assertEquals(dir + " is not a trace directory: it has no fluxperf-trace.json.", openFails(dir));
    }

    @Test
    void aHeaderThatIsNotJson() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("broken"));
        Files.writeString(dir.resolve(TraceFiles.HEADER_FILE), "{\"format\": \"fluxperf-trace\",\n  oops");
        String m = openFails(dir);
        assertTrue(m.startsWith(dir + " is not a readable trace: its fluxperf-trace.json is not valid JSON (line 2"), m);
    }

    /** A header cut short: the place and the reason in words, not the parser's own source description. */
    @Test
    void aHeaderCutShortSaysWhereInWords() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("cut"));
        Files.writeString(dir.resolve(TraceFiles.HEADER_FILE), "{\"format\": 3\n");
        assertEquals(dir + " is not a readable trace: its fluxperf-trace.json is not valid JSON (line 2, column 1:"
                + " unexpected end of input).", openFails(dir));
    }

    @Test
    void aHeaderOfAnotherFormat() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("other"));
        Files.writeString(dir.resolve(TraceFiles.HEADER_FILE), "{\"format\": \"something-else\"}");
        assertEquals(dir + " is not a trace directory: its fluxperf-trace.json does not describe a fluxperf trace.",
                openFails(dir));
    }

    @Test
    void anUnknownFormatVersion() throws Exception {
        Path dir = tmp.resolve("future");
        TestTraces.write(dir, 10);
        Path header = dir.resolve(TraceFiles.HEADER_FILE);
        Files.writeString(header, Files.readString(header).replace("\"formatVersion\" : " + TraceHeader.FORMAT_VERSION,
                "\"formatVersion\" : 9"));
        assertEquals(dir + " was written by trace format version 9; this fluxperf reads versions 1 to 2.", openFails(dir));
    }

    @Test
    void aTraceWithoutRecords() {
        Path dir = tmp.resolve("no-records");
        TraceWriter.open(dir, TestTraces.header()).close();
        assertEquals(dir + " holds a trace header but no records (the run issued no request, or its writer stopped"
                + " before the first one).", openFails(dir));
    }

    @Test
    void aRecordOfAnUnknownLayoutVersionIsNamed() {
        Path dir = tmp.resolve("odd-record");
        TestTraces.write(dir, 3);
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).rollCycle(RollCycles.FAST_HOURLY)
                .build(); ExcerptAppender a = q.createAppender(); DocumentContext dc = a.writingDocument()) {
            dc.wire().bytes().writeByte((byte) 9).writeLong(0);
        }
        try (TraceReader reader = TraceReader.open(dir)) {
            TraceRecord r = new TraceRecord();
            assertTrue(reader.next(r) && reader.next(r) && reader.next(r));
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> reader.next(r));
            assertEquals("In trace " + dir + ", record 4 has layout version 9; this fluxperf reads version 1.",
                    e.getMessage());
        }
    }

    @Test
    void aDamagedRecordIsNamed() {
        Path dir = tmp.resolve("damaged");
        TestTraces.write(dir, 1);
        try (SingleChronicleQueue q = SingleChronicleQueueBuilder.binary(dir).rollCycle(RollCycles.FAST_HOURLY)
                .build(); ExcerptAppender a = q.createAppender(); DocumentContext dc = a.writingDocument()) {
            dc.wire().bytes().writeByte(TraceRecord.LAYOUT_VERSION).writeByte((byte) 0); // cut after 2 bytes
        }
        try (TraceReader reader = TraceReader.open(dir)) {
            TraceRecord r = new TraceRecord();
            assertTrue(reader.next(r));
            TraceFormatException e = assertThrows(TraceFormatException.class, () -> reader.next(r));
            assertTrue(e.getMessage().startsWith("In trace " + dir + ", record 2 is damaged ("), e.getMessage());
        }
    }

    @Test
    void theWriterRefusesADirectoryThatIsNotEmpty() throws Exception {
        Path dir = tmp.resolve("used");
        TestTraces.write(dir, 1);
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> TraceWriter.open(dir, TestTraces.header()));
        assertEquals(dir + " is not empty; a trace needs a new or empty directory (delete it or choose another).",
                e.getMessage());
        Path file = Files.writeString(tmp.resolve("file"), "x");
        e = assertThrows(TraceFormatException.class, () -> TraceWriter.open(file, TestTraces.header()));
        assertEquals(file + " is a file; a trace needs a new or empty directory.", e.getMessage());
    }
}
