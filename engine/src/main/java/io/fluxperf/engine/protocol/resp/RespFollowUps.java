package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import static io.fluxperf.engine.protocol.ProtocolCodec.REDIRECTED;
import static io.fluxperf.engine.protocol.resp.RespCommands.bytes;
import static io.fluxperf.engine.protocol.resp.RespEncoding.bulkLong;
import static io.fluxperf.engine.protocol.resp.RespEncoding.key;

/**
 * The commands that follow a request in the same write, as rpc-perf sends them, and what their
 * replies do to the request's outcome.
 * <ul>
 * <li>A push with a truncate of n is followed by {@code LTRIM k 0 n-1} (LPUSH) or
 * {@code LTRIM k -n -1} (RPUSH), as rpc-perf fuses the two: the list keeps its newest n elements.
 * A failed trim makes the request an error.</li>
 * <li>A write into a hash, list, set or sorted set (HSET, HINCRBY, LPUSH, RPUSH, SADD, ZADD,
 * ZINCRBY) with a ttl is followed, after any trim, by {@code EXPIRE k ttl NX}: the key expires
 * ttl seconds after the write that made it (NX: later writes leave its life as it is). Its reply
 * does not count in the outcome.</li>
 * </ul>
 * A request with literal arguments (replay) has no follow-ups: it sends exactly its words.
 * One per connection; {@link RespCodec} frames the replies into {@link #replySink()}.
 */
final class RespFollowUps {
    private static final byte[] LTRIM = bytes("*4\r\n$5\r\nLTRIM\r\n");
    private static final byte[] RANGE_FROM_0 = bytes("$1\r\n0\r\n");
    private static final byte[] MINUS_ONE = bytes("$2\r\n-1\r\n");
    private static final byte[] EXPIRE = bytes("*4\r\n$6\r\nEXPIRE\r\n");
    private static final byte[] NX = bytes("$2\r\nNX\r\n");
    /** Writes into containers, which take no ttl of their own: a ttl is an EXPIRE sent after them. */
    private static final boolean[] EXPIRE_AFTER = new boolean[Command.values().length];

    static {
        for (Command c : new Command[] {Command.HSET, Command.HINCRBY, Command.LPUSH, Command.RPUSH, Command.SADD,
                Command.ZADD, Command.ZINCRBY}) {
            EXPIRE_AFTER[c.ordinal()] = true;
        }
    }

    private final RespErrorReply reply = new RespErrorReply();
    /** Replies still to read after the oldest request's own: its LTRIM's (when {@link #trimDue}), then its EXPIRE's. */
    private int pending;
    private boolean trimDue;
    /** The outcome of the request whose follow-ups are being read. */
    private int outcome;

    /** Writes the commands that follow {@code r}, after its own. */
    static void write(Request r, ByteBuf out) {
        if (r.argCount() > 0) {
            return;
        }
        if (trims(r)) {
            out.writeBytes(LTRIM);
            key(r, 0, out);
            int keep = r.truncate();
            if (r.command() == Command.LPUSH) {
                out.writeBytes(RANGE_FROM_0);
                bulkLong(out, keep - 1);
            } else {
                bulkLong(out, -(long) keep);
                out.writeBytes(MINUS_ONE);
            }
        }
        if (expires(r)) {
            out.writeBytes(EXPIRE);
            key(r, 0, out);
            bulkLong(out, r.ttlSeconds());
            out.writeBytes(NX);
        }
    }

    /** A push that keeps its list at most so long: an LTRIM follows it. */
    private static boolean trims(Request r) {
        return r.truncate() > 0 && r.command().takesTruncate();
    }

    /** A write into a hash, list, set or sorted set with a ttl: an EXPIRE … NX follows it. */
    private static boolean expires(Request r) {
        return r.ttlSeconds() > 0 && EXPIRE_AFTER[r.command().ordinal()];
    }

    /**
     * {@code r}'s own reply gave {@code requestOutcome}; returns whether replies of its follow-ups
     * are to be read before that outcome stands.
     */
    boolean expect(Request r, int requestOutcome) {
        if (r.argCount() > 0) {
            return false;
        }
        trimDue = trims(r);
        pending = (trimDue ? 1 : 0) + (expires(r) ? 1 : 0);
        outcome = requestOutcome;
        return pending > 0;
    }

    /** Whether a follow-up's reply is still to be read. */
    boolean pending() {
        return pending > 0;
    }

    /** Whether the reply read next is the LTRIM's (else the EXPIRE's). */
    boolean trimNext() {
        return trimDue;
    }

    /** Where the next follow-up's reply goes. */
    RespSink replySink() {
        return reply;
    }

    /** A follow-up's reply has been read into {@link #replySink()}: a failed trim makes the request an error. */
    void replyRead() {
        if (reply.takeFailed() && trimDue && outcome != REDIRECTED) {
            outcome = Outcome.ERROR.ordinal();
        }
        trimDue = false;
        pending--;
    }

    /** The request's outcome, once no follow-up is {@link #pending()}. */
    int outcome() {
        return outcome;
    }

    /** A reply could not be read: the connection is out of step, nothing more is expected. */
    void abandon() {
        pending = 0;
        trimDue = false;
        reply.take();
    }
}
