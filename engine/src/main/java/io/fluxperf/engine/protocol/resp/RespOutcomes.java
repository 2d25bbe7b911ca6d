package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import java.util.List;

/**
 * Which outcome a reply's shape ({@link RespReplyShape}) gives for which command.
 * <ul>
 * <li>An error reply ({@code -…}, RESP3 {@code !…}) is ERROR. A GET or MGET that checks values
 * and reads one other than the run writes for its key is an ERROR marked as a mismatch
 * ({@link Request#valueMismatch()}; {@link RespCodec} marks it). A nil ({@code $-1}, {@code *-1},
 * RESP3 {@code _}) is MISS.</li>
 * <li>An empty aggregate, or one whose elements are all nil (MGET), is MISS for a read (and for a
 * template or replayed command whose verb is not one of ours). HMGET and ZMSCORE miss as MGET
 * does.</li>
 * <li>An integer 0 is MISS for EXISTS, SISMEMBER, HEXISTS and LLEN (no such list), and for DEL,
 * EXPIRE, HDEL, SREM and ZREM, whose 0 means the key or member was not there (memcache's
 * NOT_FOUND for delete and touch); SMISMEMBER's array of zeros is a MISS too.</li>
 * <li>HINCRBY, ZINCRBY, EVAL and EVALSHA are OK unless an error or a nil. Everything else is OK.</li>
 * </ul>
 * A template's or replayed command's verb decides as the command of that name would (EXISTS,
 * GET, …). Allocation-free.
 */
final class RespOutcomes {
    private static final boolean[] ZERO_IS_MISS = new boolean[Command.values().length];

    static {
        for (Command c : new Command[] {Command.EXISTS, Command.DELETE, Command.EXPIRE, Command.HDEL, Command.SREM,
                Command.ZREM, Command.SISMEMBER, Command.LLEN, Command.HEXISTS}) {
            ZERO_IS_MISS[c.ordinal()] = true;
        }
    }

    private RespOutcomes() {
    }

    /** The outcome of a reply of {@code shape} to command {@code c} (null: a verb not known). */
    static Outcome of(RespReplyShape shape, Command c) {
        return of(c, shape.type(), shape.nil(), shape.zero(), shape.elements(), shape.nilElements(), shape.zeroElements());
    }

    /**
     * The same rule over a shape's parts, for a reader that keeps them itself (a capture's replies,
     * through {@link RespOutcome}).
     */
    static Outcome of(Command c, byte type, boolean nil, boolean zero, long elements, long nilElements, long zeroElements) {
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

    /** The command whose reply rules apply: the request's, or that named by its verb word. Null when unknown. */
    static Command effectiveCommand(Request r) {
        if (r.argCount() > 0) {
            return RespCommands.match(r.argBytes(), r.argOffset(0), r.argLength(0));
        }
        Command c = r.command();
        if (c != Command.COMMAND) {
            return c;
        }
        CommandTemplate t = r.template();
        if (t == null) {
            return null;
        }
        List<CommandTemplate.Part> first = t.words().get(0);
        if (first.size() == 1 && first.get(0) instanceof CommandTemplate.Literal l) {
            return RespCommands.match(l.bytes(), 0, l.bytes().length);
        }
        return null;
    }
}
