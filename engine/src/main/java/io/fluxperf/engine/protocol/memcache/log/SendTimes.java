package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.ClientTable;
import io.fluxperf.engine.log.LineReader;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.ReaderContext;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The sidecar CSV of a raw protocol stream: row {@code i} gives the send time of the stream's
 * command {@code i}, as decimal seconds (epoch or relative: {@code 1700000000.000125},
 * {@code 0.5}), optionally followed by a client name ({@code 10.0.0.7:41234}) that keeps that
 * client's commands on one connection. A first row that does not start with a number is a header.
 * Blank lines are ignored.
 */
final class SendTimes implements AutoCloseable {
    private final LogInput input;
    private final LineReader lines;
    private final ReaderContext ctx;
    private final String name;
    private final ClientTable clients = new ClientTable();
    private long timeNanos;
    private int client;
    private long rows;

    SendTimes(Path csv, ReaderContext ctx) {
        this.input = LogInput.open(csv);
        this.lines = new LineReader(input.stream(), 1 << 16);
        this.ctx = ctx;
        this.name = csv.toString();
    }

    /** Reads the next row; false when the file has no more. A bad row is reported and skipped. */
    boolean next() throws IOException {
        while (lines.next()) {
            byte[] b = lines.buffer();
            int from = lines.start();
            int to = lines.end();
            if (from == to) {
                continue;
            }
            int comma = from;
            while (comma < to && b[comma] != ',') {
                comma++;
            }
            long t = seconds(b, from, comma);
            if (t == Long.MIN_VALUE) {
                if (lines.lineNumber() == 1) {
                    continue; // a header
                }
                ctx.bad.add(name + ":" + lines.lineNumber(), "not a send time in seconds");
                continue;
            }
            timeNanos = t;
            int c = comma + 1;
            while (c < to && b[c] == ' ') {
                c++;
            }
            client = comma < to && c < to ? clients.id(b, c, to) : -1;
            rows++;
            return true;
        }
        return false;
    }

    /** Decimal seconds to ns, or Long.MIN_VALUE when the text is not a number. */
    static long seconds(byte[] b, int from, int to) {
        while (from < to && b[from] == ' ') {
            from++;
        }
        while (to > from && b[to - 1] == ' ') {
            to--;
        }
        long whole = 0;
        int p = from;
        int digits = 0;
        while (p < to && b[p] >= '0' && b[p] <= '9') {
            if (++digits > 11) {
                return Long.MIN_VALUE;
            }
            whole = whole * 10 + (b[p++] - '0');
        }
        long fraction = 0;
        int fractionDigits = 0;
        if (p < to && b[p] == '.') {
            p++;
            while (p < to && b[p] >= '0' && b[p] <= '9') {
                if (fractionDigits < 9) {
                    fraction = fraction * 10 + (b[p] - '0');
                    fractionDigits++;
                }
                p++;
            }
        }
        if (p != to || digits + fractionDigits == 0) {
            return Long.MIN_VALUE;
        }
        for (int k = fractionDigits; k < 9; k++) {
            fraction *= 10;
        }
        return whole * 1_000_000_000L + fraction;
    }

    long timeNanos() {
        return timeNanos;
    }

    int client() {
        return client;
    }

    long rows() {
        return rows;
    }

    @Override
    public void close() {
        input.close();
    }
}
