package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.ClientTable;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.request.Command;
import io.fluxperf.trace.Outcome;
import io.fluxperf.trace.TraceFormatException;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reads a fluxperf trace as a command log: each record's command (a {@link Command} ordinal, named
 * in the header), its first key and key count (a multi-key request repeats the first key, which
 * is all the trace keeps), its value size (synthesised), at its intended send time, on its
 * original connection, with its outcome as the original reply. Warm-up records are skipped, as the run's report leaves them out; records
 * of template commands are skipped too (a trace does not keep their words).
 */
final class TraceLogReader implements LogReader {
    static final String WARMUP = "warm-up record (the run's report leaves it out too)";

    private final TraceReader reader;
    private final ReaderContext ctx;
    private final TraceRecord record = new TraceRecord();
    private final ClientTable clients = new ClientTable();
    private final int[] verbByCode = new int[256];
    private final Command[] commandByCode = new Command[256];
    private final long size;
    private boolean endReported;

    TraceLogReader(Path directory, ReaderContext ctx) {
        this.reader = open(directory);
        this.ctx = ctx;
        this.size = reader.footer().map(f -> f.recordsWritten()).orElse(-1L);
        for (int code = 0; code < 256; code++) {
            String name = reader.header().commandName(code);
            Command c = Command.parse(name);
            commandByCode[code] = c;
            if (c != null) {
                byte[] b = c.label().getBytes(StandardCharsets.US_ASCII);
                verbByCode[code] = ctx.verbs.id(b, 0, b.length);
            }
        }
    }

    static TraceReader open(Path directory) {
        try {
            return TraceReader.open(directory);
        } catch (TraceFormatException e) {
            throw new UserError(trimPeriod(e.getMessage()));
        }
    }

    /** The protocol the trace's requests were sent with (its header's first protocol name). */
    static String protocol(Path directory) {
        try (TraceReader r = open(directory)) {
            return r.header().protocols().isEmpty() ? null : r.header().protocols().get(0);
        }
    }

    private static String trimPeriod(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    @Override
    public boolean next(LogEntry e) {
        while (true) {
            boolean more;
            try {
                more = reader.next(record);
            } catch (TraceFormatException damaged) {
                ctx.bad.add(ctx.name + ", record " + (reader.recordsRead() + 1), trimPeriod(damaged.getMessage()));
                return false; // a damaged record: what follows cannot be trusted
            }
            if (!more) {
                reportCut();
                return false;
            }
            long n = reader.recordsRead();
            if (record.warmup()) {
                ctx.stats.skip(WARMUP);
                continue;
            }
            Command c = commandByCode[record.command()];
            if (c == null) {
                ctx.bad.add(ctx.name + ", record " + n, "unknown command code " + record.command());
                continue;
            }
            if (c == Command.COMMAND) {
                ctx.stats.skip("template or replayed command (a trace does not keep its words)");
                continue;
            }
            if (c == Command.FLUSH && !ctx.allowFlush) {
                ctx.stats.skip("flush (replayed only with --allow-flush)");
                continue;
            }
            if (!ctx.speaks(c)) {
                ctx.stats.skip(c.label() + " (" + ctx.protocol + " has no such command)");
                continue;
            }
            e.reset();
            e.command(c);
            e.verb = verbByCode[record.command()];
            e.timeNanos = record.intendedSendNanos();
            e.sortKey = e.timeNanos;
            e.line = n;
            e.position = n;
            e.client = clients.id(record.connectionId());
            int keys = Math.max(1, record.keyCount());
            if (record.keyLength() > 0 || c != Command.FLUSH && c != Command.PING) {
                int copies = c.isRead() || c == Command.DELETE || c == Command.EXISTS ? keys : 1;
                for (int i = 0; i < copies; i++) {
                    e.addKey(ctx.keyPrefix, record.keyBuffer(), 0, record.keyLength());
                }
            }
            if (c.carriesValue()) {
                e.synthSize = record.valueSize();
            }
            if (c == Command.INCR || c == Command.DECR) {
                e.numeric = 1;
            }
            e.originalReply = originalReply(record.outcome());
            return true;
        }
    }

    /**
     * What the traced run's server answered, as a capture's replies are counted: the trace records
     * every request's outcome, so its profile has a hit rate and its replay an original one; a
     * timeout or a closed connection got no reply.
     */
    static byte originalReply(int outcome) {
        return switch (outcome) {
            case Outcome.OK -> LogEntry.REPLY_OK;
            case Outcome.MISS -> LogEntry.REPLY_MISS;
            case Outcome.ERROR -> LogEntry.REPLY_ERROR;
            default -> LogEntry.REPLY_UNKNOWN;
        };
    }

    /** A trace cut short (a partial copy, a killed writer) was read up to its last whole record: say so once. */
    private void reportCut() {
        if (!endReported) {
            endReported = true;
            reader.warning().ifPresent(w -> ctx.bad.add(ctx.name, trimPeriod(w)));
        }
    }

    @Override
    public long position() {
        return reader.recordsRead();
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public long lines() {
        return reader.recordsRead();
    }

    @Override
    public void close() {
        reader.close();
    }
}
