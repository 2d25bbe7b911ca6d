package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.resp.cluster.ClusterRedirects;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;

/**
 * The shape of a request's top-level reply, built from the decoder's events: its type, whether
 * it is an error or a nil, and for an aggregate how many direct elements it has and how many of
 * them are nil or the integer 0. Attributes and top-level pushes are skipped. {@link RespOutcomes}
 * judges the shape; on a cluster node's connection a MOVED or ASK error is handed to
 * {@link ClusterRedirects} instead. A GET or MGET that checks values ({@link Request#valueCheck()})
 * has each value compared with the one the run writes for its key as it is read.
 */
final class RespReplyShape implements RespSink {
    /** Reads a cluster node's MOVED and ASK; null on a connection to no cluster. */
    private final ClusterRedirects redirects;
    /** The reply was a MOVED or ASK (then {@link ClusterRedirects#redirect()} says where). */
    private boolean redirected;
    private int depth;
    /** Depth at which a skipped section (attribute, push) began; -1 when not skipping. */
    private int skipFrom;
    private byte type;
    private boolean nil;
    private boolean zero;
    private long elements;
    private long nilElements;
    /** Direct elements that are the integer 0 (SMISMEMBER's "not a member"). */
    private long zeroElements;
    /** A GET or MGET whose values are checked against the run's ({@link Request#valueCheck()}); null: none. */
    private Request checked;
    /** A value of {@link #checked} was not the one the run writes for its key. */
    private boolean mismatch;

    RespReplyShape(ClusterRedirects redirects) {
        this.redirects = redirects;
    }

    /** Readies the shape for a new reply, the one that answers {@code r}. */
    void clear(Request r) {
        Command c = r.command();
        checked = r.valueCheck() != null && r.argCount() == 0 && (c == Command.GET || c == Command.MGET) ? r : null;
        mismatch = false;
        redirected = false;
        depth = 0;
        skipFrom = -1;
        type = 0;
        nil = false;
        zero = false;
        elements = 0;
        nilElements = 0;
        zeroElements = 0;
    }

    boolean redirected() {
        return redirected;
    }

    /** Whether a checked value was not the one the run writes for its key. */
    boolean mismatch() {
        return mismatch;
    }

    /** Bulk string {@code in[start, end)} is the value of key {@code key} of the checked request. */
    private void checkValue(int key, ByteBuf in, int start, int end) {
        if (key < checked.keyCount() && !checked.valueCheck().matches(checked.keyBytes(), checked.keyOffset(key),
                checked.keyLength(key), in, start, end - start)) {
            mismatch = true;
        }
    }

    /** RESP's type byte of the reply ({@code $}, {@code *}, {@code -}, …). */
    byte type() {
        return type;
    }

    /** Whether the reply is a nil ({@code $-1}, {@code *-1}, RESP3 {@code _}). */
    boolean nil() {
        return nil;
    }

    /** Whether the reply is the integer 0. */
    boolean zero() {
        return zero;
    }

    /** Direct elements of an aggregate reply. */
    long elements() {
        return elements;
    }

    long nilElements() {
        return nilElements;
    }

    long zeroElements() {
        return zeroElements;
    }

    @Override
    public void scalar(byte t, ByteBuf in, int start, int end) {
        if (skipFrom >= 0) {
            return;
        }
        if (depth == 0) {
            type = t;
            nil = t == '_';
            zero = t == ':' && end - start == 1 && in.getByte(start) == '0';
            if (t == '-' && redirects != null) {
                redirected = redirects.read(in, start, end);
            }
            if (t == '$' && checked != null && checked.keyCount() == 1) {
                checkValue(0, in, start, end);
            }
        } else if (depth == 1) {
            if (t == '$' && checked != null && type == '*') {
                checkValue((int) elements, in, start, end); // MGET: element i is key i's value
            }
            elements++;
            if (t == '_') {
                nilElements++;
            } else if (t == ':' && end - start == 1 && in.getByte(start) == '0') {
                zeroElements++;
            }
        }
    }

    @Override
    public void nil(byte t) {
        if (skipFrom >= 0) {
            return;
        }
        if (depth == 0) {
            type = t;
            nil = true;
        } else if (depth == 1) {
            elements++;
            nilElements++;
        }
    }

    @Override
    public void aggregateStart(byte t, long count) {
        if (skipFrom < 0) {
            if (t == '|' || (t == '>' && depth == 0)) {
                skipFrom = depth;
            } else if (depth == 0) {
                type = t;
            } else if (depth == 1) {
                elements++;
            }
        }
        depth++;
    }

    @Override
    public void aggregateEnd(byte t) {
        depth--;
        if (skipFrom == depth) {
            skipFrom = -1;
        }
    }
}
