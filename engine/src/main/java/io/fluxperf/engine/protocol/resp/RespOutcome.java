package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;

/**
 * The outcome of a redis reply, opened to the protocol's log readers: a capture's replies are
 * judged by the rule the client codec judges the replay's by ({@link RespOutcomes}), so that the
 * original hit rate and the replay's are counted alike.
 */
public final class RespOutcome {
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
        return RespOutcomes.of(c, type, nil, zero, elements, nilElements, zeroElements);
    }
}
