package io.fluxperf.engine.protocol.resp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Every RESP2 and RESP3 reply type, nested aggregates, attributes and pushes: decoded whole, split
 * at every byte, fed byte by byte and followed by another frame, always giving the same values
 * and leaving the reader index just after the frame (lettuce's way of testing its state machine).
 */
class RespReplyDecoderTest {

    /** Each frame and the values a sink sees, written as {@link Recorder} writes them. */
    static Stream<Arguments> frames() {
        return Stream.of(
                frame("+OK\r\n", "+OK"),
                frame("-ERR unknown command 'FOO'\r\n", "-ERR unknown command 'FOO'"),
                frame(":0\r\n", ":0"),
                frame(":-9223372036854775808\r\n", ":-9223372036854775808"),
                frame("$3\r\nfoo\r\n", "$foo"),
                frame("$0\r\n\r\n", "$"),
                frame("$6\r\na\r\nb\nc\r\n", "$a\r\nb\nc"),
                frame("$-1\r\n", "nil$"),
                frame("*-1\r\n", "nil*"),
                frame("*0\r\n", "*0[]"),
                frame("*3\r\n$1\r\na\r\n$-1\r\n:5\r\n", "*3[$a nil$ :5]"),
                frame("_\r\n", "_"),
                frame("#t\r\n", "#t"),
                frame("#f\r\n", "#f"),
                frame(",3.14\r\n", ",3.14"),
                frame(",-inf\r\n", ",-inf"),
                frame(",1.5e-10\r\n", ",1.5e-10"),
                frame("(3492890328409238509324850943850943825024385\r\n", "(3492890328409238509324850943850943825024385"),
                frame("=15\r\ntxt:Some string\r\n", "=txt:Some string"),
                frame("!21\r\nSYNTAX invalid syntax\r\n", "!SYNTAX invalid syntax"),
                frame("~2\r\n+a\r\n:1\r\n", "~2[+a :1]"),
                frame("~0\r\n", "~0[]"),
                frame("%2\r\n+first\r\n:1\r\n+second\r\n_\r\n", "%2[+first :1 +second _]"),
                frame("%0\r\n", "%0[]"),
                // an attribute before the reply it annotates is part of the frame
                frame("|1\r\n+key-popularity\r\n%2\r\n$1\r\na\r\n,0.1923\r\n$1\r\nb\r\n,0.0012\r\n*2\r\n:2039123\r\n:9543892\r\n",
                        "|1[+key-popularity %2[$a ,0.1923 $b ,0.0012]] *2[:2039123 :9543892]"),
                // an attribute inside an aggregate does not count as one of its elements
                frame("*2\r\n|1\r\n+ttl\r\n:3600\r\n$1\r\nv\r\n:7\r\n", "*2[|1[+ttl :3600] $v :7]"),
                // a push before the reply: out of band, so the frame goes on to the reply
                frame(">3\r\n+message\r\n+news\r\n$5\r\nhello\r\n+OK\r\n", ">3[+message +news $hello] +OK"),
                frame(">0\r\n:1\r\n", ">0[] :1"),
                // a push nested in an aggregate is just an element
                frame("*1\r\n>1\r\n:1\r\n", "*1[>1[:1]]"),
                // deep nesting of every aggregate type
                frame("*2\r\n%1\r\n+k\r\n~2\r\n:1\r\n_\r\n*1\r\n*1\r\n*1\r\n*0\r\n",
                        "*2[%1[+k ~2[:1 _]] *1[*1[*1[*0[]]]]]"),
                frame("%1\r\n=8\r\nmkd:*hi*\r\n*2\r\n!3\r\nERR\r\n#f\r\n", "%1[=mkd:*hi* *2[!ERR #f]]"));
    }

    private static Arguments frame(String wire, String expected) {
        return Arguments.of(wire.replace("\r", "\\r").replace("\n", "\\n"), wire, expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void decodesWhole(String name, String wire, String expected) throws Exception {
        ByteBuf in = buf(wire);
        Recorder r = new Recorder();
        assertTrue(new RespReplyDecoder().decode(in, r));
        assertEquals(expected, r.text());
        assertEquals(wire.length(), in.readerIndex());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void decodesWhenSplitAtEveryByte(String name, String wire, String expected) throws Exception {
        byte[] bytes = wire.getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 1; split < bytes.length; split++) {
            RespReplyDecoder d = new RespReplyDecoder();
            Recorder r = new Recorder();
            ByteBuf in = Unpooled.buffer();
            in.writeBytes(bytes, 0, split);
            assertFalse(d.decode(in, r), "complete after " + split + " bytes");
            assertEquals(0, in.readerIndex(), "nothing consumed of a partial frame");
            // the cumulation may be compacted between reads: positions must be relative
            ByteBuf moved = Unpooled.buffer();
            moved.writeBytes(new byte[] {'x', 'y', 'z'});
            moved.readerIndex(3);
            moved.writeBytes(in);
            moved.writeBytes(bytes, split, bytes.length - split);
            assertTrue(d.decode(moved, r), "incomplete when split at " + split);
            assertEquals(expected, r.text(), "split at " + split);
            assertEquals(3 + bytes.length, moved.readerIndex());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("frames")
    void decodesByteByByteAndStopsAtTheNextFrame(String name, String wire, String expected) throws Exception {
        byte[] bytes = (wire + "+NEXT\r\n").getBytes(StandardCharsets.ISO_8859_1);
        RespReplyDecoder d = new RespReplyDecoder();
        Recorder r = new Recorder();
        ByteBuf in = Unpooled.buffer();
        int fed = 0;
        boolean done = false;
        while (!done) {
            in.writeByte(bytes[fed++]);
            done = d.decode(in, r);
        }
        assertEquals(wire.length(), fed, "complete exactly at its last byte");
        assertEquals(expected, r.text());
        assertEquals(wire.length(), in.readerIndex());
        in.writeBytes(bytes, fed, bytes.length - fed);
        Recorder next = new Recorder();
        assertTrue(d.decode(in, next));
        assertEquals("+NEXT", next.text());
    }

    @Test
    void largeBulkIsWaitedForByItsLength() throws Exception {
        int size = 1 << 20;
        ByteBuf in = Unpooled.buffer();
        in.writeBytes(("$" + size + "\r\n").getBytes(StandardCharsets.US_ASCII));
        RespReplyDecoder d = new RespReplyDecoder();
        Recorder r = new Recorder();
        for (int i = 0; i < size; i += 4096) {
            in.writeBytes(new byte[4096]);
            assertFalse(d.decode(in, r));
        }
        in.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        assertTrue(d.decode(in, r));
        assertEquals(1 + Integer.toString(size).length() + 2 + size + 2, in.readerIndex());
    }

    @Test
    void rejectsWhatIsNotResp() {
        for (String bad : List.of("?\r\n", "OK\r\n", "+OK\n", ":12a\r\n", ":99999999999999999999\r\n", "$-2\r\n",
                "$abc\r\n", "$3\r\nfooX\r\n", "*-2\r\n", "#x\r\n", "_x\r\n", ",1.2.3z\r\n", "=2\r\nab\r\n",
                "$?\r\n", "*?\r\n", "(12x\r\n", "!-1\r\n", "%-1\r\n")) {
            assertThrows(ProtocolException.class, () -> new RespReplyDecoder().decode(buf(bad), new Recorder()),
                    () -> "accepted " + bad.replace("\r", "\\r").replace("\n", "\\n"));
        }
    }

    @Test
    void badTypeByteFailsAtOnceNotAfterALine() {
        ByteBuf in = buf("G");
        assertThrows(ProtocolException.class, () -> new RespReplyDecoder().decode(in, new Recorder()));
    }

    @Test
    void overlongLineAndDeepNestingAreProtocolErrors() {
        ByteBuf line = buf("+" + "x".repeat(RespReplyDecoder.MAX_LINE + 10));
        assertThrows(ProtocolException.class, () -> new RespReplyDecoder().decode(line, new Recorder()));
        ByteBuf deep = buf("*1\r\n".repeat(RespReplyDecoder.MAX_DEPTH + 1));
        assertThrows(ProtocolException.class, () -> new RespReplyDecoder().decode(deep, new Recorder()));
    }

    static ByteBuf buf(String s) {
        return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** Writes the events as text: scalars as type+content, aggregates as type+count[…], nils as "nil"+type. */
    static final class Recorder implements RespSink {
        private final StringBuilder b = new StringBuilder();
        private boolean first = true;

        String text() {
            return b.toString();
        }

        private void sep() {
            if (!first) {
                b.append(' ');
            }
            first = false;
        }

        @Override
        public void scalar(byte type, ByteBuf in, int start, int end) {
            sep();
            b.append((char) type).append(in.toString(start, end - start, StandardCharsets.ISO_8859_1));
        }

        @Override
        public void nil(byte type) {
            sep();
            b.append("nil").append((char) type);
        }

        @Override
        public void aggregateStart(byte type, long count) {
            sep();
            b.append((char) type).append(count).append('[');
            first = true;
        }

        @Override
        public void aggregateEnd(byte type) {
            b.append(']');
            first = false;
        }
    }
}
