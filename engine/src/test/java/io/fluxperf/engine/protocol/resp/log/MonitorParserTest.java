package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MONITOR line parser, byte for byte, on its own. */
class MonitorParserTest {

    /** redis' sdscatrepr, as MONITOR quotes each word. */
    static String repr(byte[] word) {
        StringBuilder b = new StringBuilder("\"");
        for (byte x : word) {
            int c = x & 0xFF;
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case 7 -> b.append("\\a");
                case 8 -> b.append("\\b");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        b.append((char) c);
                    } else {
                        b.append(String.format("\\x%02x", c));
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    record Parsed(String error, LogEntry entry, String client) {
        List<byte[]> words() {
            List<byte[]> out = new ArrayList<>();
            for (int i = 0; i < entry.argCount; i++) {
                byte[] w = new byte[entry.argLength(i)];
                System.arraycopy(entry.args, entry.argStart(i), w, 0, w.length);
                out.add(w);
            }
            return out;
        }
    }

    static Parsed parse(String line) {
        byte[] b = line.getBytes(StandardCharsets.ISO_8859_1);
        LogEntry e = new LogEntry();
        int[] client = new int[2];
        String error = RedisMonitorReader.parse(b, 0, b.length, e, client);
        String c = error == null ? new String(b, client[0], client[1] - client[0], StandardCharsets.ISO_8859_1) : null;
        return new Parsed(error, e, c);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void plainCommand() {
        Parsed p = parse("1700000000.123456 [0 127.0.0.1:50000] \"SET\" \"k\" \"v\"");
        assertNull(p.error());
        assertEquals(1_700_000_000_123_456_000L, p.entry().timeNanos);
        assertEquals("127.0.0.1:50000", p.client());
        assertEquals(3, p.entry().argCount);
        assertArrayEquals(bytes("SET"), p.words().get(0));
        assertArrayEquals(bytes("k"), p.words().get(1));
        assertArrayEquals(bytes("v"), p.words().get(2));
    }

    @Test
    void everyEscapeUnescapedExactly() {
        Parsed p = parse("1.000001 [3 10.0.0.1:1] \"SET\" \"a\\\"b\\\\c\\nd\\re\\tf\\ag\\bh\\x00\\xff\\xC3\\xa9 z\"");
        assertNull(p.error());
        byte[] expected = {'a', '"', 'b', '\\', 'c', '\n', 'd', '\r', 'e', '\t', 'f', 7, 'g', 8, 'h', 0, (byte) 0xff,
                (byte) 0xc3, (byte) 0xa9, ' ', 'z'};
        assertArrayEquals(expected, p.words().get(1));
    }

    @Test
    void luaAndUnixSocketAndIpv6Clients() {
        assertEquals("lua", parse("1.5 [0 lua] \"SET\" \"k\" \"v\"").client());
        assertEquals("unix:/var/run/redis.sock", parse("1.5 [0 unix:/var/run/redis.sock] \"GET\" \"k\"").client());
        assertEquals("[::1]:6379", parse("1.5 [12 [::1]:6379] \"GET\" \"k]\"").client());
        assertArrayEquals(bytes("k]"), parse("1.5 [12 [::1]:6379] \"GET\" \"k]\"").words().get(1));
    }

    @Test
    void emptyWordsAndSpacesInsideQuotes() {
        Parsed p = parse("2.000000 [0 1.2.3.4:5] \"SET\" \"\" \"a b  c\"");
        assertNull(p.error());
        assertEquals(0, p.words().get(1).length);
        assertArrayEquals(bytes("a b  c"), p.words().get(2));
    }

    @Test
    void randomWordsRoundTripByteForByte() {
        SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 2000; round++) {
            int n = 1 + random.nextInt(5);
            List<byte[]> words = new ArrayList<>();
            StringBuilder line = new StringBuilder("1700000000.000001 [0 127.0.0.1:6000]");
            for (int i = 0; i < n; i++) {
                byte[] w = new byte[i == 0 ? 1 + random.nextInt(8) : random.nextInt(40)];
                for (int k = 0; k < w.length; k++) {
                    w[k] = (byte) random.nextInt(256);
                }
                words.add(w);
                line.append(' ').append(repr(w));
            }
            Parsed p = parse(line.toString());
            assertNull(p.error(), line.toString());
            assertEquals(n, p.words().size());
            for (int i = 0; i < n; i++) {
                assertArrayEquals(words.get(i), p.words().get(i), line.toString());
            }
        }
    }

    @Test
    void badLinesSayWhatIsWrong() {
        assertTrue(parse("1700000000.123456 [0 127.0.0.1:50000] \"SET\" \"k").error().startsWith("truncated line"));
        assertTrue(parse("1700000000.123456 [0 127.0.0.1:50000").error().startsWith("truncated line"));
        assertTrue(parse("1700000000.123456 [0 127.0.0.1:50000]").error().startsWith("truncated line"));
        assertTrue(parse("1700000000.123456 [0 127.0.0.1:50000] \"SET\" \"k\\").error().startsWith("truncated line"));
        assertTrue(parse("1700000000").error().startsWith("not a MONITOR line"));
        assertTrue(parse("hello world").error().startsWith("not a MONITOR line"));
        assertNotNull(parse("1.5 [0 lua] SET k").error());
        assertNotNull(parse("1.5 [0 lua] \"SET\"\"k\"").error());
    }

    @Test
    void keyPrefixGoesOnKeysOnly() {
        Parsed p = parse("1.5 [0 a:1] \"MSET\" \"k1\" \"v1\" \"k2\" \"v2\"");
        new RedisMonitorReader.Prefixer(bytes("r:")).apply(RedisKeys.rule("mset"), p.entry());
        assertEquals(List.of("MSET", "r:k1", "v1", "r:k2", "v2"), text(p.words()));
        p = parse("1.5 [0 a:1] \"EVAL\" \"return 1\" \"2\" \"a\" \"b\" \"arg\"");
        new RedisMonitorReader.Prefixer(bytes("r:")).apply(RedisKeys.rule("eval"), p.entry());
        assertEquals(List.of("EVAL", "return 1", "2", "r:a", "r:b", "arg"), text(p.words()));
        p = parse("1.5 [0 a:1] \"CLIENT\" \"SETNAME\" \"x\"");
        new RedisMonitorReader.Prefixer(bytes("r:")).apply(RedisKeys.rule("client"), p.entry());
        assertEquals(List.of("CLIENT", "SETNAME", "x"), text(p.words()));
        p = parse("1.5 [0 a:1] \"HSET\" \"h\" \"f\" \"v\"");
        new RedisMonitorReader.Prefixer(bytes("r:")).apply(RedisKeys.rule("hset"), p.entry());
        assertEquals(List.of("HSET", "r:h", "f", "v"), text(p.words()));
    }

    private static List<String> text(List<byte[]> words) {
        return words.stream().map(w -> new String(w, StandardCharsets.ISO_8859_1)).toList();
    }

    @Test
    void reprOfAllBytesParsesBack() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < 256; i++) {
            all.write(i);
        }
        byte[] w = all.toByteArray();
        Parsed p = parse("3.000000 [0 x:1] \"SET\" \"k\" " + repr(w));
        assertNull(p.error());
        assertArrayEquals(w, p.words().get(2));
    }
}
