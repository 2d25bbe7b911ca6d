package io.fluxperf.engine.protocol.resp.target;

import static io.fluxperf.engine.protocol.resp.target.RespReplies.bytes;

/**
 * The option words that several commands take, as bits: SET's NX and XX, EXPIRE's NX, XX, GT
 * and LT, ZADD's all of these and CH and INCR. A command reads its words with {@link #of} and
 * checks their combinations itself, since each names them in its own error texts.
 */
final class RespFlags {
    static final int NX = 1;
    static final int XX = 1 << 1;
    static final int GT = 1 << 2;
    static final int LT = 1 << 3;
    static final int CH = 1 << 4;
    static final int INCR = 1 << 5;
    /** EXPIRE's options. */
    static final int EXPIRE = NX | XX | GT | LT;
    /** ZADD's options (ZINCRBY is ZADD with INCR). */
    static final int ZADD = NX | XX | GT | LT | CH | INCR;

    /** The words, upper case, in the order of their bits. */
    private static final byte[][] WORDS = {bytes("NX"), bytes("XX"), bytes("GT"), bytes("LT"), bytes("CH"), bytes("INCR")};

    private RespFlags() {
    }

    /** The bit of word i if it is one of {@code allowed} (in any case); 0 when it is none of them. */
    static int of(RespArgs a, int i, int allowed) {
        for (int b = 0; b < WORDS.length; b++) {
            int bit = 1 << b;
            if ((allowed & bit) != 0 && a.is(i, WORDS[b])) {
                return bit;
            }
        }
        return 0;
    }
}
