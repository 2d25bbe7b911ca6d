package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import java.util.List;

/**
 * How a memcache-meta run writes its requests, from two options, each a string of meta flags as the
 * protocol spells them (spaces and commas between them are optional):
 * <ul>
 * <li>{@code --meta-flags} (config {@code meta-flags}): flags every request that takes them carries.
 *     {@code q}: quiet mode, the server leaves out the replies that say nothing new (a get's miss, a
 *     write's success) and each batch of requests ends with {@code mn}; {@code O}: every request
 *     carries an opaque token that its reply must echo (quiet mode always does: it is how a reply
 *     is told apart from a left-out one); {@code b}: keys go base64-encoded; {@code N}: incr and
 *     decr create a missing key ({@code N0 J0}: from 0, with no expiry) instead of missing.</li>
 * <li>{@code --meta-get-flags} (config {@code meta-get-flags}): the return flags of every
 *     {@code mg}, from {@code v t f k s c h}; default {@code v} (the value). Without {@code v} a get
 *     asks only whether the key is there ({@code HD} or {@code EN}).</li>
 * </ul>
 *
 * @param getFlags the return flags as they follow the key of an {@code mg}, each with its space before it
 * @param getValue whether gets ask for the value ({@code v} is among them)
 */
record MetaOptions(boolean quiet, boolean opaque, boolean base64, boolean autoCreate, byte[] getFlags,
                   boolean getValue) {
    static final String FLAGS = "meta-flags";
    static final String GET_FLAGS = "meta-get-flags";
    static final List<ProtocolOption> DECLARED = List.of(ProtocolOption.text(FLAGS), ProtocolOption.text(GET_FLAGS));

    private static final String REQUEST_FLAGS = "qObN";
    private static final String RETURN_FLAGS = "vtfksch";

    /** No flags but {@code v}: {@code mg KEY v}, {@code ms KEY LEN T0}, replies for everything. */
    static MetaOptions defaults() {
        return new MetaOptions(false, false, false, false, Ascii.bytes(" v"), true);
    }

    /** Reads and checks the options a user gave. */
    static MetaOptions of(ProtocolOptions given) {
        ProtocolOptions.Value flags = given.last(FLAGS);
        ProtocolOptions.Value getFlags = given.last(GET_FLAGS);
        String request = flags == null ? "" : letters(flags, REQUEST_FLAGS,
                "q (quiet), O (opaque), b (base64 keys) and N (incr and decr create a missing key)");
        String returned = getFlags == null ? "v" : letters(getFlags, RETURN_FLAGS,
                "the return flags of mg, v t f k s c h (q, O and b go in --" + FLAGS + ")");
        StringBuilder encoded = new StringBuilder();
        for (char c : returned.toCharArray()) {
            encoded.append(' ').append(c);
        }
        return new MetaOptions(request.indexOf('q') >= 0, request.indexOf('O') >= 0, request.indexOf('b') >= 0,
                request.indexOf('N') >= 0, Ascii.bytes(encoded.toString()), returned.indexOf('v') >= 0);
    }

    /** The flag letters of {@code value}, each once and each one of {@code allowed}. */
    private static String letters(ProtocolOptions.Value value, String allowed, String what) {
        StringBuilder seen = new StringBuilder();
        for (char c : value.text().toCharArray()) {
            if (c == ' ' || c == ',') {
                continue;
            }
            if (allowed.indexOf(c) < 0) {
                throw value.error("'" + printable(c) + "' is not a flag the meta dialect takes here; it takes " + what);
            }
            if (seen.indexOf(String.valueOf(c)) >= 0) {
                throw value.error("'" + c + "' is given twice (memcached refuses a duplicate flag)");
            }
            seen.append(c);
        }
        return seen.toString();
    }

    private static String printable(char c) {
        return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
    }

    /** Whether each request carries an opaque token: asked for, or needed by quiet mode. */
    boolean tokens() {
        return opaque || quiet;
    }

    /** Whether gets ask for the cas ({@code c}) already. */
    boolean getFlagsHaveCas() {
        for (int i = 1; i < getFlags.length; i += 2) {
            if (getFlags[i] == 'c') {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MetaOptions m && m.quiet == quiet && m.opaque == opaque && m.base64 == base64
                && m.autoCreate == autoCreate && java.util.Arrays.equals(m.getFlags, getFlags);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(quiet, opaque, base64, autoCreate, java.util.Arrays.hashCode(getFlags));
    }

    @Override
    public String toString() {
        return "MetaOptions[quiet=" + quiet + ", opaque=" + opaque + ", base64=" + base64 + ", autoCreate=" + autoCreate
                + ", getFlags='" + new String(getFlags, java.nio.charset.StandardCharsets.US_ASCII).trim() + "']";
    }
}
