package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.Base64Keys;
import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Stat;
import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Verb;
import io.fluxperf.engine.target.ByteKey;
import io.netty.buffer.ByteBuf;

import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.CRLF;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.MAX_OPAQUE;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.ascii;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.digits;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.errorLine;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.flag;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.opaque;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.secondsLeft;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.slabClass;
import static io.fluxperf.engine.protocol.memcache.target.MetaReplies.writeKey;

/**
 * One connection's meta commands ({@code mg}, {@code ms}, {@code md}, {@code ma}, {@code mn},
 * {@code me}), answered as memcached 1.6.18 answers them (proto_text.c): the same flag checks in the
 * same order, the same error texts, the same codes and return flags in the order the request gave
 * them, quiet mode leaving out {@code EN} of a get and the {@code HD} of the other commands, and
 * the same stats: an mg counts as a get (with {@code T}, a hit counts as a touch), ms as a set, md
 * in delete_hits or delete_misses, ma in incr or decr hits and misses except when {@code N}
 * creates the key.
 *
 * <p>Flags: mg takes b c f h k N O q s t T u v; ms b c C F k M (S E A P R) O q T; md b C k O q;
 * ma b c C D J k M (I + D -) N O q t T v; me b. Stale items, recache and the last-access time
 * are not kept, so {@code I}, {@code R} and {@code l} are answered {@code CLIENT_ERROR invalid flag};
 * {@code P} and {@code L} (proxy hints) are taken and ignored; {@code u} leaves the item unmarked as
 * fetched but still moves it up the LRU. In {@code me}'s line {@code la} is 0 (access times are not
 * kept) and {@code cls} and {@code size} are memcached's for the item with its default slab sizes.
 * Confined to the connection's event loop; nothing is allocated per command but stored keys and values.
 */
final class MetaCommands {
    private static final int KEY_MAX_LENGTH = MemcacheStore.MAX_KEY_LENGTH;
    /** memcached's MFLAG_MAX_OPT_LENGTH: more tokens than this (with the terminal one) are refused. */
    private static final int MAX_TOKENS = 20;
    /** memcached's sizeof(item) with cas on a 64-bit build, for me's size. */
    private static final int ITEM_HEADER = 48 + 8;

    private static final byte[] HD = ascii("HD");
    private static final byte[] VA = ascii("VA ");
    private static final byte[] EN = ascii("EN");
    private static final byte[] NF = ascii("NF");
    private static final byte[] NS = ascii("NS");
    private static final byte[] EX = ascii("EX");
    private static final byte[] MN = ascii("MN\r\n");
    private static final byte[] ME = ascii("ME ");
    private static final byte[] EN_LINE = ascii("EN\r\n");
    private static final byte[] NEVER = ascii("-1");
    private static final byte[] ERROR = ascii("ERROR\r\n");
    private static final byte[] EXP = ascii(" exp=");
    private static final byte[] LA_CAS = ascii(" la=0 cas=");
    private static final byte[] FETCHED_CLS = ascii(" fetch=yes cls=");
    private static final byte[] NOT_FETCHED_CLS = ascii(" fetch=no cls=");
    private static final byte[] SIZE = ascii(" size=");
    private static final String BAD_FORMAT = "CLIENT_ERROR bad command line format";
    private static final String OPAQUE_TOO_LONG = "CLIENT_ERROR opaque token too long";

    private final MemcacheStore store;
    private final MemcacheCounters.Cell counters;
    private final AsciiNumbers numbers;
    private final ByteKey probe = ByteKey.probe();
    private final MetaResult result = new MetaResult();
    private final MetaFlags flags;

    // an ms waiting for its data block: its line's tokens are kept for the reply's flags
    private boolean awaitingData;
    private int pendingMode;
    private ByteKey pendingKey;
    private boolean pendingBinary;
    private int pendingFlags;
    private long pendingExpiry;
    private long pendingCas;
    private boolean pendingQuiet;
    private byte[] pendingLine = new byte[256];
    private int[] pendingStarts = new int[MAX_TOKENS];
    private int[] pendingEnds = new int[MAX_TOKENS];
    private int pendingTokens;

    MetaCommands(MemcacheStore store, MemcacheCounters.Cell counters, AsciiNumbers numbers) {
        this.store = store;
        this.counters = counters;
        this.numbers = numbers;
        this.flags = new MetaFlags(numbers);
    }

    /** Whether {@code line} is a meta command: two bytes, the first 'm'. */
    static boolean isMeta(CommandLine line) {
        return line.count() > 0 && line.length(0) == 2 && line.firstByte(0) == 'm';
    }

    /** Whether the last command was an ms whose data block {@link #onData} must complete. */
    boolean awaitingData() {
        return awaitingData;
    }

    void release() {
        pendingKey = null;
    }

    /** Answers a meta command line into {@code out}; an ms asks the decoder for its data block. */
    void onLine(CommandLine line, MemcacheRequestDecoder decoder, ByteBuf out, long now) {
        awaitingData = false;
        int n = line.memcachedTokens();
        switch (line.bytes[line.start(0) + 1]) {
            case 'g' -> get(line, n, out, now);
            case 's' -> set(line, n, decoder, out, now);
            case 'd' -> delete(line, n, out, now);
            case 'a' -> arithmetic(line, n, out, now);
            case 'n' -> {
                counters.count(Verb.MN);
                out.writeBytes(MN);
            }
            case 'e' -> debug(line, n, out, now);
            default -> {
                counters.count(Verb.ERROR);
                out.writeBytes(ERROR);
            }
        }
    }

    // ---- mg ----

    private void get(CommandLine line, int n, ByteBuf out, long now) {
        if (n < 3) {
            error(out);
            return;
        }
        counters.count(Verb.MG);
        if (line.length(1) > KEY_MAX_LENGTH) {
            errorLine(out, BAD_FORMAT);
            return;
        }
        if (n > MAX_TOKENS) {
            errorLine(out, "CLIENT_ERROR options flags are too long");
            return;
        }
        if (!flags.parse(line, 2, n, now)) {
            errorLine(out, flags.error == null ? BAD_FORMAT : flags.error);
            return;
        }
        ByteKey k = probe.view(flags.key, 0, flags.keyLength);
        long newExpiry = flags.hasTtl ? flags.ttlExpiry : MetaResult.KEEP;
        long vivifiedExpiry = flags.ttlAfterVivify && flags.hasTtl ? flags.ttlExpiry : flags.vivifyExpiry;
        store.metaGet(k, flags.noUpdate, newExpiry, flags.vivify, vivifiedExpiry, flags.keyBinary,
                now, result);
        Item it = result.item;
        int mark = out.writerIndex();
        if (it == null) {
            counters.increment(Stat.GET_MISSES); // memcached counts a missed touch as a get miss
            counters.increment(Stat.CMD_GET);
            out.writeBytes(EN);
            for (int i = 2; i < n - 1; i++) {
                byte f = line.firstByte(i);
                if (f == 'O') {
                    if (!opaque(line, i, out)) {
                        out.writerIndex(mark);
                        errorLine(out, OPAQUE_TOO_LONG);
                        return;
                    }
                } else if (f == 'k') {
                    writeKey(out, flags.key, 0, flags.keyLength, flags.keyBinary);
                }
            }
            out.writeBytes(CRLF);
            if (flags.quiet) {
                out.writerIndex(mark); // quiet mode leaves a miss out
            }
            return;
        }
        if (flags.value) {
            out.writeBytes(VA);
            numbers.writeUnsigned(out, it.value.length);
        } else {
            out.writeBytes(HD);
        }
        boolean touched = false;
        for (int i = 2; i < n - 1; i++) {
            switch (line.firstByte(i)) {
                case 'T' -> touched = true;
                case 's' -> {
                    flag(out, 's');
                    numbers.writeUnsigned(out, it.value.length);
                }
                case 't' -> {
                    flag(out, 't');
                    ttl(out, it, now);
                }
                case 'c' -> {
                    flag(out, 'c');
                    numbers.writeUnsigned(out, it.cas);
                }
                case 'f' -> {
                    flag(out, 'f');
                    numbers.writeUnsigned(out, Integer.toUnsignedLong(it.flags));
                }
                case 'h' -> {
                    flag(out, 'h');
                    out.writeByte(result.fetchedBefore ? '1' : '0');
                }
                case 'O' -> {
                    if (!opaque(line, i, out)) {
                        out.writerIndex(mark);
                        errorLine(out, OPAQUE_TOO_LONG); // memcached counts nothing then
                        return;
                    }
                }
                case 'k' -> writeKey(out, flags.key, 0, flags.keyLength, it.binaryKey);
                default -> {
                    // flags that only change what is done (b, q, u, v, N, P, L)
                }
            }
        }
        if (result.tokenSentBefore) {
            flag(out, 'Z');
        }
        if (result.created) {
            flag(out, 'W');
        }
        out.writeBytes(CRLF);
        if (flags.value) {
            out.writeBytes(it.value);
            out.writeBytes(CRLF);
        }
        if (touched) {
            counters.increment(Stat.CMD_TOUCH);
            counters.increment(Stat.TOUCH_HITS);
        } else {
            counters.increment(Stat.GET_HITS);
            counters.increment(Stat.CMD_GET);
        }
    }

    // ---- ms ----

    private void set(CommandLine line, int n, MemcacheRequestDecoder decoder, ByteBuf out, long now) {
        if (n < 3) {
            error(out);
            return;
        }
        counters.count(Verb.MS);
        if (line.length(1) > KEY_MAX_LENGTH || n == 3) {
            errorLine(out, BAD_FORMAT);
            return;
        }
        if (n > MAX_TOKENS) {
            errorLine(out, "CLIENT_ERROR options flags too long");
            return;
        }
        if (!numbers.parseSigned(line.bytes, line.start(2), line.end(2))) {
            errorLine(out, BAD_FORMAT);
            return;
        }
        long length = (int) numbers.value;
        if (length < 0 || length > Integer.MAX_VALUE - 2) {
            errorLine(out, BAD_FORMAT);
            return;
        }
        String problem = flags.parse(line, 3, n, now) ? null : flags.error == null ? BAD_FORMAT : flags.error;
        int storeMode = MemcacheStore.SET;
        if (problem == null) {
            switch (flags.mode) {
                case 0, 'S' -> storeMode = MemcacheStore.SET;
                case 'E' -> storeMode = MemcacheStore.ADD;
                case 'A' -> storeMode = MemcacheStore.APPEND;
                case 'P' -> storeMode = MemcacheStore.PREPEND;
                case 'R' -> storeMode = MemcacheStore.REPLACE;
                default -> problem = "CLIENT_ERROR invalid mode for ms M token";
            }
        }
        for (int i = 3; problem == null && i < n - 1; i++) {
            if (line.firstByte(i) == 'O' && line.length(i) > MAX_OPAQUE) {
                problem = OPAQUE_TOO_LONG; // memcached checks it after the mode
            }
        }
        if (problem == null && flags.hasCas && (storeMode == MemcacheStore.SET || storeMode == MemcacheStore.REPLACE)) {
            storeMode = MemcacheStore.CAS; // as memcached upgrades them
        }
        if (problem == null && !store.fits(flags.keyLength, length)) {
            counters.increment(Stat.STORE_TOO_LARGE);
            store.delete(probe.view(flags.key, 0, flags.keyLength), now); // memcached drops the stale value, whatever the mode
            problem = "SERVER_ERROR object too large for cache";
        }
        if (problem != null) {
            errorLine(out, problem);
            decoder.swallow(length + 2);
            return;
        }
        pendingMode = storeMode;
        pendingKey = ByteKey.copyOf(flags.key, 0, flags.keyLength);
        pendingBinary = flags.keyBinary;
        pendingFlags = flags.clientFlags;
        pendingExpiry = flags.hasTtl ? flags.ttlExpiry : Item.NEVER;
        pendingCas = flags.hasCas ? flags.casValue : 0;
        pendingQuiet = flags.quiet;
        keepTokens(line, n);
        awaitingData = true;
        decoder.expectData((int) length);
    }

    /** The data block of the ms before: stores it and answers. */
    void onData(byte[] data, boolean endsWithCrlf, ByteBuf out, long now) {
        awaitingData = false;
        ByteKey k = pendingKey;
        pendingKey = null;
        counters.increment(Stat.CMD_SET); // memcached counts the set before checking the data block
        if (!endsWithCrlf) {
            errorLine(out, "CLIENT_ERROR bad data chunk"); // an ms always answers its errors
            return;
        }
        int stored = store.store(pendingMode, k, pendingFlags, pendingExpiry, data, pendingCas, pendingBinary, now, result);
        if (pendingMode == MemcacheStore.CAS) {
            counters.increment(stored == MemcacheStore.STORED ? Stat.CAS_HITS
                    : stored == MemcacheStore.EXISTS ? Stat.CAS_BADVAL : Stat.CAS_MISSES);
        }
        if (stored == MemcacheStore.STORED && pendingQuiet) {
            return;
        }
        out.writeBytes(switch (stored) {
            case MemcacheStore.STORED -> HD;
            case MemcacheStore.EXISTS -> EX;
            case MemcacheStore.NOT_FOUND -> NF;
            default -> NS;
        });
        byte[] b = pendingLine;
        for (int i = 3; i < pendingTokens; i++) {
            int from = pendingStarts[i];
            switch (b[from]) {
                case 'O' -> {
                    out.writeByte(' ');
                    out.writeBytes(b, from, pendingEnds[i] - from);
                }
                case 'k' -> writeKey(out, flags.key, 0, flags.keyLength, pendingBinary); // still the ms's key: nothing ran since
                case 'c' -> {
                    flag(out, 'c');
                    numbers.writeUnsigned(out, stored == MemcacheStore.STORED && result.item != null ? result.item.cas : 0);
                }
                default -> {
                    // the others say how to store, not what to answer
                }
            }
        }
        out.writeBytes(CRLF);
    }

    /** Keeps the tokens of an ms line (up to the terminal one) for the reply its data block completes. */
    private void keepTokens(CommandLine line, int n) {
        int length = line.end(n - 2);
        if (pendingLine.length < length) {
            pendingLine = new byte[Math.max(length, pendingLine.length * 2)];
        }
        System.arraycopy(line.bytes, 0, pendingLine, 0, length);
        pendingTokens = n - 1;
        for (int i = 0; i < pendingTokens; i++) {
            pendingStarts[i] = line.start(i);
            pendingEnds[i] = line.end(i);
        }
    }

    // ---- md ----

    private void delete(CommandLine line, int n, ByteBuf out, long now) {
        if (n < 3) {
            error(out);
            return;
        }
        counters.count(Verb.MD);
        if (line.length(1) > KEY_MAX_LENGTH) {
            errorLine(out, BAD_FORMAT);
            return;
        }
        if (n > MAX_TOKENS) {
            errorLine(out, "CLIENT_ERROR options flags too long");
            return;
        }
        if (!flags.parse(line, 2, n, now)) {
            errorLine(out, "CLIENT_ERROR invalid or duplicate flag");
            return;
        }
        for (int i = 2; i < n - 1; i++) {
            if (line.firstByte(i) == 'O' && line.length(i) > MAX_OPAQUE) {
                errorLine(out, OPAQUE_TOO_LONG);
                return;
            }
        }
        ByteKey k = probe.view(flags.key, 0, flags.keyLength);
        byte[] code;
        if (flags.hasCas) {
            Item it = store.peek(k, now);
            if (it != null && it.cas != flags.casValue) {
                counters.increment(Stat.DELETE_MISSES);
                code = EX;
            } else if (it != null && store.delete(k, now)) {
                counters.increment(Stat.DELETE_HITS);
                code = HD;
            } else {
                counters.increment(Stat.DELETE_MISSES);
                code = NF;
            }
        } else if (store.delete(k, now)) {
            counters.increment(Stat.DELETE_HITS);
            code = HD;
        } else {
            counters.increment(Stat.DELETE_MISSES);
            code = NF;
        }
        if (code == HD && flags.quiet) {
            return;
        }
        out.writeBytes(code);
        for (int i = 2; i < n - 1; i++) {
            byte f = line.firstByte(i);
            if (f == 'O') {
                opaque(line, i, out);
            } else if (f == 'k') {
                writeKey(out, flags.key, 0, flags.keyLength, flags.keyBinary);
            }
        }
        out.writeBytes(CRLF);
    }

    // ---- ma ----

    private void arithmetic(CommandLine line, int n, ByteBuf out, long now) {
        if (n < 3) {
            error(out);
            return;
        }
        counters.count(Verb.MA);
        if (line.length(1) > KEY_MAX_LENGTH) {
            errorLine(out, BAD_FORMAT);
            return;
        }
        if (n > MAX_TOKENS) {
            errorLine(out, "CLIENT_ERROR options flags too long");
            return;
        }
        flags.delta = 1;
        flags.initial = 0;
        if (!flags.parse(line, 2, n, now)) {
            errorLine(out, "CLIENT_ERROR invalid or duplicate flag");
            return;
        }
        boolean incr;
        switch (flags.mode) {
            case 0, 'I', '+' -> incr = true;
            case 'D', '-' -> incr = false;
            default -> {
                errorLine(out, "CLIENT_ERROR invalid mode for ma M token");
                return;
            }
        }
        ByteKey k = probe.view(flags.key, 0, flags.keyLength);
        int status = store.arithmetic(k, incr, flags.delta, flags.hasCas ? flags.casValue : 0,
                flags.hasTtl ? flags.ttlExpiry : MetaResult.KEEP, now,
                numbers, result);
        long number = numbers.value;
        Item it = null;
        byte[] code = null;
        switch (status) {
            case MemcacheStore.OK -> {
                counters.increment(incr ? Stat.INCR_HITS : Stat.DECR_HITS);
                it = result.item;
            }
            case MemcacheStore.NON_NUMERIC -> {
                errorLine(out, "CLIENT_ERROR cannot increment or decrement non-numeric value");
                return;
            }
            case MemcacheStore.EXISTS -> code = EX;
            default -> {
                if (flags.vivify) {
                    // created from J (0), counted as neither a hit nor a miss, as memcached does
                    long expiry = flags.hasTtl && flags.ttlAfterVivify ? flags.ttlExpiry : flags.vivifyExpiry;
                    int stored = store.store(MemcacheStore.ADD, ByteKey.copyOf(flags.key, 0, flags.keyLength), 0, expiry,
                            AsciiNumbers.unsignedValue(flags.initial, 1), 0, flags.keyBinary, now, result);
                    if (stored == MemcacheStore.STORED && result.item != null) {
                        it = result.item;
                        number = flags.initial;
                    } else {
                        code = NS;
                    }
                } else {
                    counters.increment(incr ? Stat.INCR_MISSES : Stat.DECR_MISSES);
                    code = NF;
                }
            }
        }
        int mark = out.writerIndex();
        if (it != null) {
            if (flags.value) {
                out.writeBytes(VA);
                numbers.writeUnsigned(out, digits(number));
            } else {
                out.writeBytes(HD);
            }
        } else {
            out.writeBytes(code);
        }
        for (int i = 2; i < n - 1; i++) {
            byte f = line.firstByte(i);
            if (f == 'O') {
                if (!opaque(line, i, out)) {
                    out.writerIndex(mark);
                    errorLine(out, OPAQUE_TOO_LONG);
                    return;
                }
            } else if (f == 'k') {
                writeKey(out, flags.key, 0, flags.keyLength, flags.keyBinary);
            } else if (it != null && f == 'c') {
                flag(out, 'c');
                numbers.writeUnsigned(out, it.cas);
            } else if (it != null && f == 't') {
                flag(out, 't');
                ttl(out, it, now);
            }
        }
        if (it != null && flags.value) {
            out.writeBytes(CRLF);
            numbers.writeUnsigned(out, number);
        }
        out.writeBytes(CRLF);
        if (it != null && status == MemcacheStore.OK && flags.quiet) {
            out.writerIndex(mark); // quiet mode leaves a success out (but not a creation)
        }
    }

    // ---- me ----

    private void debug(CommandLine line, int n, ByteBuf out, long now) {
        counters.count(Verb.ME);
        if (n < 3 || line.length(1) > KEY_MAX_LENGTH) {
            errorLine(out, BAD_FORMAT);
            return;
        }
        flags.readKey(line);
        if (n >= 4 && line.length(2) == 1 && line.firstByte(2) == 'b') {
            int decoded = Base64Keys.decode(flags.key, 0, flags.keyLength, flags.key, 0);
            if (decoded < 0) {
                errorLine(out, BAD_FORMAT);
                return;
            }
            flags.keyLength = decoded;
        }
        Item it = store.peek(probe.view(flags.key, 0, flags.keyLength), now);
        if (it == null) {
            out.writeBytes(EN_LINE);
            return;
        }
        out.writeBytes(ME);
        if (it.binaryKey) {
            Base64Keys.encode(flags.key, 0, flags.keyLength, out);
        } else {
            out.writeBytes(flags.key, 0, flags.keyLength);
        }
        out.writeBytes(EXP);
        if (it.expiresAtMillis == Item.NEVER) {
            out.writeBytes(NEVER);
        } else {
            out.writeByte('-'); // memcached prints now - exptime: the seconds left, negated
            numbers.writeUnsigned(out, secondsLeft(it, now));
        }
        out.writeBytes(LA_CAS);
        numbers.writeUnsigned(out, it.cas);
        out.writeBytes(it.fetched ? FETCHED_CLS : NOT_FETCHED_CLS);
        long total = ITEM_HEADER + flags.keyLength + 1 + (it.flags == 0 ? 0 : 4) + it.value.length + 2;
        numbers.writeUnsigned(out, slabClass(total));
        out.writeBytes(SIZE);
        numbers.writeUnsigned(out, total);
        out.writeBytes(CRLF);
    }

    // ---- reply pieces ----

    private void ttl(ByteBuf out, Item it, long now) {
        if (it.expiresAtMillis == Item.NEVER) {
            out.writeBytes(NEVER);
        } else {
            numbers.writeUnsigned(out, secondsLeft(it, now));
        }
    }

    private void error(ByteBuf out) {
        counters.count(Verb.ERROR);
        out.writeBytes(ERROR);
    }
}
