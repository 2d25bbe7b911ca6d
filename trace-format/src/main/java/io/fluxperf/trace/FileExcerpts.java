package io.fluxperf.trace;

import net.openhft.chronicle.bytes.Bytes;

import java.io.IOException;
import java.util.List;
import java.nio.file.Path;

/**
 * The excerpts of a trace whose record files are not all whole, read with plain reads
 * ({@link QueueFile}) instead of through Chronicle: each file in cycle order, each up to its
 * last whole excerpt. Chronicle would map a cut file and fault on the bytes that are not there.
 */
final class FileExcerpts implements TraceReader.ExcerptSource {
    private final List<Path> files;
    private int next;
    private QueueFile current;
    private byte[] payload = new byte[64 * 1024];

    FileExcerpts(List<Path> files) {
        this.files = files;
    }

    @Override
    public boolean next(Bytes<?> into) {
        try {
            while (true) {
                if (current == null) {
                    if (next >= files.size()) {
                        return false;
                    }
                    current = QueueFile.open(files.get(next++));
                    if (current.size() == 0 || current.hasNoHeader() || !current.startsWithHeader(QueueFile.CYCLE_FILE)) {
                        closeCurrent(); // checked before: an empty file, or one whose writer stopped at its start
                        continue;
                    }
                }
                int length = current.nextData();
                if (length < 0) {
                    closeCurrent();
                    continue;
                }
                if (length > payload.length) {
                    payload = new byte[length];
                }
                current.readPayload(payload);
                into.clear();
                into.write(payload, 0, length);
                return true;
            }
        } catch (IOException e) {
            throw new TraceFormatException("Cannot read the records in " + (current == null ? "the trace" : current.path())
                    + ": " + FileErrors.describe(e) + ".", e);
        }
    }

    private void closeCurrent() throws IOException {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    @Override
    public void close() {
        try {
            closeCurrent();
        } catch (IOException e) {
            // read-only: nothing was left unwritten
        }
    }
}
