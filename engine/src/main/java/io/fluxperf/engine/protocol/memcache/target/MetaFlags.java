package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.protocol.Base64Keys;

/**
 * The flags of one meta command line, as memcached's {@code struct _meta_flags} holds them, and
 * their reading ({@code _meta_flag_preparse}): which were given, the key (base64-decoded for
 * {@code b}), and the numbers of N, T, F, C, M, J and D. One per connection, read again for each
 * command; the return flags (O, k, s, t, c, f, h) are read when the reply is written.
 */
final class MetaFlags {
    private static final String BAD_TOKEN = "CLIENT_ERROR bad token in command line format";
    private static final String INVALID_FLAG = "CLIENT_ERROR invalid flag";

    private final AsciiNumbers numbers;

    /** The key of the current command, base64-decoded when it came with b. */
    byte[] key = new byte[256];
    int keyLength;

    // the flags of the current command (memcached's struct _meta_flags)
    long seen;
    String error;
    boolean keyBinary;
    boolean value;
    boolean quiet;
    boolean noUpdate;
    boolean vivify;
    boolean hasCas;
    boolean hasTtl;
    /** The later of N and T decides the expiry of an item the command creates. */
    boolean ttlAfterVivify;
    byte mode;
    int clientFlags;
    long casValue;
    long delta;
    long initial;
    long ttlExpiry;
    long vivifyExpiry;

    MetaFlags(AsciiNumbers numbers) {
        this.numbers = numbers;
    }

    /**
     * memcached's {@code _meta_flag_preparse}: reads the flags from token {@code first}, decoding the
     * key for b. Returns false on a bad flag, with {@link #error} set when memcached names it.
     */
    boolean parse(CommandLine line, int first, int n, long now) {
        seen = 0;
        error = null;
        keyBinary = false;
        value = false;
        quiet = false;
        noUpdate = false;
        vivify = false;
        hasCas = false;
        hasTtl = false;
        ttlAfterVivify = false;
        mode = 0;
        clientFlags = 0;
        readKey(line);
        boolean failed = false;
        byte[] b = line.bytes;
        for (int i = first; i < n - 1; i++) {
            int from = line.start(i);
            int to = line.end(i);
            byte o = b[from];
            if (o < 0 || o >= 127 || seen(o)) {
                error = "CLIENT_ERROR duplicate flag";
                return false;
            }
            switch (o) {
                case 'b' -> {
                    int decoded = Base64Keys.decode(key, 0, keyLength, key, 0);
                    if (decoded < 0) {
                        error = "CLIENT_ERROR error decoding key";
                        failed = true;
                        decoded = 0;
                    }
                    keyLength = decoded;
                    keyBinary = true;
                }
                case 'N' -> {
                    vivify = true;
                    if (!numbers.parseSigned(b, from + 1, to)) {
                        error = BAD_TOKEN;
                        failed = true;
                    } else {
                        vivifyExpiry = Item.expiryMillis((int) numbers.value, now);
                        ttlAfterVivify = false;
                    }
                }
                case 'T' -> {
                    if (!numbers.parseSigned(b, from + 1, to)) {
                        error = BAD_TOKEN;
                        failed = true;
                    } else {
                        ttlExpiry = Item.expiryMillis((int) numbers.value, now);
                        hasTtl = true;
                        ttlAfterVivify = true;
                    }
                }
                case 'O', 'P', 'L', 'k', 's', 't', 'c', 'f', 'h' -> {
                    // return flags and proxy hints: read when answering
                }
                case 'v' -> value = true;
                case 'u' -> noUpdate = true;
                case 'q' -> quiet = true;
                case 'F' -> {
                    if (!numbers.parseUnsigned(b, from + 1, to)) {
                        failed = true;
                    } else {
                        clientFlags = (int) numbers.value;
                    }
                }
                case 'C' -> {
                    if (!numbers.parseUnsigned64(b, from + 1, to)) {
                        error = BAD_TOKEN;
                        failed = true;
                    } else {
                        casValue = numbers.value;
                        hasCas = true;
                    }
                }
                case 'M' -> {
                    if (to - from != 2) {
                        error = "CLIENT_ERROR incorrect length for M token";
                        failed = true;
                    } else {
                        mode = b[from + 1];
                    }
                }
                case 'J' -> {
                    if (!numbers.parseUnsigned64(b, from + 1, to)) {
                        error = "CLIENT_ERROR invalid numeric initial value";
                        failed = true;
                    } else {
                        initial = numbers.value;
                    }
                }
                case 'D' -> {
                    if (!numbers.parseUnsigned64(b, from + 1, to)) {
                        error = "CLIENT_ERROR invalid numeric delta value";
                        failed = true;
                    } else {
                        delta = numbers.value;
                    }
                }
                default -> {
                    // unknown to memcached, or (I, R, l) not kept here
                    error = INVALID_FLAG;
                    return false;
                }
            }
        }
        return !failed;
    }

    /** Marks flag {@code o} as seen; true when it was already. */
    private boolean seen(byte o) {
        if (o < 64) {
            return false; // only letters can pass the switch; the rest are invalid flags anyway
        }
        long bit = 1L << (o - 64);
        boolean was = (seen & bit) != 0;
        seen |= bit;
        return was;
    }

    /** Takes the line's second token as the key, as given (not yet base64-decoded). */
    void readKey(CommandLine line) {
        keyLength = line.length(1);
        System.arraycopy(line.bytes, line.start(1), keyBuffer(keyLength), 0, keyLength);
    }

    private byte[] keyBuffer(int length) {
        if (key.length < length) {
            key = new byte[Math.max(length, key.length * 2)];
        }
        return key;
    }
}
