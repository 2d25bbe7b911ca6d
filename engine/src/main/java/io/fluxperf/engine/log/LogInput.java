package io.fluxperf.engine.log;

import com.github.luben.zstd.ZstdInputStream;
import io.fluxperf.engine.UserError;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * A log file opened for streaming: gzip- and zstd-compressed files (recognised by their magic
 * bytes, not their name) are decompressed on the fly. {@link #filePosition()} counts the bytes taken
 * from the file itself (compressed bytes when compressed), so that progress can be told against
 * {@link #fileSize()}.
 */
public final class LogInput implements AutoCloseable {
    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;
    /** A zstd frame starts with 28 B5 2F FD (RFC 8878, 3.1.1). */
    private static final int[] ZSTD_MAGIC = {0x28, 0xb5, 0x2f, 0xfd};

    /** How a log file is compressed, told by its first bytes. */
    public enum Compression {
        NONE, GZIP, ZSTD;

        /** The word a report shows beside the log's name, e.g. {@code gzip}. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Path path;
    /** Bytes taken from the file so far. */
    private final java.util.function.LongSupplier position;
    private final InputStream stream;
    private final Compression compression;
    private final long size;
    private volatile boolean cutShort;
    private boolean reported;

    private LogInput(Path path, java.util.function.LongSupplier position, InputStream stream, Compression compression,
                     long size) {
        this.path = path;
        this.position = position;
        this.stream = stream;
        this.compression = compression;
        this.size = size;
    }

    /** Opens {@code path}; a missing or unreadable file is a {@link UserError} naming it. */
    public static LogInput open(Path path) {
        if (Files.isDirectory(path)) {
            throw new UserError(path + ": is a directory, not a log file (a trace directory needs --format trace or its header)");
        }
        try {
            long size = Files.size(path);
            Counting counting = new Counting(Files.newInputStream(path));
            BufferedInputStream buffered = new BufferedInputStream(counting, 1 << 16);
            buffered.mark(4);
            int[] head = new int[4];
            for (int i = 0; i < head.length; i++) {
                head[i] = buffered.read();
            }
            buffered.reset();
            Compression compression = head[0] == GZIP_MAGIC_1 && head[1] == GZIP_MAGIC_2 ? Compression.GZIP
                    : java.util.Arrays.equals(head, ZSTD_MAGIC) ? Compression.ZSTD : Compression.NONE;
            LogInput[] self = new LogInput[1];
            InputStream stream = switch (compression) {
                case GZIP -> new CutShort(new GZIPInputStream(buffered, 1 << 16), () -> self[0].cutShort = true,
                        () -> counting.count);
                case ZSTD -> new CutShort(new BufferedInputStream(new ZstdInputStream(buffered), 1 << 16),
                        () -> self[0].cutShort = true, () -> counting.count);
                case NONE -> buffered;
            };
            self[0] = new LogInput(path, () -> counting.count, stream, compression, size);
            return self[0];
        } catch (NoSuchFileException e) {
            throw new UserError(path + ": no such file");
        } catch (java.util.zip.ZipException e) {
            throw new UserError(path + ": starts like a gzip file but is not one (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new UserError(path + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * A part of a log that is read in parts by several threads: {@code stream} holds one part's
     * (decompressed) lines at a time, and {@code position} says how far into the file the part lies.
     * A part is never cut short ({@link #reportEnd} says nothing): the whole log's input says that.
     */
    public static LogInput part(Path path, InputStream stream, java.util.function.LongSupplier position, long size) {
        return new LogInput(path, position, stream, Compression.NONE, size);
    }

    public Path path() {
        return path;
    }

    /** The (decompressed) content. */
    public InputStream stream() {
        return stream;
    }

    public Compression compression() {
        return compression;
    }

    /** Size of the file on disk, bytes. */
    public long fileSize() {
        return size;
    }

    /** Bytes read from the file so far (compressed bytes when compressed); read-ahead buffers count as read. */
    public long filePosition() {
        return position.getAsLong();
    }

    /**
     * At the end of a pass: a compressed stream that ended inside a member or frame (a log still
     * being written, a copy cut short) was read up to there; that is reported once as a bad line.
     */
    public void reportEnd(ReaderContext ctx) {
        if (cutShort && !reported) {
            reported = true;
            ctx.bad.add(ctx.name, "the " + compression.label() + " stream is cut short at byte " + size
                    + " (the file ends inside it); what came before was read");
        }
    }

    @Override
    public void close() {
        try {
            stream.close();
        } catch (IOException ignored) {
            // reading is over; nothing to do about a failing close
        }
    }

    /**
     * Ends the stream where a gzip member or zstd frame is cut short, instead of failing the replay.
     * zstd-jni reports a truncated frame as an IOException naming the premature end.
     */
    private static final class CutShort extends FilterInputStream {
        private final Runnable onCut;
        /** Bytes taken from the file so far, to say where damaged data is (read-ahead included: "near"). */
        private final java.util.function.LongSupplier filePosition;

        CutShort(InputStream in, Runnable onCut, java.util.function.LongSupplier filePosition) {
            super(in);
            this.onCut = onCut;
            this.filePosition = filePosition;
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (java.io.EOFException e) {
                onCut.run();
                return -1;
            } catch (IOException e) {
                return truncated(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (java.io.EOFException e) {
                onCut.run();
                return -1;
            } catch (IOException e) {
                return truncated(e);
            }
        }

        private int truncated(IOException e) throws IOException {
            String m = e.getMessage();
            if (m != null && m.contains("Truncated")) {
                onCut.run();
                return -1;
            }
            throw new IOException("damaged compressed data near byte " + filePosition.getAsLong() + " of the file ("
                    + m + ")", e);
        }
    }

    /** Counts bytes read; {@link #count} is read by the progress line from another thread. */
    private static final class Counting extends FilterInputStream {
        private volatile long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = super.skip(n);
            count += k;
            return k;
        }

        @Override
        public boolean markSupported() {
            return false;
        }
    }
}
