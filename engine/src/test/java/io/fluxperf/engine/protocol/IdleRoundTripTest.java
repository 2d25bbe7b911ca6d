package io.fluxperf.engine.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each protocol's no-op for the latency floor: its request, and its success reply read whole however
 * it is split; any other reply is no round trip, and says whose it looks like.
 */
class IdleRoundTripTest {
    private static IdleRoundTrip of(String protocol, WorkloadConfig... workloads) {
        return Protocols.find(protocol).idleRoundTrip(ProtocolOptions.none(), null, List.of(workloads));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The reply split at every byte: not whole until its last byte, then consumed exactly, the next reply's bytes left. */
    private static void readsWhole(IdleRoundTrip trip, byte[] reply) throws ProtocolException {
        for (int cut = 0; cut < reply.length; cut++) {
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(reply, 0, cut);
            assertFalse(trip.replied(in), "whole after " + cut + " of " + reply.length + " bytes?");
            assertEquals(0, in.readerIndex(), "nothing consumed while partial");
            in.writeBytes(reply, cut, reply.length - cut);
            in.writeBytes(reply, 0, 1); // the start of the next reply
            assertTrue(trip.replied(in));
            assertEquals(reply.length, in.readerIndex());
            in.release();
        }
    }

    @Test
    void memcacheSendsVersion() throws ProtocolException {
        IdleRoundTrip t = of("memcache", WorkloadConfig.of(Command.GET));
        assertEquals("version", t.describe());
        assertArrayEquals(ascii("version\r\n"), t.request());
        readsWhole(t, ascii("VERSION 1.6.18\r\n"));
        assertEquals("the server answered version with 'ERROR'", refused(t, "ERROR\r\n"));
        assertEquals("the server answered version with '-ERR unknown command 'version', with args beginn…'",
                refused(t, "-ERR unknown command 'version', with args beginning with: \r\n"));
    }

    /** The message of the ProtocolException for {@code reply}, which must not be the success reply. */
    private static String refused(IdleRoundTrip t, String reply) {
        return assertThrows(ProtocolException.class, () -> t.replied(Unpooled.wrappedBuffer(ascii(reply)))).getMessage();
    }

    @Test
    void aReplyOfAnotherProtocolNamesIt() {
        Protocol memcache = Protocols.find("memcache");
        Protocol redis = Protocols.find("redis");
        Protocol http = Protocols.find("http");
        assertEquals("does the server speak memcache? That is how redis answers: try --protocol redis",
                UnexpectedReply.hint(memcache, ascii("-ERR unknown command 'version'\r\n")));
        assertEquals("does the server speak memcache? That is how redis answers: try --protocol redis",
                UnexpectedReply.hint(memcache, ascii("$-1\r\n")));
        assertEquals("does the server speak redis? That is how memcache answers: try --protocol memcache",
                UnexpectedReply.hint(redis, ascii("ERROR\r\nERROR\r\n")));
        assertEquals("does the server speak redis? That is how http answers: try --protocol http",
                UnexpectedReply.hint(redis, ascii("HTTP/1.1 400 Bad Request\r\n")));
        assertEquals("does the server speak http?", UnexpectedReply.hint(http, new byte[] {0, (byte) 0xff, 'G', '\r', '\n'}));
        assertNull(UnexpectedReply.hint(memcache, ascii("SERVER_ERROR out of memory\r\n")), "its own error reply");
        assertNull(UnexpectedReply.hint(redis, ascii("-ERR wrong number of arguments\r\n")), "its own error reply");
        assertNull(UnexpectedReply.hint(memcache, new byte[0]));
        byte[] binary = new byte[24];
        binary[0] = (byte) 0x81;
        assertEquals("does the server speak memcache? That is how memcache-binary answers: try --protocol memcache-binary",
                UnexpectedReply.hint(memcache, binary));
    }

    @Test
    void memcachesBinaryProtocolSendsItsVersionCommand() throws ProtocolException {
        IdleRoundTrip t = of("memcache-binary", WorkloadConfig.of(Command.GET));
        byte[] request = t.request();
        assertEquals(24, request.length);
        assertEquals((byte) 0x80, request[0]);
        assertEquals(0x0b, request[1]);
        byte[] reply = new byte[24 + 6];
        reply[0] = (byte) 0x81;
        reply[1] = 0x0b;
        reply[11] = 6; // total body length
        System.arraycopy(ascii("1.6.18"), 0, reply, 24, 6);
        readsWhole(t, reply);
        ByteBuf garbage = Unpooled.wrappedBuffer(new byte[24]);
        assertThrows(ProtocolException.class, () -> t.replied(garbage));
        reply[7] = (byte) 0x81; // status: unknown command
        assertEquals("the server answered version (binary) with status 129",
                assertThrows(ProtocolException.class, () -> t.replied(Unpooled.wrappedBuffer(reply))).getMessage());
    }

    @Test
    void redisSendsPing() throws ProtocolException {
        IdleRoundTrip t = of("redis", WorkloadConfig.of(Command.GET));
        assertEquals("PING", t.describe());
        assertArrayEquals(ascii("*1\r\n$4\r\nPING\r\n"), t.request());
        readsWhole(t, ascii("+PONG\r\n"));
        readsWhole(t, ascii("-NOAUTH Authentication required.\r\n"));
        assertEquals("the server answered PING with '$4'", refused(t, "$4\r\nPONG\r\n"));
        assertEquals("the server answered PING with '-ERR unknown command'", refused(t, "-ERR unknown command\r\n"));
        assertEquals("the server answered PING with 'ERROR'", refused(t, "ERROR\r\n"));
    }

    @Test
    void httpGetsTheRunsPathWithItsHeaders() throws ProtocolException {
        IdleRoundTrip t = of("http", WorkloadConfig.of(Command.POST),
                WorkloadConfig.of(Command.GET, CommandTemplate.parse("/items/__key__?v=1")));
        assertEquals("GET /items/0?v=1", t.describe());
        String request = new String(t.request(), StandardCharsets.ISO_8859_1);
        assertTrue(request.startsWith("GET /items/0?v=1 HTTP/1.1\r\nHost: localhost\r\n"), request);
        assertTrue(request.endsWith("\r\n\r\n"), request);
        readsWhole(t, ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"));
        readsWhole(t, ascii("HTTP/1.1 301 Moved Permanently\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"));
        assertEquals("the server answered GET /items/0?v=1 with status 404",
                refused(t, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"));
        assertEquals("GET /", of("http", WorkloadConfig.of(Command.GET)).describe(), "no template: /");
    }
}
