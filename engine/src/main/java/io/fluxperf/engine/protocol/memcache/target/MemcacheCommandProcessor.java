package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Stat;
import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Verb;
import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.CommandProcessorBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import static io.fluxperf.engine.protocol.memcache.target.MemcacheReplies.*;

/**
 * Executes one connection's memcache commands against the store and appends the replies to the
 * connection's current reply batch, answering as memcached 1.6.18 answers: the same argument
 * checks in the same order, the same error texts, {@code noreply} silencing every reply of a
 * command that accepts it (errors included), and the same treatment of odd numbers.
 *
 * <p>Meta commands (mg, ms, md, ma, mn, me) go to {@link MetaCommands}. Administrative commands
 * (lru_crawler, slabs, watch, …) are not implemented and get ERROR. Confined to the connection's
 * event loop.
 */
final class MemcacheCommandProcessor extends CommandProcessorBase implements MemcacheRequestDecoder.Sink {

    private static final byte[] RESET_WORD = "reset".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SETTINGS_WORD = "settings".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] EMPTY_STATS_GROUPS = {
        "items".getBytes(StandardCharsets.US_ASCII), "slabs".getBytes(StandardCharsets.US_ASCII),
        "sizes".getBytes(StandardCharsets.US_ASCII), "conns".getBytes(StandardCharsets.US_ASCII)};

    private final MemcacheStore store;
    private final MemcacheCounters.Cell counters;
    private final MemcacheServerStats stats;
    private final SocketAddress localAddress;

    private final ByteKey probe = ByteKey.probe();
    private final AsciiNumbers numbers = new AsciiNumbers();
    private final MetaCommands meta;
    private boolean noreply;

    // a storage command waiting for its data block
    private int pendingMode;
    private ByteKey pendingKey;
    private int pendingFlags;
    private long pendingExpiry;
    private long pendingCas;
    private boolean pendingNoreply;

    /**
     * @param earlyWriter takes a reply batch that grew past {@link #EARLY_WRITE_BYTES} mid-read
     * @param localAddress the address the client connected to, for {@code stats settings}
     */
    MemcacheCommandProcessor(MemcacheStore store, MemcacheCounters.Cell counters, MemcacheServerStats stats,
                             ByteBufAllocator alloc, Consumer<ByteBuf> earlyWriter, SocketAddress localAddress) {
        super(alloc, 512, earlyWriter);
        this.store = store;
        this.counters = counters;
        this.stats = stats;
        this.localAddress = localAddress;
        this.meta = new MetaCommands(store, counters, numbers);
    }

    @Override
    public void release() {
        super.release();
        pendingKey = null;
        meta.release();
    }

    @Override
    public void onLine(CommandLine line, MemcacheRequestDecoder decoder) {
        noreply = false;
        if (line.count() == 0 || line.length(0) < 2) {
            error(); // memcached: no command is shorter than two bytes
            return;
        }
        int n = line.memcachedTokens();
        byte first = line.firstByte(0);
        if (line.count() > 1) {
            served(line.bytes, line.start(1), line.length(1));
        } else {
            served(line.bytes, 0, 0);
        }
        if (MetaCommands.isMeta(line)) {
            meta.onLine(line, decoder, out(), now);
            writeEarlyIfLarge();
            return;
        }
        switch (first) {
            case 'g' -> {
                if (n < 3) {
                    error();
                } else if (line.is(0, GET)) {
                    get(line, Verb.GET, false, false);
                } else if (line.is(0, GETS)) {
                    get(line, Verb.GETS, true, false);
                } else if (line.is(0, GAT)) {
                    get(line, Verb.GAT, false, true);
                } else if (line.is(0, GATS)) {
                    get(line, Verb.GATS, true, true);
                } else {
                    error();
                }
            }
            case 's' -> {
                if (line.is(0, SET)) {
                    update(line, n == 6 || n == 7, MemcacheStore.SET, Verb.SET, decoder);
                } else if (line.is(0, STATS)) {
                    stats(line, n);
                } else if (line.is(0, SHUTDOWN)) {
                    counters.count(Verb.ERROR);
                    out().writeBytes(SHUTDOWN_DISABLED);
                } else {
                    error();
                }
            }
            case 'a' -> {
                if (line.is(0, ADD)) {
                    update(line, n == 6 || n == 7, MemcacheStore.ADD, Verb.ADD, decoder);
                } else if (line.is(0, APPEND)) {
                    update(line, n == 6 || n == 7, MemcacheStore.APPEND, Verb.APPEND, decoder);
                } else {
                    error();
                }
            }
            case 'c' -> {
                if (line.is(0, CAS)) {
                    update(line, n == 7 || n == 8, MemcacheStore.CAS, Verb.CAS, decoder);
                } else {
                    error();
                }
            }
            case 'i' -> {
                if (line.is(0, INCR) && (n == 4 || n == 5)) {
                    arithmetic(line, true);
                } else {
                    error();
                }
            }
            case 'd' -> {
                if (line.is(0, DELETE) && n >= 3 && n <= 5) {
                    delete(line, n);
                } else if (line.is(0, DECR) && (n == 4 || n == 5)) {
                    arithmetic(line, false);
                } else {
                    error();
                }
            }
            case 't' -> {
                if (line.is(0, TOUCH) && (n == 4 || n == 5)) {
                    touch(line);
                } else {
                    error();
                }
            }
            default -> other(line, n, decoder);
        }
        writeEarlyIfLarge();
    }

    @Override
    public void onData(byte[] value, boolean endsWithCrlf) {
        if (meta.awaitingData()) {
            meta.onData(value, endsWithCrlf, out(), now);
            writeEarlyIfLarge();
            return;
        }
        noreply = pendingNoreply;
        ByteKey key = pendingKey;
        pendingKey = null;
        counters.increment(Stat.CMD_SET); // memcached counts the set before checking the data block
        if (!endsWithCrlf) {
            reply(BAD_DATA_CHUNK);
            return;
        }
        int result = store.store(pendingMode, key, pendingFlags, pendingExpiry, value, pendingCas, now);
        if (pendingMode == MemcacheStore.CAS) {
            counters.increment(result == MemcacheStore.STORED ? Stat.CAS_HITS
                    : result == MemcacheStore.EXISTS ? Stat.CAS_BADVAL : Stat.CAS_MISSES);
        }
        reply(switch (result) {
            case MemcacheStore.STORED -> STORED;
            case MemcacheStore.EXISTS -> EXISTS;
            case MemcacheStore.NOT_FOUND -> NOT_FOUND;
            default -> NOT_STORED;
        });
        writeEarlyIfLarge();
    }

    @Override
    public void onLineTooLong() {
        counters.count(Verb.ERROR);
        out().writeBytes(LINE_TOO_LONG);
    }

    /** Commands memcached matches outside its first-letter switch, and its HTTP guard. */
    private void other(CommandLine line, int n, MemcacheRequestDecoder decoder) {
        if (line.is(0, PREPEND)) {
            update(line, n == 6 || n == 7, MemcacheStore.PREPEND, Verb.PREPEND, decoder);
        } else if (line.is(0, REPLACE)) {
            update(line, n == 6 || n == 7, MemcacheStore.REPLACE, Verb.REPLACE, decoder);
        } else if (line.is(0, BGET)) {
            if (n >= 3) {
                get(line, Verb.GET, false, false); // the ancient binary-get alias memcached still accepts
            } else {
                error();
            }
        } else if (line.is(0, FLUSH_ALL)) {
            if (n >= 2 && n <= 4) {
                flushAll(line, n);
            } else {
                error();
            }
        } else if (line.is(0, VERSION_CMD)) {
            counters.count(Verb.VERSION);
            out().writeBytes(VERSION_REPLY);
        } else if (line.is(0, QUIT)) {
            counters.count(Verb.QUIT);
            decoder.stop(); // the connection closes once the replies so far are written
        } else if (line.is(0, VERBOSITY)) {
            if (n == 3 || n == 4) {
                verbosity(line);
            } else {
                error();
            }
        } else if (line.startsWith(n - 2, HTTP)) {
            counters.count(Verb.ERROR);
            decoder.stop(); // an HTTP client: memcached hangs up without a word
        } else {
            error();
        }
    }

    private void get(CommandLine line, Verb verb, boolean withCas, boolean touch) {
        counters.count(verb);
        byte[] b = line.bytes;
        int firstKey = 1;
        long expiry = 0;
        if (touch) {
            if (!numbers.parseSigned(b, line.start(1), line.end(1))) {
                out().writeBytes(INVALID_EXPTIME);
                return;
            }
            expiry = Item.expiryMillis((int) numbers.value, now);
            firstKey = 2;
        }
        // memcached looks keys up until one is too long, then drops this get's values and answers only
        // the error; finding that key first lets values stream out early (bounded memory for huge gets)
        int count = line.count();
        int tooLong = -1;
        for (int i = firstKey; i < count; i++) {
            if (line.length(i) > MemcacheStore.MAX_KEY_LENGTH) {
                tooLong = i;
                break;
            }
        }
        int end = tooLong < 0 ? count : tooLong;
        for (int i = firstKey; i < end; i++) {
            probe.view(b, line.start(i), line.length(i));
            Item item = touch ? store.getAndTouch(probe, expiry, now) : store.get(probe, now);
            counters.increment(touch ? Stat.CMD_TOUCH : Stat.CMD_GET); // memcached counts a gat as a touch only
            if (item == null) {
                counters.increment(touch ? Stat.TOUCH_MISSES : Stat.GET_MISSES);
                continue;
            }
            counters.increment(touch ? Stat.TOUCH_HITS : Stat.GET_HITS);
            if (tooLong < 0) {
                writeValue(item, withCas);
                writeEarlyIfLarge();
            }
        }
        out().writeBytes(tooLong < 0 ? END : BAD_FORMAT);
    }

    private void writeValue(Item item, boolean withCas) {
        ByteBuf o = out();
        o.writeBytes(VALUE);
        probe.writeTo(o);
        o.writeByte(' ');
        numbers.writeUnsigned(o, Integer.toUnsignedLong(item.flags));
        o.writeByte(' ');
        numbers.writeUnsigned(o, item.value.length);
        if (withCas) {
            o.writeByte(' ');
            numbers.writeUnsigned(o, item.cas);
        }
        o.writeBytes(CRLF);
        o.writeBytes(item.value);
        o.writeBytes(CRLF);
    }

    /** set, add, replace, append, prepend and cas: checks the line, then waits for the data block. */
    private void update(CommandLine line, boolean tokenCountOk, int mode, Verb verb, MemcacheRequestDecoder decoder) {
        if (!tokenCountOk) {
            error();
            return;
        }
        counters.count(verb);
        noreply = line.lastIs(NOREPLY);
        byte[] b = line.bytes;
        int keyLength = line.length(1);
        if (keyLength > MemcacheStore.MAX_KEY_LENGTH) {
            reply(BAD_FORMAT);
            return;
        }
        if (!numbers.parseUnsigned(b, line.start(2), line.end(2))) {
            reply(BAD_FORMAT);
            return;
        }
        int flags = (int) numbers.value;
        if (!numbers.parseSigned(b, line.start(3), line.end(3))) {
            reply(BAD_FORMAT);
            return;
        }
        int exptime = (int) numbers.value;
        if (!numbers.parseSigned(b, line.start(4), line.end(4))) {
            reply(BAD_FORMAT);
            return;
        }
        int length = (int) numbers.value;
        long cas = 0;
        if (mode == MemcacheStore.CAS) {
            if (!numbers.parseUnsigned64(b, line.start(5), line.end(5))) {
                reply(BAD_FORMAT);
                return;
            }
            cas = numbers.value;
        }
        if (length < 0 || length > Integer.MAX_VALUE - 2) {
            reply(BAD_FORMAT);
            return;
        }
        if (!store.fits(keyLength, length)) {
            counters.increment(Stat.STORE_TOO_LARGE);
            reply(TOO_LARGE);
            if (mode == MemcacheStore.SET) {
                store.delete(probe.view(b, line.start(1), keyLength), now); // memcached drops the stale value
            }
            decoder.swallow(length + 2L);
            return;
        }
        pendingMode = mode;
        pendingKey = ByteKey.copyOf(b, line.start(1), keyLength);
        pendingFlags = flags;
        pendingExpiry = Item.expiryMillis(exptime, now);
        pendingCas = cas;
        pendingNoreply = noreply;
        decoder.expectData(length);
    }

    private void delete(CommandLine line, int n) {
        counters.count(Verb.DELETE);
        if (n > 3) {
            boolean holdIsZero = line.is(2, ZERO);
            noreply = line.lastIs(NOREPLY);
            boolean valid = (n == 4 && (holdIsZero || noreply)) || (n == 5 && holdIsZero && noreply);
            if (!valid) {
                reply(DELETE_USAGE);
                return;
            }
        }
        int keyLength = line.length(1);
        if (keyLength > MemcacheStore.MAX_KEY_LENGTH) {
            reply(BAD_FORMAT);
            return;
        }
        if (store.delete(probe.view(line.bytes, line.start(1), keyLength), now)) {
            counters.increment(Stat.DELETE_HITS);
            reply(DELETED);
        } else {
            counters.increment(Stat.DELETE_MISSES);
            reply(NOT_FOUND);
        }
    }

    private void arithmetic(CommandLine line, boolean incr) {
        counters.count(incr ? Verb.INCR : Verb.DECR);
        noreply = line.lastIs(NOREPLY);
        int keyLength = line.length(1);
        if (keyLength > MemcacheStore.MAX_KEY_LENGTH) {
            reply(BAD_FORMAT);
            return;
        }
        if (!numbers.parseUnsigned64(line.bytes, line.start(2), line.end(2))) {
            reply(INVALID_DELTA);
            return;
        }
        long delta = numbers.value;
        int result = store.incrDecr(probe.view(line.bytes, line.start(1), keyLength), incr, delta, now, numbers);
        switch (result) {
            case MemcacheStore.OK -> {
                counters.increment(incr ? Stat.INCR_HITS : Stat.DECR_HITS);
                if (!noreply) {
                    ByteBuf o = out();
                    numbers.writeUnsigned(o, numbers.value);
                    o.writeBytes(CRLF);
                }
            }
            case MemcacheStore.NON_NUMERIC -> reply(NON_NUMERIC);
            default -> {
                counters.increment(incr ? Stat.INCR_MISSES : Stat.DECR_MISSES);
                reply(NOT_FOUND);
            }
        }
    }

    private void touch(CommandLine line) {
        counters.count(Verb.TOUCH);
        noreply = line.lastIs(NOREPLY);
        int keyLength = line.length(1);
        if (keyLength > MemcacheStore.MAX_KEY_LENGTH) {
            reply(BAD_FORMAT);
            return;
        }
        if (!numbers.parseSigned(line.bytes, line.start(2), line.end(2))) {
            reply(INVALID_EXPTIME);
            return;
        }
        long expiry = Item.expiryMillis((int) numbers.value, now);
        counters.increment(Stat.CMD_TOUCH);
        if (store.touch(probe.view(line.bytes, line.start(1), keyLength), expiry, now)) {
            counters.increment(Stat.TOUCH_HITS);
            reply(TOUCHED);
        } else {
            counters.increment(Stat.TOUCH_MISSES);
            reply(NOT_FOUND);
        }
    }

    private void flushAll(CommandLine line, int n) {
        counters.count(Verb.FLUSH_ALL);
        noreply = line.lastIs(NOREPLY);
        counters.increment(Stat.CMD_FLUSH);
        int delay = 0;
        if (n != (noreply ? 3 : 2)) {
            if (!numbers.parseSigned(line.bytes, line.start(1), line.end(1))) {
                reply(INVALID_EXPTIME);
                return;
            }
            delay = (int) numbers.value;
        }
        store.flushAll(delay > 0 ? Item.expiryMillis(delay, now) : now, now);
        reply(OK);
    }

    private void verbosity(CommandLine line) {
        counters.count(Verb.VERBOSITY);
        noreply = line.lastIs(NOREPLY);
        if (!numbers.parseUnsigned(line.bytes, line.start(1), line.end(1))) {
            reply(BAD_FORMAT);
            return;
        }
        reply(OK); // there is no log to make more verbose
    }

    private void stats(CommandLine line, int n) {
        counters.count(Verb.STATS);
        if (n == 2) {
            stats.writeGeneral(out());
        } else if (line.is(1, RESET_WORD)) {
            stats.reset();
            out().writeBytes(RESET);
        } else if (line.is(1, SETTINGS_WORD)) {
            stats.writeSettings(out(), localAddress);
        } else if (isAny(line, 1, EMPTY_STATS_GROUPS)) {
            out().writeBytes(END); // slab and connection details have no counterpart here
        } else {
            out().writeBytes(ERROR);
        }
    }

    private void error() {
        counters.count(Verb.ERROR);
        out().writeBytes(ERROR);
    }

    private void reply(byte[] reply) {
        if (!noreply) {
            out().writeBytes(reply);
        }
    }

    private static boolean isAny(CommandLine line, int token, byte[][] words) {
        for (byte[] w : words) {
            if (line.is(token, w)) {
                return true;
            }
        }
        return false;
    }
}
