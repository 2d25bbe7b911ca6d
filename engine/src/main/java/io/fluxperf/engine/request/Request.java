package io.fluxperf.engine.request;

import java.util.Arrays;

/**
 * One request, protocol-neutral. Instances are pooled and reused (the hot path allocates nothing
 * per request): a source fills one from {@link RequestPool}, a connection encodes and sends it,
 * and after its outcome is recorded it goes back to the pool.
 *
 * <p>Keys are bytes held in this object (several for a multi-key get); the value is a slice of a
 * byte array the source owns (a shared read-only pattern for generated load, the logged bytes for
 * replay). All times are {@link System#nanoTime()} readings.
 */
public final class Request {
    /** The range LRANGE and ZRANGE read when nothing else is set: the first ten elements. */
    public static final long DEFAULT_RANGE_START = 0;
    public static final long DEFAULT_RANGE_END = 9;
    /** A by-score range's open end: -inf as a start, +inf as an end. */
    public static final long UNBOUNDED = Long.MIN_VALUE;
    /** {@link #intendedNanos} of a closed-loop request: latency is measured from the write. */
    public static final long UNSCHEDULED = Long.MIN_VALUE;
    private static final byte[] EMPTY = new byte[0];
    /** A published message's first bytes: its send time and its id ({@link MessagePayload}). */
    public static final int MESSAGE_HEADER_BYTES = MessagePayload.HEADER_BYTES;

    private Command command;
    private int workload;
    private byte[] keyBytes = new byte[64];
    private int[] keyEnds = new int[1];
    private int keyCount;
    private long firstKeyIndex = -1;
    private byte[] value;
    private int valueOffset;
    private int valueLength;
    private int ttlSeconds;
    private long numeric;
    private long intendedNanos = UNSCHEDULED;
    private long sourceNanos = -1;
    private long sentNanos;
    private int requestBytes;
    private int connectionId;
    private CommandTemplate template;
    private byte[] argBytes = EMPTY;
    private int[] argEnds = new int[0];
    private int argCount;
    private int affinity = -1;
    private ValueCheck valueCheck;
    /** A publish whose message subscribers expect: told when it ends ok; null otherwise. */
    private PublishLedger ledger;
    private boolean valueMismatched;
    /** A value buffer of this request's own, for a source whose value bytes do not outlive the fill. */
    private byte[] ownValue = EMPTY;
    private byte[] memberBytes = EMPTY;
    private int[] memberEnds = new int[0];
    private int memberCount;
    private byte[] script;
    private int server = -1;
    private int redirects;
    private boolean redirectOnce;
    private long rangeStart = DEFAULT_RANGE_START;
    private long rangeEnd = DEFAULT_RANGE_END;
    private boolean byScore;
    private int truncate;
    /** A number of its source's own (a replay's verb), given back to the source with the request; not sent. */
    private int sourceTag;

    /** Clears everything for reuse. */
    public Request reset() {
        command = null;
        workload = 0;
        keyCount = 0;
        firstKeyIndex = -1;
        value = null;
        valueOffset = 0;
        valueLength = 0;
        ttlSeconds = 0;
        numeric = 0;
        intendedNanos = UNSCHEDULED;
        sourceNanos = -1;
        sentNanos = 0;
        requestBytes = 0;
        connectionId = 0;
        template = null;
        argCount = 0;
        affinity = -1;
        valueCheck = null;
        ledger = null;
        valueMismatched = false;
        memberCount = 0;
        script = null;
        server = -1;
        redirects = 0;
        redirectOnce = false;
        rangeStart = DEFAULT_RANGE_START;
        rangeEnd = DEFAULT_RANGE_END;
        byScore = false;
        truncate = 0;
        sourceTag = 0;
        return this;
    }

    public Request command(Command command, int workload) {
        this.command = command;
        this.workload = workload;
        return this;
    }

    /**
     * Appends a generated key: {@code index} in decimal, left-padded with '0' to {@code length}
     * bytes (longer when the number needs more digits). Allocation-free.
     */
    public Request addKey(long index, int length) {
        if (index < 0) {
            throw new IllegalArgumentException("key index must be >= 0: " + index);
        }
        int digits = digits(index);
        int width = Math.max(length, digits);
        int start = keyStart(keyCount);
        ensureKeyCapacity(start + width);
        int pad = width - digits;
        Arrays.fill(keyBytes, start, start + pad, (byte) '0');
        writeDigits(keyBytes, start + width, index);
        if (keyCount == 0) {
            firstKeyIndex = index;
        }
        endKey(start + width);
        return this;
    }

    /** Appends a key given as bytes (replay). */
    public Request addKey(byte[] source, int offset, int length) {
        int start = keyStart(keyCount);
        ensureKeyCapacity(start + length);
        System.arraycopy(source, offset, keyBytes, start, length);
        endKey(start + length);
        return this;
    }

    private void endKey(int end) {
        if (keyEnds.length == keyCount) {
            keyEnds = Arrays.copyOf(keyEnds, keyCount * 2);
        }
        keyEnds[keyCount++] = end;
    }

    private int keyStart(int i) {
        return i == 0 ? 0 : keyEnds[i - 1];
    }

    private void ensureKeyCapacity(int needed) {
        if (needed > keyBytes.length) {
            keyBytes = Arrays.copyOf(keyBytes, Math.max(needed, keyBytes.length * 2));
        }
    }

    /** Decimal digits of {@code v} (at least 1), by comparison: no division. */
    static int digits(long v) {
        int d = 1;
        for (long p = 10; d < 19 && v >= p; p *= 10) {
            d++;
        }
        return d;
    }

    /** "00" .. "99": two digits per division instead of one (a key's digits were 6 % of the load thread at redis get p16). */
    private static final byte[] TWO_DIGITS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            TWO_DIGITS[2 * i] = (byte) ('0' + i / 10);
            TWO_DIGITS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    /** Writes the decimal digits of {@code v} (>= 0) so that the last one is at {@code end - 1}. */
    static void writeDigits(byte[] b, int end, long v) {
        int at = end;
        while (v > Integer.MAX_VALUE) {
            long q = v / 100;
            int r = (int) (v - q * 100);
            b[--at] = TWO_DIGITS[2 * r + 1];
            b[--at] = TWO_DIGITS[2 * r];
            v = q;
        }
        int i = (int) v; // int division from here: cheaper than long
        while (i >= 100) {
            int q = i / 100;
            int r = i - q * 100;
            b[--at] = TWO_DIGITS[2 * r + 1];
            b[--at] = TWO_DIGITS[2 * r];
            i = q;
        }
        if (i >= 10) {
            b[--at] = TWO_DIGITS[2 * i + 1];
            b[--at] = TWO_DIGITS[2 * i];
        } else {
            b[--at] = (byte) ('0' + i);
        }
    }

    /** The value to send: {@code length} bytes of {@code source} from {@code offset}; not copied. */
    public Request value(byte[] source, int offset, int length) {
        this.value = source;
        this.valueOffset = offset;
        this.valueLength = length;
        return this;
    }

    /**
     * A buffer of at least {@code length} bytes that this request owns, to copy a value into when
     * the source's bytes are reused before the request is sent (replay's lane rings); kept across
     * reuse, so it grows to the largest value and then allocates nothing.
     */
    public byte[] ownValue(int length) {
        if (ownValue.length < length) {
            ownValue = new byte[Math.max(length, 64)];
        }
        return ownValue;
    }

    public Request ttlSeconds(int ttlSeconds) {
        this.ttlSeconds = ttlSeconds;
        return this;
    }

    /** The number a command carries: the delta of incr/decr, the unique of cas. */
    public Request numeric(long numeric) {
        this.numeric = numeric;
        return this;
    }

    public Request intendedNanos(long intendedNanos) {
        this.intendedNanos = intendedNanos;
        return this;
    }

    public Request sentNanos(long sentNanos) {
        this.sentNanos = sentNanos;
        return this;
    }

    /**
     * The request's time on its source's own clock, ns (a replayed log's time since the first
     * command of its pass), so that a report can say where in the source the run fell behind; -1
     * when the source has none. Not a nanoTime reading, and not used for timing.
     */
    public Request sourceNanos(long nanos) {
        this.sourceNanos = nanos;
        return this;
    }

    /** The words of a {@link Command#COMMAND} request, expanded by the codec with this request's key and value. */
    public Request template(CommandTemplate template) {
        this.template = template;
        return this;
    }

    public CommandTemplate template() {
        return template;
    }

    /**
     * Appends a literal argument word (a replayed command's words, verb first). When a request has
     * arguments, a codec sends exactly these words.
     */
    public Request addArg(byte[] source, int offset, int length) {
        int start = argCount == 0 ? 0 : argEnds[argCount - 1];
        if (start + length > argBytes.length) {
            argBytes = Arrays.copyOf(argBytes, Math.max(start + length, Math.max(64, argBytes.length * 2)));
        }
        System.arraycopy(source, offset, argBytes, start, length);
        if (argEnds.length == argCount) {
            argEnds = Arrays.copyOf(argEnds, Math.max(4, argCount * 2));
        }
        argEnds[argCount++] = start + length;
        return this;
    }

    public int argCount() {
        return argCount;
    }

    public byte[] argBytes() {
        return argBytes;
    }

    public int argOffset(int i) {
        return i == 0 ? 0 : argEnds[i - 1];
    }

    public int argLength(int i) {
        return argEnds[i] - argOffset(i);
    }

    /**
     * Sends this request on connection {@code slot} (modulo the thread's connections) rather than
     * any free one: replay keeps each original client's commands on one connection, in order.
     * -1 (the default): any connection.
     */
    public Request affinity(int slot) {
        this.affinity = slot;
        return this;
    }

    public int affinity() {
        return affinity;
    }

    /** Tags this request with a number of its source's own (a replay: the log's verb), for the source's accounts. */
    public Request sourceTag(int tag) {
        this.sourceTag = tag;
        return this;
    }

    public int sourceTag() {
        return sourceTag;
    }

    /** About the bytes of the heap this request holds: the object and its arrays, as they have grown. */
    public int retainedBytes() {
        return RETAINED_BASE + keyBytes.length + 4 * keyEnds.length + argBytes.length + 4 * argEnds.length
                + ownValue.length + memberBytes.length + 4 * memberEnds.length;
    }

    /** The object's fields and its arrays' headers: a request holds at least this many bytes. */
    public static final int RETAINED_BASE = 256;

    /**
     * Appends a field or member name of the request's key (HSET k f1 v f2 v, SADD k m1 m2): like a
     * generated key, {@code index} in decimal left-padded with '0' to {@code length} bytes.
     * Allocation-free once the buffer has grown. A request without members names its key as its
     * one field or member.
     */
    public Request addMember(long index, int length) {
        if (index < 0) {
            throw new IllegalArgumentException("member index must be >= 0: " + index);
        }
        int digits = digits(index);
        int width = Math.max(length, digits);
        int start = memberCount == 0 ? 0 : memberEnds[memberCount - 1];
        if (start + width > memberBytes.length) {
            memberBytes = Arrays.copyOf(memberBytes, Math.max(start + width, Math.max(64, memberBytes.length * 2)));
        }
        Arrays.fill(memberBytes, start, start + width - digits, (byte) '0');
        writeDigits(memberBytes, start + width, index);
        if (memberEnds.length == memberCount) {
            memberEnds = Arrays.copyOf(memberEnds, Math.max(4, memberCount * 2));
        }
        memberEnds[memberCount++] = start + width;
        return this;
    }

    /** Fields or members named with {@link #addMember}; 0 when the key is its own one field or member. */
    public int memberCount() {
        return memberCount;
    }

    /** The backing array of all members; member i spans [memberOffset(i), memberOffset(i) + memberLength(i)). */
    public byte[] memberBytes() {
        return memberBytes;
    }

    public int memberOffset(int i) {
        return i == 0 ? 0 : memberEnds[i - 1];
    }

    public int memberLength(int i) {
        return memberEnds[i] - memberOffset(i);
    }

    /**
     * The program a scripting command runs (the body of EVAL and EVALSHA), shared read-only by the
     * requests of its workload; null for other commands.
     */
    public Request script(byte[] body) {
        this.script = body;
        return this;
    }

    public byte[] script() {
        return script;
    }

    /**
     * The range a range read (LRANGE, ZRANGE) asks for, both ends included: indexes (negative count
     * from the end), or with {@code byScore} scores, where {@link #UNBOUNDED} is -inf as a start and
     * +inf as an end.
     */
    public Request range(long start, long end, boolean byScore) {
        this.rangeStart = start;
        this.rangeEnd = end;
        this.byScore = byScore;
        return this;
    }

    public long rangeStart() {
        return rangeStart;
    }

    public long rangeEnd() {
        return rangeEnd;
    }

    public boolean byScore() {
        return byScore;
    }

    /**
     * A push (LPUSH, RPUSH) keeps its list at most this long: the protocol trims it in the same
     * write; 0: no trim.
     */
    public Request truncate(int maxLength) {
        this.truncate = maxLength;
        return this;
    }

    public int truncate() {
        return truncate;
    }

    /**
     * The server of a run with several (its index in the pool) that this request goes to: set where
     * its key was placed, or beforehand to send it there whatever its key (a flush of every
     * server). -1: not placed yet, or a run with one server.
     */
    public Request server(int index) {
        this.server = index;
        return this;
    }

    public int server() {
        return server;
    }

    /**
     * A cluster node answered this request with a redirect: it goes again, to the node named. With
     * {@code once} (redis ASK) the node is asked this one time, and the codec announces that first
     * (ASKING); otherwise (MOVED) the node owns its key for good.
     */
    public Request redirected(boolean once) {
        this.redirects++;
        this.redirectOnce = once;
        return this;
    }

    /** How many redirects this request followed. */
    public int redirects() {
        return redirects;
    }

    /** It goes to a node it was redirected to for this one time; see {@link #redirected(boolean)}. */
    public boolean redirectOnce() {
        return redirectOnce;
    }

    /** Checks the values a read gets back against what the run wrote (reads of --hit workloads); null: none. */
    public Request valueCheck(ValueCheck check) {
        this.valueCheck = check;
        return this;
    }

    public ValueCheck valueCheck() {
        return valueCheck;
    }

    /**
     * A publish whose message subscribers measure: its id ({@link #numeric()}, written into the
     * message by {@link MessagePayload}), and where its acceptance is told when it ends ok.
     */
    public Request message(long id, PublishLedger publishLedger) {
        this.numeric = id;
        this.ledger = publishLedger;
        return this;
    }

    /** Where an ok end of this publish is told; null for any other request. */
    public PublishLedger ledger() {
        return ledger;
    }

    /**
     * Set by a codec whose {@link #valueCheck()} found a value other than the one written, in a
     * reply that is whole and in step: the request ends as an error counted as a mismatch
     * (another workload or run wrote the key), and the connection stays.
     */
    public Request valueMismatch() {
        this.valueMismatched = true;
        return this;
    }

    /** A read whose reply carried a value other than the one the run writes for its key; see {@link #valueMismatch()}. */
    public boolean valueMismatched() {
        return valueMismatched;
    }

    /** Where and how big it went out: set by the connection that sent it. */
    public Request sentOn(int connection, int bytes) {
        this.connectionId = connection;
        this.requestBytes = bytes;
        return this;
    }

    public int connectionId() {
        return connectionId;
    }

    public int requestBytes() {
        return requestBytes;
    }

    public Command command() {
        return command;
    }

    public int workload() {
        return workload;
    }

    public int keyCount() {
        return keyCount;
    }

    /** The backing array of all keys; key i spans [keyOffset(i), keyOffset(i) + keyLength(i)). */
    public byte[] keyBytes() {
        return keyBytes;
    }

    public int keyOffset(int i) {
        return keyStart(i);
    }

    public int keyLength(int i) {
        return keyEnds[i] - keyStart(i);
    }

    /** The key-space index of the first generated key, or -1 when keys came as bytes. */
    public long firstKeyIndex() {
        return firstKeyIndex;
    }

    public byte[] value() {
        return value;
    }

    public int valueOffset() {
        return valueOffset;
    }

    public int valueLength() {
        return valueLength;
    }

    public int ttlSeconds() {
        return ttlSeconds;
    }

    public long numeric() {
        return numeric;
    }

    public long intendedNanos() {
        return intendedNanos;
    }

    public boolean isScheduled() {
        return intendedNanos != UNSCHEDULED;
    }

    /** See {@link #sourceNanos(long)}; -1 when the source has no time of its own. */
    public long sourceNanos() {
        return sourceNanos;
    }

    public long sentNanos() {
        return sentNanos;
    }

    /**
     * Where latency is measured from: the intended time in open loop (or the write, for a request
     * that left before its intended time), the write in closed loop.
     */
    public long latencyOriginNanos() {
        return intendedNanos == UNSCHEDULED ? sentNanos : Math.min(intendedNanos, sentNanos);
    }

    /** Key {@code i} as text, for messages and tests (allocates); control characters escaped ({@link io.fluxperf.engine.Printable}). */
    public String keyString(int i) {
        return io.fluxperf.engine.Printable.bytes(keyBytes, keyOffset(i), keyLength(i));
    }

    @Override
    public String toString() {
        return command + (keyCount > 0 ? " " + keyString(0) : "") + (keyCount > 1 ? " (+" + (keyCount - 1) + " keys)" : "")
                + (value != null ? " " + valueLength + "B" : "");
    }
}
