package io.fluxperf.trace;

import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesOut;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One request of a run, as the trace stores it. Mutable and reusable: a writing thread keeps one
 * instance, fills it for each request and hands it to {@link TraceWriter#append(TraceRecord)};
 * a reader fills one instance per {@link TraceReader#next(TraceRecord)}. Not thread-safe.
 *
 * <p>All times are {@code long} nanoseconds since the trace's clock origin
 * ({@link TraceHeader#clockOriginMonotonicNanos()}), taken from the monotonic clock
 * ({@link System#nanoTime()}): {@code time = System.nanoTime() - clockOriginMonotonicNanos}.
 *
 * <p>The binary layout (version {@link #LAYOUT_VERSION}) is written by hand in
 * {@link #writeMarshallable(BytesOut)} and documented, field by field, in the module's README.
 * Writing allocates nothing; a key longer than the buffer grows it once (up to
 * {@link #MAX_KEY_BYTES}; longer keys are cut there and flagged {@link #FLAG_KEY_TRUNCATED}).
 */
public final class TraceRecord implements BytesMarshallable {

    /** The record layout this class writes; the first byte of every record. */
    public static final byte LAYOUT_VERSION = 1;

    /** Longest key a record keeps; a longer key is cut to this length and flagged. */
    public static final int MAX_KEY_BYTES = 4096;

    /** Flag: the request was issued during warm-up (reports leave it out by default). */
    public static final int FLAG_WARMUP = 1;
    /** Flag: the key was longer than {@link #MAX_KEY_BYTES} and is stored cut. */
    public static final int FLAG_KEY_TRUNCATED = 2;

    private long intendedSendNanos;
    private long actualSendNanos;
    private long completionNanos;
    private int workload;
    private int protocol;
    private int command;
    private int outcome;
    private int flags;
    private byte[] key = new byte[64];
    private int keyLength;
    private int keyCount = 1;
    private int valueSize;
    private int requestBytes;
    private int responseBytes;
    private int connectionId;

    /** Resets every field to zero (key empty, key count 1) so the instance can be filled again. */
    public TraceRecord clear() {
        intendedSendNanos = actualSendNanos = completionNanos = 0;
        workload = protocol = command = outcome = flags = 0;
        keyLength = 0;
        keyCount = 1;
        valueSize = requestBytes = responseBytes = connectionId = 0;
        return this;
    }

    // ---- times (ns since the clock origin) ----

    /** When the schedule wanted the request sent, ns since the clock origin. */
    public long intendedSendNanos() {
        return intendedSendNanos;
    }

    public TraceRecord intendedSendNanos(long nanos) {
        this.intendedSendNanos = nanos;
        return this;
    }

    /** When the request was written to its connection, ns since the clock origin. */
    public long actualSendNanos() {
        return actualSendNanos;
    }

    public TraceRecord actualSendNanos(long nanos) {
        this.actualSendNanos = nanos;
        return this;
    }

    /** When the outcome was known (reply parsed, timeout fired, connection closed), ns since the clock origin. */
    public long completionNanos() {
        return completionNanos;
    }

    public TraceRecord completionNanos(long nanos) {
        this.completionNanos = nanos;
        return this;
    }

    /** Latency from the schedule: completion − intended send, ns (no coordinated omission). */
    public long intendedLatencyNanos() {
        return completionNanos - intendedSendNanos;
    }

    /** Latency from the write: completion − actual send, ns. */
    public long serviceLatencyNanos() {
        return completionNanos - actualSendNanos;
    }

    // ---- codes (names are in the header's tables) ----

    /** Workload index, 0..65535, into {@link TraceHeader#workloads()}. */
    public int workload() {
        return workload;
    }

    public TraceRecord workload(int index) {
        this.workload = index & 0xFFFF;
        return this;
    }

    /** Protocol code, 0..255, into {@link TraceHeader#protocols()}. */
    public int protocol() {
        return protocol;
    }

    public TraceRecord protocol(int code) {
        this.protocol = code & 0xFF;
        return this;
    }

    /** Command code, 0..255, into {@link TraceHeader#commands()}. */
    public int command() {
        return command;
    }

    public TraceRecord command(int code) {
        this.command = code & 0xFF;
        return this;
    }

    /** Outcome code, see {@link Outcome}. */
    public int outcome() {
        return outcome;
    }

    public TraceRecord outcome(int code) {
        this.outcome = code & 0xFF;
        return this;
    }

    /** Flag bits: {@link #FLAG_WARMUP}, {@link #FLAG_KEY_TRUNCATED}. */
    public int flags() {
        return flags;
    }

    public TraceRecord flags(int flags) {
        this.flags = flags & 0xFF;
        return this;
    }

    public boolean warmup() {
        return (flags & FLAG_WARMUP) != 0;
    }

    public TraceRecord warmup(boolean warmup) {
        flags = warmup ? flags | FLAG_WARMUP : flags & ~FLAG_WARMUP;
        return this;
    }

    // ---- key ----

    /** Copies the key (the first key of a multi-key request); cut at {@link #MAX_KEY_BYTES}. */
    public TraceRecord key(byte[] src, int offset, int length) {
        int n = prepareKey(length);
        System.arraycopy(src, offset, key, 0, n);
        return this;
    }

    public TraceRecord key(byte[] src) {
        return key(src, 0, src.length);
    }

    /** Copies the key from the buffer's position to its limit, leaving the buffer's position alone. */
    public TraceRecord key(ByteBuffer src) {
        int n = prepareKey(src.remaining());
        src.get(src.position(), key, 0, n);
        return this;
    }

    /** Sets the key from characters that are all below 256 (ASCII/Latin-1 keys); no allocation. */
    public TraceRecord keyLatin1(CharSequence src) {
        int n = prepareKey(src.length());
        for (int i = 0; i < n; i++) {
            key[i] = (byte) src.charAt(i);
        }
        return this;
    }

    private int prepareKey(int length) {
        int n = Math.min(length, MAX_KEY_BYTES);
        if (n > key.length) {
            key = Arrays.copyOf(key, Math.min(MAX_KEY_BYTES, Math.max(n, key.length * 2)));
        }
        keyLength = n;
        flags = length > MAX_KEY_BYTES ? flags | FLAG_KEY_TRUNCATED : flags & ~FLAG_KEY_TRUNCATED;
        return n;
    }

    /** Number of key bytes stored. */
    public int keyLength() {
        return keyLength;
    }

    /** The key buffer; only the first {@link #keyLength()} bytes belong to this record. Do not keep it. */
    public byte[] keyBuffer() {
        return key;
    }

    /** A copy of the key bytes (allocates; for tools, not for the hot path). */
    public byte[] keyBytes() {
        return Arrays.copyOf(key, keyLength);
    }

    /**
     * The key as text for exports: printable ASCII as it is, a backslash as {@code \\}, every other
     * byte as {@code \xNN}. Allocates.
     */
    public String keyText() {
        StringBuilder sb = new StringBuilder(keyLength + 8);
        for (int i = 0; i < keyLength; i++) {
            int b = key[i] & 0xFF;
            if (b == '\\') {
                sb.append("\\\\");
            } else if (b >= 0x20 && b < 0x7F) {
                sb.append((char) b);
            } else {
                sb.append("\\x").append(Character.forDigit(b >> 4, 16)).append(Character.forDigit(b & 15, 16));
            }
        }
        return sb.toString();
    }

    /** The key decoded as UTF-8 (allocates). */
    public String keyUtf8() {
        return new String(key, 0, keyLength, StandardCharsets.UTF_8);
    }

    /** Number of keys the request named; 1 for single-key requests, the record stores the first. */
    public int keyCount() {
        return keyCount;
    }

    public TraceRecord keyCount(int count) {
        this.keyCount = count;
        return this;
    }

    // ---- sizes and connection ----

    /** Size of the value sent (set) or received (get hit), bytes; 0 when there is none. */
    public int valueSize() {
        return valueSize;
    }

    public TraceRecord valueSize(int bytes) {
        this.valueSize = bytes;
        return this;
    }

    /** Bytes of the request on the wire. */
    public int requestBytes() {
        return requestBytes;
    }

    public TraceRecord requestBytes(int bytes) {
        this.requestBytes = bytes;
        return this;
    }

    /** Bytes of the response on the wire; 0 when none arrived. */
    public int responseBytes() {
        return responseBytes;
    }

    public TraceRecord responseBytes(int bytes) {
        this.responseBytes = bytes;
        return this;
    }

    /** The connection the request went out on (numbered by the run from 0). */
    public int connectionId() {
        return connectionId;
    }

    public TraceRecord connectionId(int id) {
        this.connectionId = id;
        return this;
    }

    /** Copies every field of {@code other} into this record. */
    public TraceRecord copyFrom(TraceRecord other) {
        intendedSendNanos = other.intendedSendNanos;
        actualSendNanos = other.actualSendNanos;
        completionNanos = other.completionNanos;
        workload = other.workload;
        protocol = other.protocol;
        command = other.command;
        outcome = other.outcome;
        key(other.key, 0, other.keyLength);
        flags = other.flags;
        keyCount = other.keyCount;
        valueSize = other.valueSize;
        requestBytes = other.requestBytes;
        responseBytes = other.responseBytes;
        connectionId = other.connectionId;
        return this;
    }

    // ---- binary layout, version 1 (see README.md) ----

    /**
     * Writes the record in one copy: {@link #encodeInto} lays it out in a reused array, and the
     * array goes to {@code out} in one {@code write}. Writing field by field into the trace's
     * memory-mapped file checked its bounds for every byte, which was half of an append's cost.
     */
    @Override
    public void writeMarshallable(BytesOut<?> out) {
        if (encoded.length < maxEncodedLength()) {
            encoded = new byte[MAX_FIXED_BYTES + key.length];
        }
        out.write(encoded, 0, encodeInto(encoded, 0));
    }

    /** Longest stop-bit number: 64 bits in 7-bit groups, plus the byte that marks a negative one. */
    private static final int STOP_BIT_MAX_BYTES = 11;

    /** Most bytes the fields before the key take: five single bytes, a short, nine stop-bit numbers. */
    private static final int MAX_FIXED_BYTES = 5 + 2 + 9 * STOP_BIT_MAX_BYTES;

    private byte[] encoded = new byte[MAX_FIXED_BYTES + 64];

    /** The most bytes {@link #encodeInto} can take for this record. */
    public int maxEncodedLength() {
        return MAX_FIXED_BYTES + keyLength;
    }

    /**
     * Lays the record out at {@code b[at]} (layout version 1, what {@link #readMarshallable} reads);
     * returns the index after it. {@code b} needs {@link #maxEncodedLength()} bytes from {@code at}.
     */
    public int encodeInto(byte[] b, int at) {
        b[at] = LAYOUT_VERSION;
        b[at + 1] = (byte) flags;
        b[at + 2] = (byte) outcome;
        b[at + 3] = (byte) protocol;
        b[at + 4] = (byte) command;
        b[at + 5] = (byte) workload; // little-endian, as Chronicle Bytes writes a short
        b[at + 6] = (byte) (workload >>> 8);
        at += 7;
        at = putStopBit(b, at, intendedSendNanos);
        at = putStopBit(b, at, actualSendNanos - intendedSendNanos);
        at = putStopBit(b, at, completionNanos - actualSendNanos);
        at = putStopBit(b, at, connectionId);
        at = putStopBit(b, at, valueSize);
        at = putStopBit(b, at, requestBytes);
        at = putStopBit(b, at, responseBytes);
        at = putStopBit(b, at, keyCount);
        at = putStopBit(b, at, keyLength);
        System.arraycopy(key, 0, b, at, keyLength);
        return at + keyLength;
    }

    /**
     * Chronicle Bytes' stop-bit encoding, which {@code readStopBit} reads: 7 bits per byte, low
     * bits first, the top bit set on every byte but the last; a negative number is stored as its
     * complement, with its last byte's top bit set and one 0 byte after it.
     */
    static int putStopBit(byte[] b, int at, long n) {
        boolean negative = n < 0;
        if (negative) {
            n = ~n;
        }
        long rest;
        while ((rest = n >>> 7) != 0) {
            b[at++] = (byte) (0x80 | n);
            n = rest;
        }
        if (negative) {
            b[at++] = (byte) (0x80 | n);
            b[at++] = 0;
        } else {
            b[at++] = (byte) n;
        }
        return at;
    }

    /**
     * Reads one record written by {@link #writeMarshallable(BytesOut)}.
     *
     * @throws TraceFormatException when the record's layout version is not {@link #LAYOUT_VERSION}
     *                              or its key length is out of range (the caller adds the place)
     */
    @Override
    public void readMarshallable(BytesIn<?> in) {
        int version = in.readByte();
        if (version != LAYOUT_VERSION) {
            throw new TraceFormatException("has layout version " + version + "; this fluxperf reads version "
                    + LAYOUT_VERSION);
        }
        flags = in.readByte() & 0xFF;
        outcome = in.readByte() & 0xFF;
        protocol = in.readByte() & 0xFF;
        command = in.readByte() & 0xFF;
        workload = in.readShort() & 0xFFFF;
        intendedSendNanos = in.readStopBit();
        actualSendNanos = intendedSendNanos + in.readStopBit();
        completionNanos = actualSendNanos + in.readStopBit();
        connectionId = (int) in.readStopBit();
        valueSize = (int) in.readStopBit();
        requestBytes = (int) in.readStopBit();
        responseBytes = (int) in.readStopBit();
        keyCount = (int) in.readStopBit();
        long n = in.readStopBit();
        if (n < 0 || n > MAX_KEY_BYTES || n > in.readRemaining()) {
            throw new TraceFormatException("has a key length of " + n + " bytes with " + in.readRemaining()
                    + " bytes left in the record");
        }
        int len = (int) n;
        if (len > key.length) {
            key = new byte[Math.min(MAX_KEY_BYTES, Math.max(len, key.length * 2))];
        }
        in.read(key, 0, len);
        keyLength = len;
    }

    @Override
    public boolean usesSelfDescribingMessage() {
        return false;
    }

    @Override
    public String toString() {
        return "TraceRecord{intended=" + intendedSendNanos + ", sent=" + actualSendNanos + ", completed="
                + completionNanos + ", workload=" + workload + ", protocol=" + protocol + ", command=" + command
                + ", outcome=" + Outcome.name(outcome) + ", flags=" + flags + ", key=" + keyText() + ", keyCount="
                + keyCount + ", valueSize=" + valueSize + ", requestBytes=" + requestBytes + ", responseBytes="
                + responseBytes + ", connection=" + connectionId + '}';
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TraceRecord)) {
            return false;
        }
        TraceRecord r = (TraceRecord) o;
        return intendedSendNanos == r.intendedSendNanos && actualSendNanos == r.actualSendNanos
                && completionNanos == r.completionNanos && workload == r.workload && protocol == r.protocol
                && command == r.command && outcome == r.outcome && flags == r.flags && keyCount == r.keyCount
                && valueSize == r.valueSize && requestBytes == r.requestBytes && responseBytes == r.responseBytes
                && connectionId == r.connectionId
                && Arrays.equals(key, 0, keyLength, r.key, 0, r.keyLength);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(intendedSendNanos) * 31 + Long.hashCode(completionNanos);
    }
}
