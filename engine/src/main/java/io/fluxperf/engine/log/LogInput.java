package io.fluxperf.engine.log;

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
 * A log file opened for streaming: gzip-compressed files (recognised by their magic bytes, not
 * their name) are decompressed on the fly. {@link #filePosition()} counts the bytes taken from the
 * file itself (compressed bytes for gzip), so that progress can be told against {@link #fileSize()}.
 */
public final class LogInput implements AutoCloseable {
    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;

    private final Path path;
    private final Counting counting;
    private final InputStream stream;
    private final boolean gzip;
    private final long size;
    private volatile boolean cutShort;
    private boolean reported;

    private LogInput(Path path, Counting counting, InputStream stream, boolean gzip, long size) {
        this.path = path;
        this.counting = counting;
        this.stream = stream;
        this.gzip = gzip;
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
            buffered.mark(2);
            int b1 = buffered.read();
            int b2 = buffered.read();
            buffered.reset();
            boolean gzip = b1 == GZIP_MAGIC_1 && b2 == GZIP_MAGIC_2;
            LogInput[] self = new LogInput[1];
            InputStream stream = gzip ? new CutShort(new GZIPInputStream(buffered, 1 << 16), () -> self[0].cutShort = true)
                    : buffered;
            self[0] = new LogInput(path, counting, stream, gzip, size);
            return self[0];
        } catch (NoSuchFileException e) {
            throw new UserError(path + ": no such file");
        } catch (java.util.zip.ZipException e) {
            throw new UserError(path + ": starts like a gzip file but is not one (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new UserError(path + ": cannot read: " + e.getMessage());
        }
    }

    public Path path() {
        return path;
    }

    /** The (decompressed) content. */
    public InputStream stream() {
        return stream;
    }

    public boolean gzip() {
        return gzip;
    }

    /** Size of the file on disk, bytes. */
    public long fileSize() {
        return size;
    }

    /** Bytes read from the file so far (compressed bytes for gzip); read-ahead buffers count as read. */
    public long filePosition() {
        return counting.count;
    }

    /**
     * At the end of a pass: a gzip stream that ended inside a member (a log still being written, a
     * copy cut short) was read up to there; that is reported once as a bad line.
     */
    public void reportEnd(ReaderContext ctx) {
        if (cutShort && !reported) {
            reported = true;
            ctx.bad.add(ctx.name, "the gzip stream is cut short (the file ends inside it); replayed what came before");
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

    /** Ends the stream where a gzip member is cut short, instead of failing the replay. */
    private static final class CutShort extends FilterInputStream {
        private final Runnable onCut;

        CutShort(InputStream in, Runnable onCut) {
            super(in);
            this.onCut = onCut;
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (java.io.EOFException e) {
                onCut.run();
                return -1;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (java.io.EOFException e) {
                onCut.run();
                return -1;
            }
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
