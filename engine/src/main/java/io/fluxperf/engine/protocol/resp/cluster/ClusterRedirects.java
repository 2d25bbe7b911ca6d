package io.fluxperf.engine.protocol.resp.cluster;

import io.fluxperf.engine.protocol.Redirect;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * The redirects of one connection to a redis Cluster node ({@code --cluster}). An error reply
 * {@code -MOVED slot host:port} or {@code -ASK slot host:port} is no outcome but a
 * {@link Redirect} ({@code ProtocolCodec.REDIRECTED}); a request sent again after an ASK
 * ({@link Request#redirectOnce()}) goes out after {@code ASKING}, whose reply is read and dropped
 * before the request's own.
 *
 * <p>One per connection, on its event loop; nothing is allocated per reply (the {@link Redirect}
 * is reused). The codec of the connection frames the replies and asks this class what they are.
 */
public final class ClusterRedirects {
    private static final byte[] ASKING = ascii("*1\r\n$6\r\nASKING\r\n");
    private static final byte[] MOVED_PREFIX = ascii("MOVED ");
    private static final byte[] ASK_PREFIX = ascii("ASK ");

    private final Redirect redirect = new Redirect();
    /** The ASKING before the oldest request's own command has been answered (and its reply dropped). */
    private boolean askingAnswered;

    /** Where the last reply that {@link #read} took for a redirect sends its request. */
    public Redirect redirect() {
        return redirect;
    }

    /** Writes what goes before {@code r}: {@code ASKING} when it is sent after an ASK. */
    public void writeBefore(Request r, ByteBuf out) {
        if (r.redirectOnce()) {
            out.writeBytes(ASKING);
        }
    }

    /** Whether the next reply, before {@code r}'s own, is the ASKING's. */
    public boolean askingReplyDue(Request r) {
        return r.redirectOnce() && !askingAnswered;
    }

    /** The ASKING's reply has been read (and dropped). */
    public void askingAnswered() {
        askingAnswered = true;
    }

    /** The oldest request's own reply has been read, or could not be: the next request starts afresh. */
    public void requestAnswered() {
        askingAnswered = false;
    }

    /**
     * Reads an error reply's text {@code in[start, end)}: {@code MOVED 3999 127.0.0.1:6381} or
     * {@code ASK 3999 127.0.0.1:6381} into {@link #redirect()} and true; false for any other error.
     */
    public boolean read(ByteBuf in, int start, int end) {
        Redirect.Kind kind = startsWith(in, start, end, MOVED_PREFIX) ? Redirect.Kind.MOVED
                : startsWith(in, start, end, ASK_PREFIX) ? Redirect.Kind.ASK : null;
        if (kind == null) {
            return false;
        }
        int p = start + (kind == Redirect.Kind.MOVED ? MOVED_PREFIX.length : ASK_PREFIX.length);
        int slot = 0;
        int digits = 0;
        while (p < end && in.getByte(p) >= '0' && in.getByte(p) <= '9' && digits < 6) {
            slot = slot * 10 + (in.getByte(p++) - '0');
            digits++;
        }
        if (digits == 0 || p >= end || in.getByte(p) != ' ' || p + 1 >= end) {
            return false; // not the shape redis sends: an ordinary error
        }
        redirect.set(kind, slot, in, p + 1, end);
        return true;
    }

    private static boolean startsWith(ByteBuf in, int start, int end, byte[] prefix) {
        if (end - start < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (in.getByte(start + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
