package io.fluxperf.trace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One file of a Chronicle Queue ({@code .cq4}, or the table store {@code metadata.cq4t}) walked
 * document by document with plain positional reads: never memory-mapped, so a file cut short is
 * found by its size instead of by a fault in the JVM (Chronicle maps its files and reads past the
 * end of a truncated one, which the JVM reports as an {@link InternalError}).
 *
 * <p>The layout walked, as Chronicle Wire writes it in binary queues: documents one after the
 * other, each a 4-byte little-endian header (bit 31 not complete, bit 30 metadata, bits 0-29 the
 * payload's length) and its payload, the next header at the following multiple of 4. The first
 * document is the store's own header (metadata: the event name {@code header} and a type name
 * such as {@code SCQStore}). A header of 0, or one still marked not complete, is where the writer
 * stopped; {@code 0xC0000000} marks the end of a file that rolled over to the next. Index arrays
 * are metadata documents among the records.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Reads only; the file is never changed, and nothing is read beyond its size.</li>
 *   <li>Memory is one window of {@value #WINDOW} bytes, whatever the file's size; a document's
 *       header costs a read only when it lies outside the window (large excerpts are skipped, not
 *       read).</li>
 *   <li>Not thread-safe: one walker per thread.</li>
 * </ul>
 */
final class QueueFile implements AutoCloseable {
    static final int NOT_COMPLETE = 0x8000_0000;
    static final int META_DATA = 0x4000_0000;
    static final int LENGTH_MASK = 0x3FFF_FFFF;
    static final int END_OF_DATA = NOT_COMPLETE | META_DATA;
    /** The type name of a queue file's own header document. */
    static final String CYCLE_FILE = "SCQStore";
    /** The type name of the table store's ({@code metadata.cq4t}) header document. */
    static final String TABLE_STORE = "STStore";

    private static final int WINDOW = 4096;
    private static final byte EVENT_NAME = (byte) 0xB9;
    private static final byte TYPE_PREFIX = (byte) 0xB6;
    private static final byte[] HEADER_EVENT = "header".getBytes(StandardCharsets.US_ASCII);

    /** Where a walk stopped. */
    enum End {
        /** Not yet: the walk is inside the file. */
        NONE,
        /** A header of 0 or one not complete: where the writer stopped, inside the file. */
        WRITER_STOPPED,
        /** The end-of-file mark of a file that rolled over to the next. */
        ROLLED,
        /** The file ends inside a document, or before any of the marks above: it was cut short. */
        CUT
    }

    private final Path path;
    private final FileChannel channel;
    private final long size;
    private final ByteBuffer window = ByteBuffer.allocate(WINDOW).order(ByteOrder.LITTLE_ENDIAN);
    private long windowStart;
    private long position;
    /** The payload of the document the walk stands on: its start and length. */
    private long payloadAt;
    private int payloadLength;
    private End end = End.NONE;
    private long dataDocuments;

    private QueueFile(Path path, FileChannel channel, long size) {
        this.path = path;
        this.channel = channel;
        this.size = size;
        this.window.limit(0);
    }

    static QueueFile open(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        try {
            return new QueueFile(file, ch, ch.size());
        } catch (RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    Path path() {
        return path;
    }

    /** The file's size, bytes. */
    long size() {
        return size;
    }

    /** Whether the first word is 0: a file whose writer stopped before its header (or an empty file). */
    boolean hasNoHeader() throws IOException {
        return size < 4 || intAt(0) == 0;
    }

    /**
     * Whether the file starts with a store header of type {@code typeName} ({@link #CYCLE_FILE},
     * {@link #TABLE_STORE}) that fits in the file; the walk then stands after it.
     */
    boolean startsWithHeader(String typeName) throws IOException {
        if (size < 4) {
            return false;
        }
        int h = intAt(0);
        int length = h & LENGTH_MASK;
        if ((h & NOT_COMPLETE) != 0 || (h & META_DATA) == 0 || 4L + length > size) {
            return false;
        }
        byte[] type = typeName.getBytes(StandardCharsets.US_ASCII);
        byte[] expected = new byte[2 + HEADER_EVENT.length + 2 + type.length];
        expected[0] = EVENT_NAME;
        expected[1] = (byte) HEADER_EVENT.length;
        System.arraycopy(HEADER_EVENT, 0, expected, 2, HEADER_EVENT.length);
        expected[2 + HEADER_EVENT.length] = TYPE_PREFIX;
        expected[3 + HEADER_EVENT.length] = (byte) type.length;
        System.arraycopy(type, 0, expected, 4 + HEADER_EVENT.length, type.length);
        if (length < expected.length) {
            return false;
        }
        byte[] found = new byte[expected.length];
        read(4, found, 0, found.length);
        if (!java.util.Arrays.equals(expected, found)) {
            return false;
        }
        position = align(4L + length);
        return true;
    }

    /**
     * Moves to the next data document (skipping metadata such as index arrays).
     *
     * @return its payload's length, bytes; -1 at the file's end, which {@link #end()} then names
     */
    int nextData() throws IOException {
        while (end == End.NONE) {
            if (position + 4 > size) {
                end = End.CUT;
                break;
            }
            int h = intAt(position);
            if (h == END_OF_DATA) {
                end = End.ROLLED;
                break;
            }
            if (h == 0 || (h & NOT_COMPLETE) != 0) {
                end = End.WRITER_STOPPED;
                break;
            }
            int length = h & LENGTH_MASK;
            if (position + 4 + length > size) {
                end = End.CUT;
                break;
            }
            payloadAt = position + 4;
            payloadLength = length;
            position = align(position + 4 + length);
            if ((h & META_DATA) == 0) {
                dataDocuments++;
                return length;
            }
        }
        return -1;
    }

    /** Where the payload of the document {@link #nextData()} moved to starts, bytes into the file. */
    long payloadPosition() {
        return payloadAt;
    }

    /** Copies the payload of the data document {@link #nextData()} moved to into {@code into}, from index 0. */
    void readPayload(byte[] into) throws IOException {
        read(payloadAt, into, 0, payloadLength);
    }

    /** Walks to the file's end, counting its data documents. */
    QueueFile walkToEnd() throws IOException {
        while (nextData() >= 0) {
            // counted by nextData
        }
        return this;
    }

    /** Where the walk stopped; {@link End#NONE} while it goes on. */
    End end() {
        return end;
    }

    /** Where the walk stands: after its end, the position of the header it stopped at (or the file's size). */
    long position() {
        return Math.min(position, size);
    }

    /** Data documents walked over so far. */
    long dataDocuments() {
        return dataDocuments;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private static long align(long p) {
        return (p + 3) & ~3L;
    }

    private int intAt(long at) throws IOException {
        if (at < windowStart || at + 4 > windowStart + window.limit()) {
            fill(at);
            if (window.limit() < 4) {
                throw new IOException("cannot read 4 bytes at " + at + " of " + path + " (" + size + " bytes)");
            }
        }
        return window.getInt((int) (at - windowStart));
    }

    private void fill(long at) throws IOException {
        window.clear();
        window.limit((int) Math.min(WINDOW, size - at));
        while (window.hasRemaining()) {
            if (channel.read(window, at + window.position()) < 0) {
                break;
            }
        }
        window.flip();
        windowStart = at;
    }

    private void read(long at, byte[] into, int offset, int length) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(into, offset, length);
        while (b.hasRemaining()) {
            if (channel.read(b, at + b.position() - offset) < 0) {
                throw new IOException("cannot read " + length + " bytes at " + at + " of " + path);
            }
        }
    }
}
