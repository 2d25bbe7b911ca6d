package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.HandshakeRefused;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.protocol.Redirect;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cluster node's connection: MOVED and ASK replies are redirects (split at every byte), other
 * errors stay errors, a request sent after an ASK goes out after ASKING whose reply is dropped,
 * and a replica's connection begins with READONLY.
 */
class RespClusterCodecTest {
    private static ProtocolCodec node(boolean replica) {
        return Protocols.find("redis").cluster().nodeCodecs(ProtocolOptions.none(), replica).newCodec();
    }

    private static Request get(long key) {
        return new Request().command(Command.GET, 0).addKey(key, 4);
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Decodes {@code reply} fed in two parts split at {@code at}; the result of the call that completed it. */
    private static int decodeSplit(ProtocolCodec codec, Request r, String reply, int at) throws ProtocolException {
        ByteBuf in = Unpooled.buffer();
        in.writeBytes(bytes(reply.substring(0, at)));
        int result = codec.decode(in, r);
        if (at < reply.length()) {
            assertEquals(ProtocolCodec.NEED_MORE, result, "part of " + reply.trim());
            in.writeBytes(bytes(reply.substring(at)));
            result = codec.decode(in, r);
        }
        assertFalse(in.isReadable(), "the whole reply consumed");
        return result;
    }

    @Test
    void movedAndAskAreRedirectsAtEverySplit() throws ProtocolException {
        String moved = "-MOVED 3999 127.0.0.1:6381\r\n";
        String ask = "-ASK 15495 [::1]:7003\r\n";
        for (int at = 1; at <= moved.length(); at++) {
            ProtocolCodec codec = node(false);
            assertEquals(ProtocolCodec.REDIRECTED, decodeSplit(codec, get(1), moved, at));
            Redirect r = codec.redirect();
            assertEquals(Redirect.Kind.MOVED, r.kind());
            assertEquals(3999, r.shard());
            assertEquals("127.0.0.1:6381", r.address());
            assertTrue(r.names("127.0.0.1:6381".getBytes(StandardCharsets.US_ASCII)));
            assertFalse(r.names("127.0.0.1:6382".getBytes(StandardCharsets.US_ASCII)));
        }
        for (int at = 1; at <= ask.length(); at++) {
            ProtocolCodec codec = node(false);
            assertEquals(ProtocolCodec.REDIRECTED, decodeSplit(codec, get(1), ask, at));
            assertEquals(Redirect.Kind.ASK, codec.redirect().kind());
            assertEquals(15495, codec.redirect().shard());
            assertEquals("[::1]:7003", codec.redirect().address());
        }
    }

    @Test
    void otherErrorsStayErrorsAndOnlyClusterConnectionsRedirect() throws ProtocolException {
        assertEquals(Outcome.ERROR.ordinal(), decodeSplit(node(false), get(1), "-MOVEDX 1 a:1\r\n", 15));
        assertEquals(Outcome.ERROR.ordinal(), decodeSplit(node(false), get(1), "-CROSSSLOT Keys in request don't hash to the same slot\r\n", 3));
        assertEquals(Outcome.ERROR.ordinal(), decodeSplit(node(false), get(1), "-ASK notanumber 1.2.3.4:5\r\n", 4));
        // a run against one redis takes a MOVED for what it is: an error reply
        ProtocolCodec plain = Protocols.find("redis").codecs(ProtocolOptions.none(), null).newCodec();
        assertEquals(Outcome.ERROR.ordinal(), decodeSplit(plain, get(1), "-MOVED 3999 127.0.0.1:6381\r\n", 5));
    }

    @Test
    void aRequestSentAfterAnAskGoesOutAfterAsking() throws ProtocolException {
        ProtocolCodec codec = node(false);
        Request r = get(7).redirected(true);
        ByteBuf out = Unpooled.buffer();
        codec.encode(r, out);
        assertEquals("*1\r\n$6\r\nASKING\r\n*2\r\n$3\r\nGET\r\n$4\r\n0007\r\n", out.toString(StandardCharsets.US_ASCII));
        String replies = "+OK\r\n$3\r\nabc\r\n";
        for (int at = 1; at <= replies.length(); at++) {
            ProtocolCodec c = node(false);
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes(replies.substring(0, at)));
            int result = c.decode(in, r);
            if (at < replies.length()) {
                assertEquals(ProtocolCodec.NEED_MORE, result, "split at " + at);
                in.writeBytes(bytes(replies.substring(at)));
                result = c.decode(in, r);
            }
            assertEquals(Outcome.OK.ordinal(), result, "the GET's own reply decides, split at " + at);
            assertFalse(in.isReadable());
        }
        // after a MOVED the request goes without ASKING
        ByteBuf again = Unpooled.buffer();
        codec.encode(get(7).redirected(true).redirected(false), again);
        assertEquals("*2\r\n$3\r\nGET\r\n$4\r\n0007\r\n", again.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void aReplicasConnectionBeginsWithReadonly() throws ProtocolException {
        ProtocolCodec replica = node(true);
        assertTrue(replica.hasHandshake());
        ByteBuf out = Unpooled.buffer();
        assertTrue(replica.writeHandshake(out));
        assertEquals("*1\r\n$8\r\nREADONLY\r\n", out.toString(StandardCharsets.US_ASCII));
        assertEquals(ProtocolCodec.NEED_MORE, replica.decodeHandshake(bytes("+O")));
        assertEquals(ProtocolCodec.HANDSHAKE_DONE, replica.decodeHandshake(bytes("+OK\r\n")));
        assertFalse(node(false).hasHandshake(), "a master's connection sends nothing first");
        ProtocolCodec refused = node(true);
        refused.writeHandshake(Unpooled.buffer());
        HandshakeRefused e = assertThrows(HandshakeRefused.class,
                () -> refused.decodeHandshake(bytes("-ERR This instance has cluster support disabled\r\n")));
        assertTrue(e.getMessage().startsWith("--read-from replica: a replica refused READONLY"), e.getMessage());
    }
}
