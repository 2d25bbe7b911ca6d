package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.capture.RecordingSink;
import io.fluxperf.engine.request.Command;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import static io.fluxperf.engine.log.capture.RecordingSink.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The memcache reader of captured connections: text commands with their data blocks and binary
 * commands with their bodies, mixed on one connection, into log entries; text and binary replies
 * (quiet commands answered by silence) into outcomes; each stream split at every byte reads the
 * same; gaps inside a data block or a binary body cut one command, elsewhere they lose the stream.
 */
class MemcacheConnectionReaderTest {
    private static final String VALUE = "hello\r\nworld";
    private static final String TEXT = "set k 5 100 " + VALUE.length() + "\r\n" + VALUE + "\r\n"
            + "get k\r\n"
            + "gets a b c\r\n"
            + "add n 0 0 1 noreply\r\n1\r\n"
            + "incr n 5\r\n"
            + "delete k\r\n"
            + "touch a 60\r\n"
            + "cas k 0 0 2 99\r\nhi\r\n"
            + "version\r\n"
            + "mg k v\r\n"
            + "stats\r\n"
            + "bogus\r\n"
            + "decr n 1\r\n";
    private static final String TEXT_REPLIES = "STORED\r\n"
            + "VALUE k 5 " + VALUE.length() + "\r\n" + VALUE + "\r\nEND\r\n"
            + "VALUE a 0 1 7\r\nx\r\nEND\r\n"
            + "6\r\n"
            + "DELETED\r\n"
            + "NOT_FOUND\r\n"
            + "EXISTS\r\n"
            + "VERSION 1.6.18\r\n"
            + "VA 1 v\r\nx\r\n"
            + "STAT pid 1\r\nSTAT uptime 2\r\nEND\r\n"
            + "ERROR\r\n"
            + "5\r\n";

    private static RecordingSink read(byte[] requests, byte[] replies, int requestCut, int replyCut) {
        RecordingSink sink = new RecordingSink("memcache", null, false);
        MemcacheConnectionReader r = new MemcacheConnectionReader(sink.ctx);
        r.reset(true);
        RecordingSink.requests(r, requests, sink, requestCut);
        RecordingSink.replies(r, replies, sink, replyCut);
        return sink;
    }

    private static void assertText(RecordingSink s, String where) {
        List<RecordingSink.Command> c = s.commands;
        assertEquals(List.of("set", "get", "gets", "add", "incr", "delete", "touch", "cas", "get", "decr"),
                c.stream().map(RecordingSink.Command::verb).toList(), where);
        assertEquals(VALUE, c.get(0).value(), where);
        assertEquals(100, c.get(0).ttl(), where);
        assertEquals(List.of("a", "b", "c"), c.get(2).keys(), where);
        assertEquals(5, c.get(4).numeric(), where);
        assertEquals(60, c.get(6).ttl(), where);
        assertEquals(99, c.get(7).numeric(), where);
        assertEquals(Command.CAS, c.get(7).command(), where);
        byte[] expected = {LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_MISS, LogEntry.REPLY_UNKNOWN,
            LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_MISS, LogEntry.REPLY_MISS, LogEntry.REPLY_OK,
            LogEntry.REPLY_OK};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], s.reply(i), where + ": reply of command " + i + " " + c.get(i).verb());
        }
        assertEquals(List.of("skip admin commands (version)", "skip admin commands (stats)",
                "skip unknown commands ('bogus', answered ERROR)"), s.others(), where);
        assertEquals(1, s.ctx.stats.adjusted().size(), where); // noreply dropped
        assertFalse(s.repliesLost, where);
    }

    @Test
    void textCommandsAndRepliesReadTheSameSplitAtEveryByte() {
        byte[] req = bytes(TEXT);
        byte[] rep = bytes(TEXT_REPLIES);
        for (int cut = 0; cut <= req.length; cut++) {
            assertText(read(req, rep, cut, cut % rep.length), "requests split at " + cut);
        }
        for (int cut = 0; cut <= rep.length; cut++) {
            assertText(read(req, rep, 0, cut), "replies split at " + cut);
        }
    }

    /**
     * A meta client's conversation (memcached 1.6's replies): a quiet batch ended by mn, whose MN
     * tells the silence of its commands, then a quiet get that hits, whose reply no longer pairs.
     */
    private static final String META = "ms m1 5 T60 F3\r\nhello\r\n"
            + "mg m1 v c\r\n"
            + "mg m2 v\r\n"
            + "ms m1 2 MA\r\nxx\r\n"
            + "ms m1 2 C123 I\r\nyy\r\n"
            + "md m1\r\n"
            + "ma cnt D5 MD\r\n"
            + "mg m1 T30\r\n"
            + "ms m1 1 MZ\r\nq\r\n"
            + "mn\r\n"
            + "me m1\r\n"
            + "ms a2V5 1 b\r\nz\r\n"
            + "get m1\r\n"
            + "mg k2 q v\r\n"
            + "md k3 q\r\n"
            + "mn\r\n"
            + "mg m1 q v\r\n"
            + "mg m1 v\r\n";
    private static final String META_REPLIES = "HD\r\n"
            + "VA 5 c77\r\nhello\r\n"
            + "EN\r\n"
            + "HD\r\n"
            + "EX\r\n"
            + "HD\r\n"
            + "NF\r\n"
            + "EN\r\n"
            + "CLIENT_ERROR invalid mode for ms STORE\r\n"
            + "MN\r\n"
            + "ME m1 exp=-1 la=3 cas=79 fetch=yes cls=1 size=64\r\n"
            + "HD\r\n"
            + "END\r\n"
            + "MN\r\n"
            + "VA 1\r\nz\r\n"
            + "VA 1\r\nz\r\n";

    private static void assertMeta(RecordingSink s, String where) {
        List<RecordingSink.Command> c = s.commands;
        assertEquals(List.of("set", "gets", "get", "append", "cas", "delete", "decr", "touch", "exists", "set", "get", "get",
                "delete", "get", "get"), c.stream().map(RecordingSink.Command::verb).toList(), where);
        assertEquals("hello", c.get(0).value(), where);
        assertEquals(60, c.get(0).ttl(), where);
        assertEquals(Command.GETS, c.get(1).command(), where);
        assertEquals("xx", c.get(3).value(), where);
        assertEquals(123, c.get(4).numeric(), where);
        assertEquals("yy", c.get(4).value(), where);
        assertEquals(5, c.get(6).numeric(), where);
        assertEquals(Command.DECR, c.get(6).command(), where);
        assertEquals(30, c.get(7).ttl(), where);
        assertEquals(List.of("key"), c.get(9).keys(), where); // base64 "a2V5"
        byte[] expected = {LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_MISS, LogEntry.REPLY_OK, LogEntry.REPLY_MISS,
            LogEntry.REPLY_OK, LogEntry.REPLY_MISS, LogEntry.REPLY_MISS, LogEntry.REPLY_OK, LogEntry.REPLY_OK,
            LogEntry.REPLY_MISS, LogEntry.REPLY_MISS, LogEntry.REPLY_OK};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], s.reply(i), where + ": reply of command " + i + " " + c.get(i).verb());
        }
        // the quiet get that hit: its reply, and every later one, no longer pair with commands
        assertEquals(null, s.reply(expected.length), where);
        assertEquals(null, s.reply(expected.length + 1), where);
        assertEquals(List.of("skip malformed meta commands (ms)", "skip meta no-op (mn)", "skip meta no-op (mn)",
                "replies lost"), s.others(), where);
        assertEquals(java.util.Map.of("quiet flag dropped (every reply is timed)", 3L), s.ctx.stats.adjusted(), where);
    }

    /**
     * Meta commands become the text commands whose work they do ({@link MetaRequests}), their data
     * blocks read, their replies (HD, VA, EN, NF, NS, EX) read as outcomes; split at every byte.
     */
    @Test
    void metaCommandsAndRepliesReadTheSameSplitAtEveryByte() {
        byte[] req = bytes(META);
        byte[] rep = bytes(META_REPLIES);
        for (int cut = 0; cut <= req.length; cut++) {
            RecordingSink sink = new RecordingSink("memcache-meta", null, false);
            MemcacheConnectionReader r = new MemcacheConnectionReader(sink.ctx);
            r.reset(true);
            RecordingSink.requests(r, req, sink, cut);
            RecordingSink.replies(r, rep, sink, cut % rep.length);
            assertMeta(sink, "requests split at " + cut);
        }
        // a gap inside an ms's data block cuts that command only
        RecordingSink g = new RecordingSink("memcache-meta", null, false);
        MemcacheConnectionReader r = new MemcacheConnectionReader(g.ctx);
        r.reset(true);
        byte[] text = bytes("ms k 100\r\n" + "v".repeat(100) + "\r\nmg k v\r\n");
        r.request(text, 0, 20, g);
        r.requestGap(50, g);
        r.request(text, 70, text.length, g);
        assertEquals(List.of("cut", "command get"), g.events);
    }

    /** A binary request: header, extras, key, value. */
    static byte[] bin(int opcode, String key, byte[] extras, String value, int opaque, long cas) {
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(24 + extras.length + k.length + v.length);
        b.put((byte) 0x80).put((byte) opcode).putShort((short) k.length).put((byte) extras.length).put((byte) 0)
                .putShort((short) 0).putInt(extras.length + k.length + v.length).putInt(opaque).putLong(cas)
                .put(extras).put(k).put(v);
        return b.array();
    }

    static byte[] binReply(int opcode, int status, String key, String value, int opaque) {
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        int extras = opcode == MemcacheBinaryOps.GET || opcode == MemcacheBinaryOps.GETK || opcode == MemcacheBinaryOps.GETKQ
                ? 4 : 0;
        if (status != 0) {
            extras = 0;
        }
        ByteBuffer b = ByteBuffer.allocate(24 + extras + k.length + v.length);
        b.put((byte) 0x81).put((byte) opcode).putShort((short) k.length).put((byte) extras).put((byte) 0)
                .putShort((short) status).putInt(extras + k.length + v.length).putInt(opaque).putLong(1)
                .put(new byte[extras]).put(k).put(v);
        return b.array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] storeExtras(int exptime) {
        return ByteBuffer.allocate(8).putInt(0).putInt(exptime).array();
    }

    private static final byte[] BINARY = concat(
            bin(MemcacheBinaryOps.GETKQ, "k1", new byte[0], "", 1, 0),
            bin(MemcacheBinaryOps.GETKQ, "k2", new byte[0], "", 2, 0),
            bin(MemcacheBinaryOps.GETK, "k3", new byte[0], "", 3, 0),
            bin(MemcacheBinaryOps.SETQ, "k4", storeExtras(30), "four\r\n", 4, 0),
            bin(MemcacheBinaryOps.NOOP, "", new byte[0], "", 5, 0),
            bin(MemcacheBinaryOps.SET, "k5", storeExtras(0), "five", 6, 7),
            bin(MemcacheBinaryOps.INCREMENT, "n", ByteBuffer.allocate(20).putLong(3).putLong(0).putInt(-1).array(), "", 7, 0),
            bin(MemcacheBinaryOps.DELETE, "k1", new byte[0], "", 8, 0),
            bin(MemcacheBinaryOps.TOUCH, "k4", ByteBuffer.allocate(4).putInt(90).array(), "", 9, 0),
            bytes("get k1\r\n")); // a text command on the same connection
    private static final byte[] BINARY_REPLIES = concat(
            binReply(MemcacheBinaryOps.GETKQ, 0, "k1", "one", 1),
            binReply(MemcacheBinaryOps.GETK, 1, "", "Not found", 3),
            binReply(MemcacheBinaryOps.NOOP, 0, "", "", 5), // passes over the GETKQ of k2 (a miss) and the SETQ (stored)
            binReply(MemcacheBinaryOps.SET, 2, "", "Data exists for key.", 6),
            binReply(MemcacheBinaryOps.INCREMENT, 0, "", "\0\0\0\0\0\0\0\4", 7),
            binReply(MemcacheBinaryOps.DELETE, 0, "", "", 8),
            binReply(MemcacheBinaryOps.TOUCH, 0, "", "", 9),
            bytes("END\r\n"));

    private static void assertBinary(RecordingSink s, String where) {
        List<RecordingSink.Command> c = s.commands;
        assertEquals(List.of("get", "get", "get", "set", "cas", "incr", "delete", "touch", "get"),
                c.stream().map(RecordingSink.Command::verb).toList(), where);
        assertEquals(List.of("k3"), c.get(2).keys(), where);
        assertEquals("four\r\n", c.get(3).value(), where);
        assertEquals(30, c.get(3).ttl(), where);
        assertEquals(7, c.get(4).numeric(), where);
        assertEquals("five", c.get(4).value(), where);
        assertEquals(3, c.get(5).numeric(), where);
        assertNull(c.get(5).value(), where);
        assertEquals(90, c.get(7).ttl(), where);
        byte[] expected = {LogEntry.REPLY_OK, LogEntry.REPLY_MISS, LogEntry.REPLY_MISS, LogEntry.REPLY_OK,
            LogEntry.REPLY_MISS, LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_MISS};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], s.reply(i), where + ": reply of command " + i + " " + c.get(i).verb());
        }
        assertEquals(List.of("skip binary no-ops (a multi-get's end; the replay's codec sends its own)"), s.others(), where);
        assertFalse(s.repliesLost, where);
    }

    @Test
    void binaryCommandsQuietOnesAndTextMixedReadTheSameSplitAtEveryByte() {
        for (int cut = 0; cut <= BINARY.length; cut++) {
            assertBinary(read(BINARY, BINARY_REPLIES, cut, cut % BINARY_REPLIES.length), "requests split at " + cut);
        }
        for (int cut = 0; cut <= BINARY_REPLIES.length; cut++) {
            assertBinary(read(BINARY, BINARY_REPLIES, 0, cut), "replies split at " + cut);
        }
    }

    @Test
    void gapsInsideADataBlockOrABinaryBodyCutOneCommand() {
        byte[] text = bytes("set k 0 0 100\r\n" + "v".repeat(100) + "\r\nget k\r\n");
        RecordingSink s = new RecordingSink("memcache", null, false);
        MemcacheConnectionReader r = new MemcacheConnectionReader(s.ctx);
        r.reset(true);
        r.request(text, 0, 30, s);
        r.requestGap(80, s); // the block's last 85 bytes and its CRLF: 87 … minus the 7 that still come
        r.request(text, 110, text.length, s);
        assertEquals(List.of("cut", "command get"), s.events);

        byte[] body = bin(MemcacheBinaryOps.SET, "key", storeExtras(0), "x".repeat(500), 1, 0);
        byte[] next = bin(MemcacheBinaryOps.GET, "key", new byte[0], "", 2, 0);
        RecordingSink t = new RecordingSink("memcache", null, false);
        MemcacheConnectionReader q = new MemcacheConnectionReader(t.ctx);
        q.reset(true);
        q.request(body, 0, 26, t); // the header and two bytes of the extras
        q.requestGap(body.length - 26 - 10, t); // the rest of the extras, the key, most of the value
        q.request(body, body.length - 10, body.length, t);
        q.request(next, 0, next.length, t);
        assertEquals(List.of("cut", "command get"), t.events);
        byte[] replies = concat(binReply(MemcacheBinaryOps.SET, 0, "", "", 1), binReply(MemcacheBinaryOps.GET, 0, "", "xx", 2));
        q.reply(replies, 0, replies.length, t);
        assertEquals(LogEntry.REPLY_OK, t.reply(0));
    }

    @Test
    void aGapInACommandLineLosesTheStream() {
        byte[] text = bytes("get k\r\nget j\r\n");
        RecordingSink s = new RecordingSink("memcache", null, false);
        MemcacheConnectionReader r = new MemcacheConnectionReader(s.ctx);
        r.reset(true);
        r.request(text, 0, 9, s);
        r.requestGap(5, s);
        assertEquals(List.of("command get", "lost gap"), s.events);
        byte[] rep = bytes("END\r\nVALUE j 0 1\r\nx\r\nEND\r\nEND\r\n");
        r.reply(rep, 0, rep.length, s);
        assertEquals(LogEntry.REPLY_MISS, s.reply(0));
        assertEquals(2, s.unreadAnswered);
    }

    @Test
    void aConnectionPickedUpMidStreamStartsAtItsFirstWholeCommand() {
        RecordingSink s = new RecordingSink("memcache", null, false);
        MemcacheConnectionReader r = new MemcacheConnectionReader(s.ctx);
        r.reset(false);
        byte[] tail = bytes("lue bytes\r\n");
        byte[] fake = bytes("get this is no\r"); // looks like a command line but the value goes on
        byte[] fakeRest = bytes("x\r\n");
        byte[] whole = bytes("set a 0 0 1\r\n1\r\nget a\r\n");
        r.request(tail, 0, tail.length, s);
        r.request(fake, 0, fake.length, s);
        r.request(fakeRest, 0, fakeRest.length, s);
        r.request(whole, 0, whole.length, s);
        assertEquals(List.of("abandon", "picked up after " + (tail.length + fake.length + fakeRest.length), "command set",
                "command get"), s.events);
    }

    @Test
    void connectionsAreToldTextOrBinaryByTheirFirstBytes() {
        MemcacheCapture c = MemcacheCapture.INSTANCE;
        byte[] get = bytes("get k\r\n");
        assertEquals("memcache", c.recognize(get, 0, get.length));
        byte[] binary = bin(MemcacheBinaryOps.GETK, "k", new byte[0], "", 0, 0);
        assertEquals("memcache-binary", c.recognize(binary, 0, binary.length));
        byte[] redis = bytes("*2\r\n$3\r\nGET\r\n");
        assertNull(c.recognize(redis, 0, redis.length));
        byte[] http = bytes("GET / HTTP/1.1\r\n");
        assertNull(c.recognize(http, 0, http.length));
        assertEquals("memcache", c.replayProtocol(java.util.Set.of("memcache", "memcache-binary")));
        assertEquals("memcache-binary", c.replayProtocol(java.util.Set.of("memcache-binary")));
        byte[] meta = bytes("mg k v\r\n");
        assertEquals("memcache-meta", c.recognize(meta, 0, meta.length));
        assertEquals("memcache-meta", c.replayProtocol(java.util.Set.of("memcache-meta")));
        assertEquals("memcache", c.replayProtocol(java.util.Set.of("memcache", "memcache-meta")));
    }
}
