package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Stat;
import io.fluxperf.engine.protocol.memcache.target.MemcacheCounters.Verb;
import io.fluxperf.engine.target.ByteKey;
import io.fluxperf.engine.target.CommandProcessorBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * memcached's binary protocol on the server side for one connection: frames the 24-byte-header
 * packets, executes them against the shared {@link MemcacheStore} (the text protocol's items and
 * counters) and appends the replies to the connection's reply batch, as memcached 1.6 answers:
 * Get/GetQ/GetK/GetKQ, Set/Add/Replace (with cas), Append/Prepend, Delete, Increment/Decrement
 * (with initial value and exptime 0xffffffff for "do not create"), Touch, Flush, Noop, Version,
 * Quit and their quiet forms (Q: no reply unless an error; quiet gets: no reply on a miss).
 * Unknown opcodes get status 0x81. A packet that does not start with magic 0x80, or whose body
 * could not be an item, closes the connection, as memcached does. Confined to the connection's
 * event loop.
 */
final class MemcacheBinaryProcessor extends CommandProcessorBase {
    static final int HEADER = 24;
    static final byte REQUEST_MAGIC = (byte) 0x80;
    static final byte RESPONSE_MAGIC = (byte) 0x81;

    static final int GET = 0x00, SET = 0x01, ADD = 0x02, REPLACE = 0x03, DELETE = 0x04, INCREMENT = 0x05,
            DECREMENT = 0x06, QUIT = 0x07, FLUSH = 0x08, GETQ = 0x09, NOOP = 0x0a, VERSION = 0x0b, GETK = 0x0c,
            GETKQ = 0x0d, APPEND = 0x0e, PREPEND = 0x0f, SETQ = 0x11, ADDQ = 0x12, REPLACEQ = 0x13, DELETEQ = 0x14,
            INCREMENTQ = 0x15, DECREMENTQ = 0x16, QUITQ = 0x17, FLUSHQ = 0x18, APPENDQ = 0x19, PREPENDQ = 0x1a,
            TOUCH = 0x1c;

    static final int OK = 0x00, KEY_NOT_FOUND = 0x01, KEY_EXISTS = 0x02, TOO_LARGE = 0x03, INVALID_ARGUMENTS = 0x04,
            NOT_STORED = 0x05, NON_NUMERIC = 0x06, UNKNOWN_COMMAND = 0x81;

    private static final byte[] VERSION_TEXT = MemcacheReplies.VERSION.getBytes(StandardCharsets.US_ASCII);

    private final MemcacheStore store;
    private final MemcacheCounters.Cell counters;
    private final ByteKey probe = ByteKey.probe();
    private final AsciiNumbers numbers = new AsciiNumbers();
    private byte[] scratch = new byte[256];
    private boolean stopped;

    MemcacheBinaryProcessor(MemcacheStore store, MemcacheCounters.Cell counters, ByteBufAllocator alloc,
                            Consumer<ByteBuf> earlyWriter) {
        super(alloc, 512, earlyWriter);
        this.store = store;
        this.counters = counters;
    }

    boolean stopped() {
        return stopped;
    }

    void stop() {
        stopped = true;
    }

    /** Executes every whole packet in {@code in}; leaves an unfinished one unread. */
    void decode(ByteBuf in) {
        while (!stopped && in.readableBytes() >= HEADER) {
            int pos = in.readerIndex();
            if (in.getByte(pos) != REQUEST_MAGIC) {
                stop(); // memcached: not a binary request, the connection is out of step
                break;
            }
            int keyLength = in.getUnsignedShort(pos + 2);
            int extrasLength = in.getUnsignedByte(pos + 4);
            long bodyLength = in.getUnsignedInt(pos + 8);
            if (bodyLength < keyLength + extrasLength || keyLength > MemcacheStore.MAX_KEY_LENGTH
                    || bodyLength > keyLength + extrasLength + store.maxItemBytes() + 1024) {
                stop();
                break;
            }
            if (in.readableBytes() < HEADER + bodyLength) {
                return;
            }
            execute(in, pos, keyLength, extrasLength, (int) bodyLength);
            in.readerIndex(pos + HEADER + (int) bodyLength);
            writeEarlyIfLarge();
        }
        if (stopped) {
            in.skipBytes(in.readableBytes());
        }
    }

    private void execute(ByteBuf in, int pos, int keyLength, int extrasLength, int bodyLength) {
        int opcode = in.getUnsignedByte(pos + 1);
        int opaque = in.getInt(pos + 12);
        long cas = in.getLong(pos + 16);
        int extras = pos + HEADER;
        int keyStart = extras + extrasLength;
        int valueStart = keyStart + keyLength;
        int valueLength = bodyLength - extrasLength - keyLength;
        switch (opcode) {
            case GET, GETQ, GETK, GETKQ -> get(in, opcode, opaque, keyStart, keyLength, extrasLength, valueLength);
            case SET, SETQ, ADD, ADDQ, REPLACE, REPLACEQ -> {
                if (extrasLength != 8 || keyLength == 0) {
                    invalid(opcode, opaque);
                    return;
                }
                int base = opcode >= SETQ ? opcode - SETQ + SET : opcode;
                int mode = cas != 0 && base != ADD ? MemcacheStore.CAS
                        : base == SET ? MemcacheStore.SET : base == ADD ? MemcacheStore.ADD : MemcacheStore.REPLACE;
                Verb verb = mode == MemcacheStore.CAS ? Verb.CAS
                        : base == SET ? Verb.SET : base == ADD ? Verb.ADD : Verb.REPLACE;
                store(in, opcode, opaque, mode, verb, in.getInt(extras), in.getInt(extras + 4), cas,
                        keyStart, keyLength, valueStart, valueLength);
            }
            case APPEND, APPENDQ, PREPEND, PREPENDQ -> {
                if (extrasLength != 0 || keyLength == 0) {
                    invalid(opcode, opaque);
                    return;
                }
                boolean append = opcode == APPEND || opcode == APPENDQ;
                store(in, opcode, opaque, append ? MemcacheStore.APPEND : MemcacheStore.PREPEND,
                        append ? Verb.APPEND : Verb.PREPEND, 0, 0, 0, keyStart, keyLength, valueStart, valueLength);
            }
            case DELETE, DELETEQ -> {
                counters.count(Verb.DELETE);
                if (extrasLength != 0 || keyLength == 0 || valueLength != 0) {
                    invalid(opcode, opaque);
                    return;
                }
                if (store.delete(probe(in, keyStart, keyLength), now)) {
                    counters.increment(Stat.DELETE_HITS);
                    status(opcode, opaque, OK, opcode == DELETEQ);
                } else {
                    counters.increment(Stat.DELETE_MISSES);
                    status(opcode, opaque, KEY_NOT_FOUND, false);
                }
            }
            case INCREMENT, INCREMENTQ, DECREMENT, DECREMENTQ -> {
                boolean incr = opcode == INCREMENT || opcode == INCREMENTQ;
                counters.count(incr ? Verb.INCR : Verb.DECR);
                if (extrasLength != 20 || keyLength == 0 || valueLength != 0) {
                    invalid(opcode, opaque);
                    return;
                }
                arithmetic(in, opcode, opaque, incr, in.getLong(extras), in.getLong(extras + 8), in.getInt(extras + 16),
                        keyStart, keyLength);
            }
            case TOUCH -> {
                counters.count(Verb.TOUCH);
                if (extrasLength != 4 || keyLength == 0 || valueLength != 0) {
                    invalid(opcode, opaque);
                    return;
                }
                counters.increment(Stat.CMD_TOUCH);
                Item item = store.getAndTouch(probe(in, keyStart, keyLength), Item.expiryMillis(in.getInt(extras), now), now);
                if (item == null) {
                    counters.increment(Stat.TOUCH_MISSES);
                    status(opcode, opaque, KEY_NOT_FOUND, false);
                } else {
                    counters.increment(Stat.TOUCH_HITS);
                    ByteBuf o = out();
                    header(o, opcode, OK, 0, 4, 4, opaque, item.cas);
                    o.writeInt(item.flags);
                }
            }
            case FLUSH, FLUSHQ -> {
                counters.count(Verb.FLUSH_ALL);
                if ((extrasLength != 0 && extrasLength != 4) || keyLength != 0 || valueLength != 0) {
                    invalid(opcode, opaque);
                    return;
                }
                counters.increment(Stat.CMD_FLUSH);
                int delay = extrasLength == 4 ? in.getInt(extras) : 0;
                store.flushAll(delay > 0 ? Item.expiryMillis(delay, now) : now, now);
                status(opcode, opaque, OK, opcode == FLUSHQ);
            }
            case NOOP -> status(opcode, opaque, OK, false);
            case VERSION -> {
                counters.count(Verb.VERSION);
                ByteBuf o = out();
                header(o, opcode, OK, 0, 0, VERSION_TEXT.length, opaque, 0);
                o.writeBytes(VERSION_TEXT);
            }
            case QUIT, QUITQ -> {
                counters.count(Verb.QUIT);
                status(opcode, opaque, OK, opcode == QUITQ);
                stop(); // the connection closes once the replies so far are written
            }
            default -> {
                counters.count(Verb.ERROR);
                status(opcode, opaque, UNKNOWN_COMMAND, false);
            }
        }
    }

    private void get(ByteBuf in, int opcode, int opaque, int keyStart, int keyLength, int extrasLength, int valueLength) {
        counters.count(Verb.GET);
        if (extrasLength != 0 || keyLength == 0 || valueLength != 0) {
            invalid(opcode, opaque);
            return;
        }
        boolean quiet = opcode == GETQ || opcode == GETKQ;
        boolean withKey = opcode == GETK || opcode == GETKQ;
        counters.increment(Stat.CMD_GET);
        Item item = store.get(probe(in, keyStart, keyLength), now);
        ByteBuf o = out();
        if (item == null) {
            counters.increment(Stat.GET_MISSES);
            if (quiet) {
                return;
            }
            if (withKey) {
                header(o, opcode, KEY_NOT_FOUND, keyLength, 0, keyLength, opaque, 0);
                o.writeBytes(in, keyStart, keyLength);
            } else {
                errorWithText(o, opcode, opaque, KEY_NOT_FOUND);
            }
            return;
        }
        counters.increment(Stat.GET_HITS);
        int k = withKey ? keyLength : 0;
        header(o, opcode, OK, k, 4, 4 + k + item.value.length, opaque, item.cas);
        o.writeInt(item.flags);
        if (withKey) {
            o.writeBytes(in, keyStart, keyLength);
        }
        o.writeBytes(item.value);
    }

    private void store(ByteBuf in, int opcode, int opaque, int mode, Verb verb, int flags, int exptime, long cas,
                       int keyStart, int keyLength, int valueStart, int valueLength) {
        counters.count(verb);
        counters.increment(Stat.CMD_SET);
        boolean quiet = opcode >= SETQ;
        if (!store.fits(keyLength, valueLength)) {
            counters.increment(Stat.STORE_TOO_LARGE);
            if (mode == MemcacheStore.SET) {
                store.delete(probe(in, keyStart, keyLength), now); // memcached drops the stale value
            }
            errorWithText(out(), opcode, opaque, TOO_LARGE);
            return;
        }
        byte[] value = new byte[valueLength];
        in.getBytes(valueStart, value);
        ByteKey key = ByteKey.copyOf(keyBytes(in, keyStart, keyLength), 0, keyLength);
        int result = store.store(mode, key, flags, Item.expiryMillis(exptime, now), value, cas, now);
        if (mode == MemcacheStore.CAS) {
            counters.increment(result == MemcacheStore.STORED ? Stat.CAS_HITS
                    : result == MemcacheStore.EXISTS ? Stat.CAS_BADVAL : Stat.CAS_MISSES);
        }
        int status = switch (result) {
            case MemcacheStore.STORED -> OK;
            case MemcacheStore.EXISTS -> KEY_EXISTS;
            case MemcacheStore.NOT_FOUND -> KEY_NOT_FOUND;
            default -> mode == MemcacheStore.ADD ? KEY_EXISTS : mode == MemcacheStore.REPLACE ? KEY_NOT_FOUND : NOT_STORED;
        };
        if (status != OK) {
            errorWithText(out(), opcode, opaque, status);
        } else if (!quiet) {
            Item stored = store.peek(key, now);
            header(out(), opcode, OK, 0, 0, 0, opaque, stored != null ? stored.cas : 0);
        }
    }

    private void arithmetic(ByteBuf in, int opcode, int opaque, boolean incr, long delta, long initial, int exptime,
                            int keyStart, int keyLength) {
        ByteKey key = probe(in, keyStart, keyLength);
        int result = store.incrDecr(key, incr, delta, now, numbers);
        long value;
        if (result == MemcacheStore.OK) {
            counters.increment(incr ? Stat.INCR_HITS : Stat.DECR_HITS);
            value = numbers.value;
        } else if (result == MemcacheStore.NON_NUMERIC) {
            errorWithText(out(), opcode, opaque, NON_NUMERIC);
            return;
        } else {
            counters.increment(incr ? Stat.INCR_MISSES : Stat.DECR_MISSES);
            if (exptime == -1) {
                errorWithText(out(), opcode, opaque, KEY_NOT_FOUND);
                return;
            }
            byte[] digits = AsciiNumbers.unsignedValue(initial, 1);
            int stored = store.store(MemcacheStore.ADD, ByteKey.copyOf(keyBytes(in, keyStart, keyLength), 0, keyLength),
                    0, Item.expiryMillis(exptime, now), digits, 0, now);
            if (stored != MemcacheStore.STORED) {
                errorWithText(out(), opcode, opaque, NOT_STORED);
                return;
            }
            value = initial;
        }
        if (opcode == INCREMENTQ || opcode == DECREMENTQ) {
            return;
        }
        Item item = store.peek(key, now);
        ByteBuf o = out();
        header(o, opcode, OK, 0, 0, 8, opaque, item != null ? item.cas : 0);
        o.writeLong(value);
    }

    private ByteKey probe(ByteBuf in, int keyStart, int keyLength) {
        return probe.view(keyBytes(in, keyStart, keyLength), 0, keyLength);
    }

    /** The key copied into the scratch array (valid until the next call). */
    private byte[] keyBytes(ByteBuf in, int keyStart, int keyLength) {
        if (scratch.length < keyLength) {
            scratch = new byte[keyLength];
        }
        in.getBytes(keyStart, scratch, 0, keyLength);
        return scratch;
    }

    private void invalid(int opcode, int opaque) {
        counters.count(Verb.ERROR);
        errorWithText(out(), opcode, opaque, INVALID_ARGUMENTS);
    }

    /** A reply without a body, unless {@code quiet}. */
    private void status(int opcode, int opaque, int status, boolean quiet) {
        if (status != OK) {
            errorWithText(out(), opcode, opaque, status);
        } else if (!quiet) {
            header(out(), opcode, OK, 0, 0, 0, opaque, 0);
        }
    }

    /** An error reply: its body is the status in words, as memcached sends. */
    private static void errorWithText(ByteBuf o, int opcode, int opaque, int status) {
        byte[] text = switch (status) {
            case KEY_NOT_FOUND -> NOT_FOUND_TEXT;
            case KEY_EXISTS -> EXISTS_TEXT;
            case TOO_LARGE -> TOO_LARGE_TEXT;
            case INVALID_ARGUMENTS -> INVALID_TEXT;
            case NOT_STORED -> NOT_STORED_TEXT;
            case NON_NUMERIC -> NON_NUMERIC_TEXT;
            default -> UNKNOWN_TEXT;
        };
        header(o, opcode, status, 0, 0, text.length, opaque, 0);
        o.writeBytes(text);
    }

    private static final byte[] NOT_FOUND_TEXT = ascii("Not found");
    private static final byte[] EXISTS_TEXT = ascii("Data exists for key.");
    private static final byte[] TOO_LARGE_TEXT = ascii("Too large.");
    private static final byte[] INVALID_TEXT = ascii("Invalid arguments");
    private static final byte[] NOT_STORED_TEXT = ascii("Not stored.");
    private static final byte[] NON_NUMERIC_TEXT = ascii("Non-numeric server-side value for incr or decr");
    private static final byte[] UNKNOWN_TEXT = ascii("Unknown command");

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static void header(ByteBuf o, int opcode, int status, int keyLength, int extrasLength, int bodyLength,
                               int opaque, long cas) {
        o.ensureWritable(HEADER + bodyLength);
        o.writeByte(RESPONSE_MAGIC);
        o.writeByte(opcode);
        o.writeShort(keyLength);
        o.writeByte(extrasLength);
        o.writeByte(0);
        o.writeShort(status);
        o.writeInt(bodyLength);
        o.writeInt(opaque);
        o.writeLong(cas);
    }
}
