package io.fluxperf.testkit;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.protocol.Protocols;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Test helpers: read a log with a reader, every command kept (as the read-ahead would hold them). */
public final class LogReaders {
    private LogReaders() {
    }

    public static ReaderContext context(String protocol, boolean strict, String prefix, BadLines bad, LogStats stats) {
        return new ReaderContext("log", bad, new VerbTable(), stats,
                prefix == null ? null : prefix.getBytes(StandardCharsets.UTF_8), false, protocol, Protocols.find(protocol)::supports);
    }

    /** Every command the reader returns, in read order; entries a later line dropped are marked. */
    public static List<LogEntry> readAll(LogReader reader) {
        List<LogEntry> out = new ArrayList<>();
        try (reader) {
            while (true) {
                LogEntry e = new LogEntry();
                if (!reader.next(e)) {
                    return out;
                }
                e.inWindow = true;
                out.add(e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path write(Path dir, String name, String content) {
        try {
            return Files.write(dir.resolve(name), content.getBytes(StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String key(LogEntry e, int i) {
        return new String(e.keys, e.keyStart(i), e.keyLength(i), StandardCharsets.ISO_8859_1);
    }
}
