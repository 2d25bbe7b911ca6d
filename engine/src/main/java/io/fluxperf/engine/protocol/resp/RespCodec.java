package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.Redirect;
import io.fluxperf.engine.protocol.resp.cluster.ClusterRedirects;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;

/**
 * Client side of RESP for one connection: frames the replies (RESP2 or RESP3) with a
 * {@link RespReplyDecoder} and hands each to the part of the client it answers. Every request
 * goes out as a RESP array of bulk strings; its writes and replies, in wire order:
 * <ol>
 * <li>{@code ASKING}, on a cluster node for a request sent after an ASK ({@link ClusterRedirects}):
 * its reply is dropped;</li>
 * <li>{@code SCRIPT LOAD}, before the first EVALSHA of a script ({@link RespScripts}): a refusal
 * makes the EVALSHA an error;</li>
 * <li>the request's own command ({@link RespRequestEncoder}), whose reply's shape
 * ({@link RespReplyShape}) gives the outcome ({@link RespOutcomes}), or on a cluster node a
 * MOVED or ASK gives a {@link Redirect} ({@link #REDIRECTED});</li>
 * <li>the follow-ups LTRIM and EXPIRE ({@link RespFollowUps}).</li>
 * </ol>
 * Before any load the {@link RespHandshake} (HELLO, AUTH, SELECT, READONLY).
 *
 * <p>Encoding and decoding allocate nothing per request. Not thread-safe: one per connection, on
 * its event loop.
 */
final class RespCodec implements ProtocolCodec {
    private static final String ASKING_REPLY = "ASKING before ";
    private static final String LOAD_REPLY = "SCRIPT LOAD before ";
    private static final String OWN_REPLY = "";
    private static final String LTRIM_REPLY = "the LTRIM after ";
    private static final String EXPIRE_REPLY = "the EXPIRE after ";

    private final RespReplyDecoder decoder = new RespReplyDecoder();
    private final RespHandshake handshake;
    private final RespScripts scripts = new RespScripts();
    private final RespRequestEncoder encoder;
    private final RespFollowUps followUps = new RespFollowUps();
    /** A cluster node's connection: MOVED and ASK are redirects. Null on a connection to no cluster. */
    private final ClusterRedirects redirects;
    private final RespReplyShape shape;

    RespCodec(RespOptions options) {
        this(options, false, false);
    }

    /**
     * @param clusterNode     a connection to a cluster node: redirects are decoded as such
     * @param readOnlyReplica the node is a replica this run reads from: READONLY first
     */
    RespCodec(RespOptions options, boolean clusterNode, boolean readOnlyReplica) {
        this.handshake = new RespHandshake(options, readOnlyReplica);
        this.redirects = clusterNode ? new ClusterRedirects() : null;
        this.encoder = new RespRequestEncoder(scripts, clusterNode);
        this.shape = new RespReplyShape(redirects);
    }

    @Override
    public Redirect redirect() {
        return redirects != null ? redirects.redirect() : null;
    }

    // ---- handshake ----

    @Override
    public boolean hasHandshake() {
        return handshake.any();
    }

    @Override
    public boolean writeHandshake(ByteBuf out) {
        return handshake.write(out);
    }

    @Override
    public int decodeHandshake(ByteBuf in) throws ProtocolException {
        while (handshake.pending()) {
            if (!decoder.decode(in, handshake.replySink())) {
                return NEED_MORE;
            }
            handshake.replyRead();
        }
        return HANDSHAKE_DONE;
    }

    // ---- requests ----

    @Override
    public void encode(Request r, ByteBuf out) {
        if (redirects != null) {
            redirects.writeBefore(r, out); // its reply is read and dropped before the command's own
        }
        encoder.write(r, out);
        RespFollowUps.write(r, out); // in the same write; decode reads their replies after the request's
        scripts.requestSent();
    }

    // ---- replies ----

    @Override
    public int decode(ByteBuf in, Request r) throws ProtocolException {
        if (followUps.pending()) {
            return decodeFollowUps(in, r);
        }
        if (redirects != null && redirects.askingReplyDue(r)) {
            if (!frame(in, RespSink.IGNORE, ASKING_REPLY, r)) {
                return NEED_MORE;
            }
            redirects.askingAnswered();
        }
        if (scripts.loadReplyDue()) {
            if (!frame(in, scripts.loadReplySink(), LOAD_REPLY, r)) {
                return NEED_MORE;
            }
            scripts.loadReplyRead();
        }
        if (!decoder.inFrame()) {
            shape.clear(r);
        }
        if (!frame(in, shape, OWN_REPLY, r)) {
            return NEED_MORE;
        }
        if (redirects != null) {
            redirects.requestAnswered();
        }
        boolean loadFailed = scripts.received();
        int outcome = shape.redirected() ? REDIRECTED
                : loadFailed ? Outcome.ERROR.ordinal() : RespOutcomes.of(shape, RespOutcomes.effectiveCommand(r)).ordinal();
        if (shape.mismatch() && outcome == Outcome.OK.ordinal()) {
            r.valueMismatch(); // read whole: the connection stays in step
            outcome = Outcome.ERROR.ordinal();
        }
        if (followUps.expect(r, outcome)) {
            return decodeFollowUps(in, r);
        }
        return outcome;
    }

    private int decodeFollowUps(ByteBuf in, Request r) throws ProtocolException {
        while (followUps.pending()) {
            if (!frame(in, followUps.replySink(), followUps.trimNext() ? LTRIM_REPLY : EXPIRE_REPLY, r)) {
                return NEED_MORE;
            }
            followUps.replyRead();
        }
        return followUps.outcome();
    }

    /**
     * Frames the next reply into {@code sink}; false when it is not all there yet. A reply that
     * cannot be read puts the connection out of step: what was expected of it is forgotten, and
     * the exception says which reply it was ({@code replyTo} and the request).
     */
    private boolean frame(ByteBuf in, RespSink sink, String replyTo, Request r) throws ProtocolException {
        try {
            return decoder.decode(in, sink);
        } catch (ProtocolException e) {
            decoder.reset();
            followUps.abandon();
            if (redirects != null) {
                redirects.requestAnswered();
            }
            throw new ProtocolException(e.getMessage() + " (reply to " + replyTo + r + ")");
        }
    }
}
