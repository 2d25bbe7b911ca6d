package io.fluxperf.engine.protocol;

import io.fluxperf.engine.Printable;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * A reply that the run's protocol did not expect: a short excerpt of it for messages, and what it
 * says about the server. A run pointed at another kind of server gets nothing but such replies;
 * when one looks like another protocol's ({@link Protocol#looksLikeItsReply}), the hint names the
 * {@code --protocol} to try. No protocol is named here: each says which replies are its own.
 */
public final class UnexpectedReply {
    /** Bytes of a reply kept to tell whose it looks like. */
    public static final int START = 64;
    /** Characters of a reply quoted in a message. */
    static final int EXCERPT = 48;

    private UnexpectedReply() {
    }

    /** The first bytes (at most {@link #START}) of {@code in} from {@code from}; the buffer's indexes do not move. */
    public static byte[] start(ByteBuf in, int from) {
        int n = Math.max(0, Math.min(START, in.writerIndex() - from));
        byte[] b = new byte[n];
        in.getBytes(from, b);
        return b;
    }

    /** Whether {@code start}, a reply's first bytes, begins with {@code prefix}. */
    public static boolean startsWith(byte[] start, byte[] prefix) {
        return start.length >= prefix.length && Arrays.equals(start, 0, prefix.length, prefix, 0, prefix.length);
    }

    /**
     * Whether the bytes of {@code in} from {@code from} that have come so far agree with
     * {@code prefix}: a reply still arriving may yet turn out to be the one expected.
     */
    public static boolean agreesSoFar(ByteBuf in, int from, byte[] prefix) {
        for (int i = 0; i < prefix.length && from + i < in.writerIndex(); i++) {
            if (in.getByte(from + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** The first line of {@code in} from {@code from} (at most {@link #EXCERPT} characters, then "…"), escaped for a message. */
    public static String excerpt(ByteBuf in, int from) {
        int end = from;
        int limit = in.writerIndex();
        while (end < limit && end - from < EXCERPT && in.getByte(end) != '\r' && in.getByte(end) != '\n') {
            end++;
        }
        boolean cut = end - from == EXCERPT && end < limit && in.getByte(end) != '\r' && in.getByte(end) != '\n';
        return Printable.bytes(in, from, end - from) + (cut ? "…" : "");
    }

    /**
     * What a reply {@code expected} cannot read says about the server, e.g. {@code does the server
     * speak memcache? That is how redis answers: try --protocol redis}; null when the reply looks
     * like {@code expected}'s own (the right kind of server, with an error of its own).
     *
     * @param start the reply's first bytes ({@link #start})
     */
    public static String hint(Protocol expected, byte[] start) {
        if (start.length == 0 || expected.looksLikeItsReply(start)) {
            return null;
        }
        String question = "does the server speak " + expected.name() + "?";
        for (Protocol p : Protocols.all()) {
            if (p != expected && !p.name().equals(expected.name()) && p.looksLikeItsReply(start)) {
                return question + " That is how " + p.name() + " answers: try --protocol " + p.name();
            }
        }
        return question;
    }
}
