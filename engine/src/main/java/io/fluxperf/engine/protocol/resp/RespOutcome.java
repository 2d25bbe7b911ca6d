package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;

/**
 * The outcome of a redis reply from its top-level shape, the one rule the client codec and the
 * reading of a capture's replies share (so that a capture's original hit rate and the replay's are
 * counted alike); the rule is described in {@link RespCodec}'s "Outcomes".
 */
public final class RespOutcome {
    private static final boolean[] ZERO_IS_MISS = new boolean[Command.values().length];

    static {
        for (Command c : new Command[] {Command.EXISTS, Command.DELETE, Command.EXPIRE, Command.HDEL, Command.SREM,
                Command.ZREM, Command.SISMEMBER, Command.LLEN, Command.HEXISTS}) {
            ZERO_IS_MISS[c.ordinal()] = true;
        }
    }

    private RespOutcome() {
    }

    /** The command whose reply rules apply to the verb {@code b[offset, offset + length)}, or null when none does. */
    public static Command commandOf(byte[] b, int offset, int length) {
        return RespCommands.match(b, offset, length);
    }

    /**
     * @param c            the command whose reply it is (its rules), or null when unknown
     * @param type         the top-level value's RESP type byte
     * @param nil          the top-level value is a nil
     * @param zero         the top-level value is the integer 0
     * @param elements     a top-level aggregate's direct elements
     * @param nilElements  how many of those are nil
     * @param zeroElements how many of those are the integer 0
     */
    public static Outcome of(Command c, byte type, boolean nil, boolean zero, long elements, long nilElements,
                             long zeroElements) {
        if (type == '-' || type == '!') {
            return Outcome.ERROR;
        }
        if (nil) {
            return Outcome.MISS;
        }
        boolean readLike = c == null || c.isRead();
        if ((type == '*' || type == '~' || type == '%') && readLike && nilElements == elements) {
            return Outcome.MISS; // empty, or every key missing (MGET)
        }
        if (type == ':' && zero && c != null && ZERO_IS_MISS[c.ordinal()]) {
            return Outcome.MISS;
        }
        if (type == '*' && c == Command.SISMEMBER && zeroElements == elements) {
            return Outcome.MISS; // SMISMEMBER: none of the members is in the set
        }
        return Outcome.OK;
    }
}
