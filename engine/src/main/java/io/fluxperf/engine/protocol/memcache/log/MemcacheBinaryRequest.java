package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.request.Command;

/**
 * One binary-protocol request of a captured connection, read across segments: its 24-byte header,
 * then its extras and key (the "head", held), then its value, which the connection's reader copies
 * into the entry or reads past. One per connection, reused for each request.
 */
final class MemcacheBinaryRequest {
    static final int HEADER = 24;

    private final byte[] header = new byte[HEADER];
    private int headerLength;
    private byte[] head = new byte[256];
    private int headLength;
    private int headNeeded;

    int opcode;
    int opaque;
    private int keyLength;
    private int extrasLength;
    private long cas;
    /** The value's bytes still to come. */
    long valueLeft;

    /** A request starts: its header comes next. */
    void start() {
        headerLength = 0;
    }

    /** Takes header bytes from {@code b[p, to)}; returns where it stopped. */
    int feedHeader(byte[] b, int p, int to) {
        int n = Math.min(HEADER - headerLength, to - p);
        System.arraycopy(b, p, header, headerLength, n);
        headerLength += n;
        return p + n;
    }

    boolean headerWhole() {
        return headerLength == HEADER;
    }

    /** The header is whole: checks it and readies the head; null, or what makes it no request. */
    String parseHeader() {
        if (header[0] != (byte) 0x80) {
            return "a binary header without the request magic 0x80";
        }
        opcode = header[1] & 0xff;
        keyLength = (header[2] & 0xff) << 8 | header[3] & 0xff;
        extrasLength = header[4] & 0xff;
        long body = uint32(header, 8);
        opaque = MemcacheBinaryOps.int32(header, 12);
        cas = uint32(header, 16) << 32 | uint32(header, 20);
        if (keyLength + extrasLength > body) {
            return "a binary header whose key and extras are longer than its body";
        }
        headNeeded = keyLength + extrasLength;
        headLength = 0;
        if (head.length < headNeeded) {
            head = new byte[Math.max(headNeeded, head.length * 2)];
        }
        valueLeft = body - headNeeded;
        return null;
    }

    /** Takes head bytes from {@code b[p, to)}; returns where it stopped. */
    int feedHead(byte[] b, int p, int to) {
        int n = Math.min(headNeeded - headLength, to - p);
        System.arraycopy(b, p, head, headLength, n);
        headLength += n;
        return p + n;
    }

    boolean headWhole() {
        return headLength == headNeeded;
    }

    /** The body's bytes still to come: the rest of the head, and the value. */
    long bodyLeft() {
        return headNeeded - headLength + valueLeft;
    }

    /**
     * A gap of {@code n} bytes, at most {@link #bodyLeft()}: passes over the head's part of it;
     * returns the rest, the value's part.
     */
    long skipHead(long n) {
        long fromHead = Math.min(n, headNeeded - headLength);
        headLength += (int) fromHead;
        return n - fromHead;
    }

    /** Fills the entry of a request that is replayed: its command, key, expiry, delta or cas. */
    void fill(LogEntry e, ReaderContext ctx) {
        int op = opcode;
        Command c = MemcacheBinaryOps.command(op, cas);
        String verb = c == Command.FLUSH ? "flush_all" : c.label();
        byte[] v = MemcacheBinaryOps.VERB_BYTES[c.ordinal()];
        e.verb = ctx.verbs.id(v, 0, v.length);
        e.command(c);
        if (keyLength > 0) {
            e.addKey(ctx.keyPrefix, head, extrasLength, keyLength);
        }
        switch (c) {
            case SET, ADD, REPLACE, CAS -> {
                if (extrasLength >= 8) {
                    e.ttlSeconds = (int) Math.min(Integer.MAX_VALUE, uint32(head, 4));
                }
                if (c == Command.CAS) {
                    e.numeric = cas;
                }
            }
            case INCR, DECR -> {
                if (extrasLength >= 20) {
                    e.numeric = uint32(head, 0) << 32 | uint32(head, 4);
                    if (MemcacheBinaryOps.int32(head, 16) != -1) {
                        ctx.stats.adjust("binary " + verb + " that would create a missing key sent as " + verb
                                + ", which does not");
                    }
                }
            }
            case TOUCH -> {
                if (extrasLength >= 4) {
                    e.ttlSeconds = (int) Math.min(Integer.MAX_VALUE, uint32(head, 0));
                }
            }
            default -> {
                // get, delete, append, prepend, flush: key and value only
            }
        }
        if (!MemcacheBinaryOps.carriesValue(op)) {
            e.valueLogged = false;
            e.valueLength = 0;
        }
        if (MemcacheBinaryOps.quiet(op)) {
            ctx.stats.adjust("quiet binary commands sent as their loud kind (every reply is timed)");
        }
    }

    private static long uint32(byte[] b, int at) {
        return MemcacheBinaryOps.int32(b, at) & 0xffffffffL;
    }
}
