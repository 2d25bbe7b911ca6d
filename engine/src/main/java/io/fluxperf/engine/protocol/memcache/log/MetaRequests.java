package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.LineReader;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.protocol.Base64Keys;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The meta commands of a raw memcache stream ({@code mg}, {@code ms}, {@code md}, {@code ma},
 * {@code mn}, {@code me}) as protocol-neutral commands, for {@link MemcacheAsciiReader}:
 * <ul>
 * <li>{@code mg} is a get, a gets with {@code c}, a touch with {@code T<ttl>} (memcached counts it
 *     as a touch);</li>
 * <li>{@code ms KEY LEN} with its data block is a set, with {@code ME} an add, {@code MR} a replace,
 *     {@code MA} an append, {@code MP} a prepend; a set or replace with {@code C<cas>} is a cas;
 *     {@code T<ttl>} is kept;</li>
 * <li>{@code md} is a delete; {@code ma} an incr, with {@code MD} a decr, by {@code D<delta>} (1);</li>
 * <li>{@code me} is an exists where the protocol sends one (memcache-meta), else skipped;
 *     {@code mn} is skipped, as the replaying codec ends its own batches.</li>
 * </ul>
 * A {@code b} key is base64-decoded. {@code q} is dropped (every reply is timed); the return flags
 * and the opaque are the replaying run's own ({@code --meta-flags}, {@code --meta-get-flags}).
 * Nothing is allocated per line once the key buffer has grown.
 */
final class MetaRequests {
    private final ReaderContext ctx;
    private final LineReader lines;
    /** The verb id of each command's name, -1 until first used (Command.label() makes a new string). */
    private final int[] verbIds = new int[Command.values().length];
    private byte[] key = new byte[256];

    // flags of the line being read
    private boolean base64;
    private boolean withCas;
    private boolean quiet;
    private long ttl;
    private byte mode;
    private long cas;
    private long delta;
    private long dataLength;
    private String skipped;

    MetaRequests(ReaderContext ctx, LineReader lines) {
        this.ctx = ctx;
        this.lines = lines;
        Arrays.fill(verbIds, -1);
    }

    /** Whether the token {@code b[from, to)} is a meta verb ("m" and one more letter). */
    static boolean isMeta(byte[] b, int from, int to) {
        return to - from == 2 && b[from] == 'm';
    }

    /**
     * Fills {@code e} from a meta command line of {@code tokens} tokens (reading the data block of an
     * {@code ms}). Returns null for a command to send, "" for a line skipped (counted), else what is wrong.
     */
    String read(byte[] b, int[] from, int[] to, int tokens, LogEntry e) throws IOException {
        String error = line(b, from, to, tokens, e);
        if (dataLength >= 0) {
            // the data block follows whatever the line said, and is never read as a command
            int at = lines.block((int) dataLength + 2);
            if (at < 0) {
                return "truncated data block (" + dataLength + " bytes announced)";
            }
            byte[] data = lines.buffer();
            if (data[at + (int) dataLength] != '\r' || data[at + (int) dataLength + 1] != '\n') {
                return "data block of " + dataLength + " bytes does not end in \\r\\n";
            }
            if (error == null) {
                System.arraycopy(data, at, e.valueBuffer((int) dataLength), 0, (int) dataLength);
            }
        }
        if (error != null) {
            if (error.isEmpty()) {
                ctx.stats.skip(skipped);
            }
            return error;
        }
        if (quiet) {
            ctx.stats.adjust("quiet flag dropped (every reply is timed)");
        }
        return null;
    }

    /**
     * Fills {@code e} from a meta command line, all but an {@code ms}'s data block, for a reader
     * that reads the block itself (a captured connection's). Returns null for a command to send, ""
     * for a command to skip ({@link #skipped()} says why; not counted), else what is wrong. Then
     * {@link #dataLength()} is the length of the data block that follows (whatever else the line
     * said), or -1, and {@link #quiet()} whether the command had the {@code q} flag.
     */
    String line(byte[] b, int[] from, int[] to, int tokens, LogEntry e) {
        dataLength = -1;
        quiet = false;
        skipped = null;
        byte verb = b[from[0] + 1];
        switch (verb) {
            case 'n' -> {
                skipped = "meta no-op (mn)";
                return "";
            }
            case 'e' -> {
                if (!ctx.speaks(Command.EXISTS)) {
                    skipped = "meta debug (me), which " + ctx.protocol + " cannot send";
                    return "";
                }
            }
            case 'g', 's', 'd', 'a' -> {
                // below
            }
            default -> {
                return "unknown command 'm" + MemcacheAsciiReader.printable(String.valueOf((char) (verb & 0xff))) + "'";
            }
        }
        String name = "m" + (char) verb;
        if (tokens < 2) {
            return "truncated line (" + name + " without a key)";
        }
        int firstFlag = 2;
        if (verb == 's') {
            if (tokens < 3) {
                return "truncated line (ms needs a key and a data length)";
            }
            long length = MemcacheWatchReader.number(b, from[2], to[2]);
            if (length < 0 || length > (1 << 30)) {
                return "bad data length in ms";
            }
            dataLength = length;
            firstFlag = 3;
        }
        String error = flags(b, from, to, firstFlag, tokens, name);
        if (error == null) {
            error = key(b, from[1], to[1], e);
        }
        return error != null ? error : command(verb, e, name);
    }

    /** After {@link #line}: the length of the data block of an {@code ms} that follows the line, or -1. */
    long dataLength() {
        return dataLength;
    }

    /** After {@link #line}: the command had the {@code q} flag (its reply is sent only for some outcomes). */
    boolean quiet() {
        return quiet;
    }

    /** After {@link #line} returned "": why the command is skipped. */
    String skipped() {
        return skipped;
    }

    private String command(byte verb, LogEntry e, String name) {
        Command c;
        switch (verb) {
            case 'g' -> c = ttl != Long.MIN_VALUE ? Command.TOUCH : withCas ? Command.GETS : Command.GET;
            case 's' -> {
                c = switch (mode) {
                    case 0, 'S' -> Command.SET;
                    case 'E' -> Command.ADD;
                    case 'R' -> Command.REPLACE;
                    case 'A' -> Command.APPEND;
                    case 'P' -> Command.PREPEND;
                    default -> null;
                };
                if (c == null) {
                    return "invalid mode M" + (char) mode + " in ms";
                }
                if (cas != Long.MIN_VALUE && (c == Command.SET || c == Command.REPLACE)) {
                    c = Command.CAS; // as memcached upgrades them
                    e.numeric = cas;
                }
            }
            case 'd' -> c = Command.DELETE;
            case 'a' -> {
                c = switch (mode) {
                    case 0, 'I', '+' -> Command.INCR;
                    case 'D', '-' -> Command.DECR;
                    default -> null;
                };
                if (c == null) {
                    return "invalid mode M" + (char) mode + " in ma";
                }
                e.numeric = delta;
            }
            default -> c = Command.EXISTS;
        }
        if (ttl != Long.MIN_VALUE && (c == Command.TOUCH || c.carriesValue())) {
            e.ttlSeconds = (int) Math.max(0, Math.min(Integer.MAX_VALUE, ttl));
        }
        e.command(c);
        e.verb = verbId(c);
        return null;
    }

    /** Reads the flags that decide the command; the others (return flags, opaque, …) are the replay's own. */
    private String flags(byte[] b, int[] from, int[] to, int first, int tokens, String name) {
        base64 = false;
        withCas = false;
        quiet = false;
        ttl = Long.MIN_VALUE;
        mode = 0;
        cas = Long.MIN_VALUE;
        delta = 1;
        for (int i = first; i < tokens; i++) {
            int f = from[i];
            switch (b[f]) {
                case 'b' -> base64 = true;
                case 'c' -> withCas = true;
                case 'q' -> quiet = true;
                case 'T' -> {
                    ttl = MemcacheWatchReader.number(b, f + 1, to[i]);
                    if (ttl == Long.MIN_VALUE) {
                        return "bad T flag in " + name;
                    }
                }
                case 'M' -> {
                    if (to[i] - f != 2) {
                        return "bad M flag in " + name;
                    }
                    mode = b[f + 1];
                }
                case 'C' -> {
                    cas = MemcacheWatchReader.number(b, f + 1, to[i]);
                    if (cas < 0) {
                        return "bad C flag in " + name;
                    }
                }
                case 'D' -> {
                    delta = MemcacheWatchReader.number(b, f + 1, to[i]);
                    if (delta < 0) {
                        return "bad D flag in " + name;
                    }
                }
                default -> {
                    // v, t, f, k, s, O, N, J, F, …: what the original client asked to see, not what it asked for
                }
            }
        }
        return null;
    }

    private String key(byte[] b, int from, int to, LogEntry e) {
        if (!base64) {
            e.addKey(ctx.keyPrefix, b, from, to - from);
            return null;
        }
        if (key.length < to - from) {
            key = new byte[Math.max(to - from, key.length * 2)];
        }
        int n = Base64Keys.decode(b, from, to, key, 0);
        if (n < 0) {
            return "key '" + new String(b, from, Math.min(to - from, 40), StandardCharsets.ISO_8859_1)
                    + "' is not base64 (it has the b flag)";
        }
        e.addKey(ctx.keyPrefix, key, 0, n);
        return null;
    }

    private int verbId(Command c) {
        int id = verbIds[c.ordinal()];
        if (id < 0) {
            byte[] name = c.label().getBytes(StandardCharsets.US_ASCII);
            id = verbIds[c.ordinal()] = ctx.verbs.id(name, 0, name.length);
        }
        return id;
    }
}
