package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.capture.RecordingSink;
import io.fluxperf.engine.request.Command;
import java.util.List;
import org.junit.jupiter.api.Test;
import static io.fluxperf.engine.log.capture.RecordingSink.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The redis reader of captured connections: RESP arrays and inline commands, pipelined, into the
 * entries the MONITOR reader would make; RESP2 and RESP3 replies into outcomes; every stream split
 * at every byte reads the same; gaps inside a bulk string cut one command, elsewhere they lose the
 * stream; a connection picked up mid-stream starts at its first whole array.
 */
class RespConnectionReaderTest {
    private static final String VALUE = "two\r\nlines \u00ff\u0000 and \"quotes\"";
    private static final String REQUESTS = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$" + VALUE.length() + "\r\n" + VALUE + "\r\n"
            + "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"
            + "*4\r\n$4\r\nMGET\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n"
            + "*0\r\n" // redis reads nothing and answers nothing
            + "*3\r\n$6\r\nINCRBY\r\n$1\r\nn\r\n$1\r\n1\r\n"
            + "\r\n" // an empty inline command
            + "PING\r\n"
            + "set \"a b\\x41\" 'c \\'d'\r\n"
            + "*3\r\n$3\r\nDEL\r\n$1\r\nx\r\n$1\r\ny\r\n"
            + "*3\r\n$3\r\nSET\r\n$1\r\ne\r\n$0\r\n\r\n";
    private static final String REPLIES = "+OK\r\n"
            + "$" + VALUE.length() + "\r\n" + VALUE + "\r\n"
            + "*3\r\n$1\r\na\r\n$-1\r\n_\r\n"
            + ":1\r\n"
            + "+PONG\r\n"
            + "+OK\r\n"
            + ":0\r\n"
            + "+OK\r\n";

    private static RecordingSink read(String requests, String replies, int requestCut, int replyCut) {
        RecordingSink sink = new RecordingSink("redis", null, false);
        sink.quietAbandon = true;
        RespConnectionReader r = new RespConnectionReader(sink.ctx);
        r.reset(true);
        RecordingSink.requests(r, bytes(requests), sink, requestCut);
        RecordingSink.replies(r, bytes(replies), sink, replyCut);
        return sink;
    }

    private static void assertTheStream(RecordingSink s, String where) {
        List<RecordingSink.Command> c = s.commands;
        assertEquals(List.of("set", "get", "mget", "incrby", "ping", "set", "del", "set"),
                c.stream().map(RecordingSink.Command::verb).toList(), where);
        assertEquals(List.of("SET", "k", VALUE), c.get(0).args(), where);
        assertEquals(List.of("k"), c.get(0).keys(), where);
        assertEquals(Command.SET, c.get(0).command(), where);
        assertEquals(List.of("a", "b", "c"), c.get(2).keys(), where);
        assertEquals(Command.COMMAND, c.get(3).command(), where); // INCRBY: sent as its words
        assertEquals(List.of("set", "a bA", "c 'd"), c.get(5).args(), where);
        assertEquals(List.of("x", "y"), c.get(6).keys(), where);
        assertEquals(List.of("SET", "e", ""), c.get(7).args(), where);
        byte[] expected = {LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_OK,
            LogEntry.REPLY_OK, LogEntry.REPLY_MISS, LogEntry.REPLY_OK};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], s.reply(i), where + ": reply of command " + i);
        }
        assertEquals(List.of(), s.others(), where);
    }

    @Test
    void pipelinedCommandsAndRepliesReadTheSameSplitAtEveryByte() {
        for (int cut = 0; cut <= REQUESTS.length(); cut++) {
            assertTheStream(read(REQUESTS, REPLIES, cut, cut % REPLIES.length()), "requests split at " + cut);
        }
        for (int cut = 0; cut <= REPLIES.length(); cut++) {
            assertTheStream(read(REQUESTS, REPLIES, 0, cut), "replies split at " + cut);
        }
    }

    @Test
    void oneByteSegmentsReadTheSame() {
        RecordingSink sink = new RecordingSink("redis", null, false);
        sink.quietAbandon = true;
        RespConnectionReader r = new RespConnectionReader(sink.ctx);
        r.reset(true);
        byte[] req = bytes(REQUESTS);
        for (int i = 0; i < req.length; i++) {
            r.request(req, i, i + 1, sink);
        }
        byte[] rep = bytes(REPLIES);
        for (int i = 0; i < rep.length; i++) {
            r.reply(rep, i, i + 1, sink);
        }
        assertTheStream(sink, "one byte per segment");
    }

    @Test
    void resp3RepliesAttributesAndPushesAreToldApart() {
        String requests = "*2\r\n$3\r\nGET\r\n$1\r\na\r\n".repeat(9);
        String replies = "_\r\n" // RESP3 nil: a miss
                + "|1\r\n+key-popularity\r\n*2\r\n$1\r\na\r\n,0.19\r\n$5\r\nhello\r\n" // an attribute, then the value
                + ">3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\nm\r\n" // a push: no reply of any command
                + "%2\r\n+a\r\n:1\r\n+b\r\n:2\r\n"
                + "~0\r\n" // an empty set: a read's miss
                + "!21\r\nSYNTAX invalid syntax\r\n"
                + "=15\r\ntxt:Some string\r\n"
                + "#t\r\n"
                + "(3492890328409238509324850943850943825024385\r\n";
        byte[] expected = {LogEntry.REPLY_MISS, LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_MISS,
            LogEntry.REPLY_ERROR, LogEntry.REPLY_OK, LogEntry.REPLY_OK, LogEntry.REPLY_OK};
        for (int cut = 0; cut <= replies.length(); cut++) {
            RecordingSink s = read(requests, replies, 0, cut);
            for (int i = 0; i < expected.length; i++) {
                assertEquals(expected[i], s.reply(i), "reply " + i + ", split at " + cut);
            }
            assertNull(s.reply(8), "nine commands, eight replies: the push is none");
            assertTrue(!s.repliesLost, "split at " + cut);
        }
    }

    @Test
    void aGapInsideABulkStringCutsOneCommandAndTheStreamGoesOn() {
        String value = "v".repeat(1000);
        byte[] req = bytes("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1000\r\n" + value + "\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
        int valueStart = req.length - 2 - 1000 - "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n".length();
        RecordingSink s = new RecordingSink("redis", null, false);
        RespConnectionReader r = new RespConnectionReader(s.ctx);
        r.reset(true);
        r.request(req, 0, valueStart + 100, s);
        r.requestGap(902, s); // to the value's end and its CRLF exactly
        r.request(req, valueStart + 1002, req.length, s);
        assertEquals(List.of("cut", "command get"), s.events);
        byte[] rep = bytes("+OK\r\n$-1\r\n");
        r.reply(rep, 0, rep.length, s);
        assertEquals(LogEntry.REPLY_MISS, s.reply(0));
    }

    @Test
    void aGapInTheFramingLosesTheStreamAndTheRepliesCountWhatWasNotRead() {
        byte[] req = bytes("*2\r\n$3\r\nGET\r\n$1\r\na\r\n");
        RecordingSink s = new RecordingSink("redis", null, false);
        RespConnectionReader r = new RespConnectionReader(s.ctx);
        r.reset(true);
        r.request(req, 0, req.length, s);
        r.requestGap(40, s); // a whole command or more, framing and all
        r.request(req, 0, req.length, s); // not read any more
        assertEquals(List.of("command get", "lost gap"), s.events);
        byte[] rep = bytes("$1\r\nx\r\n:1\r\n+OK\r\n");
        r.reply(rep, 0, rep.length, s);
        assertEquals(LogEntry.REPLY_OK, s.reply(0));
        assertEquals(2, s.unreadAnswered, "two replies to commands the reader could not read");
        // a gap inside a reply's bulk string is skipped exactly
        RecordingSink t = new RecordingSink("redis", null, false);
        RespConnectionReader q = new RespConnectionReader(t.ctx);
        q.reset(true);
        q.request(req, 0, req.length, t);
        q.request(req, 0, req.length, t);
        byte[] big = bytes("$10\r\n0123456789\r\n:0\r\n");
        q.reply(big, 0, 8, t);
        q.replyGap(6, t);
        q.reply(big, 14, big.length, t);
        assertEquals(LogEntry.REPLY_OK, t.reply(0));
        assertEquals(LogEntry.REPLY_OK, t.reply(1), "a GET's integer reply is no miss");
        assertTrue(!t.repliesLost);
    }

    @Test
    void aConnectionPickedUpMidStreamStartsAtItsFirstWholeArray() {
        RecordingSink s = new RecordingSink("redis", null, false);
        RespConnectionReader r = new RespConnectionReader(s.ctx);
        r.reset(false);
        byte[] tail = bytes("xxxxx\r\n"); // the end of a value sent before the capture began
        byte[] fake = bytes("*1\r\n$4\r\nPI"); // looks like an array, but is the start of a value that goes on …
        byte[] fakeRest = bytes("NGxx\r\n"); // … and is not one
        byte[] whole = bytes("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*1\r\n$4\r\nPING\r\n");
        r.request(tail, 0, tail.length, s);
        r.request(fake, 0, fake.length, s);
        r.request(fakeRest, 0, fakeRest.length, s);
        r.request(whole, 0, whole.length, s);
        assertEquals(List.of("abandon", "picked up after " + (tail.length + fake.length + fakeRest.length), "command get",
                "command ping"), s.events);
    }

    @Test
    void keysArePrefixedAndConnectionSetupIsSkipped() {
        RecordingSink s = new RecordingSink("redis", "r:", false);
        RespConnectionReader r = new RespConnectionReader(s.ctx);
        r.reset(true);
        byte[] req = bytes("*2\r\n$4\r\nAUTH\r\n$2\r\npw\r\n*3\r\n$4\r\nMSET\r\n$1\r\na\r\n$1\r\n1\r\n"
                + "*1\r\n$8\r\nFLUSHALL\r\n*2\r\n$9\r\nSUBSCRIBE\r\n$2\r\nch\r\n");
        r.request(req, 0, req.length, s);
        assertEquals(List.of("MSET", "r:a", "1"), s.commands.get(0).args());
        assertEquals(List.of("r:a"), s.commands.get(0).keys());
        assertEquals(List.of("skip AUTH/HELLO (a connection's setup: give --password, --user or --resp)", "command mset",
                "skip flush (replayed only with --allow-flush)", "skip changes the connection or the server (subscribe)",
                "replies lost"), s.events);
    }

    @Test
    void bytesThatAreNoRedisCommandLoseTheStream() {
        RecordingSink s = new RecordingSink("redis", null, false);
        RespConnectionReader r = new RespConnectionReader(s.ctx);
        r.reset(true);
        byte[] req = bytes("*2\r\n$3\r\nGET\r\n#1\r\nk\r\n");
        r.request(req, 0, req.length, s);
        assertEquals(List.of("lost bytes that are no redis command ('#1\\x0d\\x0ak\\x0d\\x0a')"), s.events);
    }
}
