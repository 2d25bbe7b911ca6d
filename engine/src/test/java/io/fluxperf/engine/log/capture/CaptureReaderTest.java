package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.testkit.CaptureWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Captures written by a test read back as commands: every file format and link type alike; each
 * connection one client, in its order, each command at the capture time of its first packet,
 * with the original reply; segments out of order, duplicated or wrapping; and what a capture
 * cannot give whole (snap length, lost packets, a connection open before the capture, the
 * capture's end) counted and named, never read half.
 */
class CaptureReaderTest {
    private static final long T0 = 1_796_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** A command as read: its words, client, time, place and original reply. */
    record Read(String words, int client, long time, long packet, byte reply) {
    }

    record Result(List<Read> commands, ReaderContext ctx, List<String> notes) {
        Map<String, Long> skipped() {
            return ctx.stats.skipped();
        }

        List<String> bad() {
            return ctx.bad.first();
        }
    }

    static String resp(String... words) {
        StringBuilder b = new StringBuilder("*" + words.length + "\r\n");
        for (String w : words) {
            b.append('$').append(w.length()).append("\r\n").append(w).append("\r\n");
        }
        return b.toString();
    }

    static Result read(Path file, List<String> servers) {
        CaptureFormat.Prepared p = CaptureFormat.INSTANCE.prepare(file,
                servers.stream().map(s -> Endpoint.parse(s, "--capture-server")).toList(), null);
        ReaderContext ctx = RecordingSink.context(p.protocol(), null, false);
        List<Read> out = new ArrayList<>();
        try (LogReader r = p.open(ctx)) {
            LogEntry e = new LogEntry();
            while (r.next(e.reset())) {
                List<String> words = new ArrayList<>();
                for (int i = 0; i < e.argCount; i++) {
                    words.add(new String(e.args, e.argStart(i), e.argLength(i), StandardCharsets.ISO_8859_1));
                }
                out.add(new Read(String.join(" ", words), e.client, e.timeNanos, e.line, e.originalReply));
            }
        } catch (java.io.IOException ex) {
            throw new AssertionError(ex);
        }
        return new Result(out, ctx, p.notes());
    }

    /** Two clients of a redis on 10.0.0.5:6379 (or [fd00::5]:6379), pipelining a little. */
    static CaptureWriter twoClients(boolean ipv6) {
        String c1 = ipv6 ? "fd00::7" : "10.0.0.7";
        String c2 = ipv6 ? "fd00::8" : "10.0.0.8";
        String server = ipv6 ? "fd00::5" : "10.0.0.5";
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection(c1, 51234, server, 6379);
        CaptureWriter.Connection b = w.connection(c2, 40000, server, 6379);
        a.open(T0);
        b.open(T0 + MS);
        a.send(T0 + 2 * MS, resp("SET", "a", "x".repeat(3000))); // three segments
        b.send(T0 + 3 * MS, resp("GET", "a"));
        a.reply(T0 + 4 * MS, "+OK\r\n");
        b.reply(T0 + 5 * MS, "$-1\r\n");
        a.send(T0 + 6 * MS, resp("GET", "a") + resp("INCR", "n"));
        a.reply(T0 + 7 * MS, "$3000\r\n" + "x".repeat(3000) + "\r\n:1\r\n");
        b.send(T0 + 8 * MS, resp("DEL", "a"));
        b.reply(T0 + 9 * MS, ":1\r\n");
        a.close(T0 + 10 * MS);
        b.close(T0 + 11 * MS);
        return w;
    }

    static final List<Read> TWO_CLIENTS = List.of(
            new Read("SET a " + "x".repeat(3000), 0, T0 + 2 * MS, 7, LogEntry.REPLY_OK),
            new Read("GET a", 1, T0 + 3 * MS, 10, LogEntry.REPLY_MISS),
            new Read("GET a", 0, T0 + 6 * MS, 13, LogEntry.REPLY_OK),
            new Read("INCR n", 0, T0 + 6 * MS, 13, LogEntry.REPLY_OK),
            new Read("DEL a", 1, T0 + 8 * MS, 17, LogEntry.REPLY_OK));

    private static List<Read> byTime(List<Read> reads) {
        List<Read> sorted = new ArrayList<>(reads);
        sorted.sort(java.util.Comparator.comparingLong(Read::time));
        return sorted;
    }

    @Test
    void everyFileFormatAndLinkTypeReadsTheSame() {
        for (CaptureWriter.Format f : CaptureWriter.Format.values()) {
            for (CaptureWriter.Link l : CaptureWriter.Link.values()) {
                for (boolean v6 : new boolean[] {false, true}) {
                    if (v6 && l == CaptureWriter.Link.IPV4 || !v6 && l == CaptureWriter.Link.IPV6) {
                        continue;
                    }
                    Path file = dir.resolve(f + "-" + l + "-" + v6 + ".pcap");
                    twoClients(v6).format(f).link(l).ipv6ExtensionHeaders(v6 && l == CaptureWriter.Link.ETHERNET).writeTo(file);
                    Result r = read(file, List.of());
                    assertEquals(TWO_CLIENTS, byTime(r.commands()), f + " " + l + (v6 ? " IPv6" : ""));
                    assertEquals(List.of(), r.bad());
                }
            }
        }
    }

    @Test
    void segmentsOutOfOrderDuplicatedOrAroundTheWrapReadTheSame() {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379, 0xfffff000, 0xffffff00).mss(100);
        a.open(T0);
        a.send(T0 + MS, resp("SET", "k", "v".repeat(5000))); // 50 segments across the wrap of the sequence numbers
        a.reply(T0 + 90 * MS, "+OK\r\n");
        a.send(T0 + 91 * MS, resp("GET", "k"));
        a.reply(T0 + 92 * MS, "$1\r\nv\r\n"); // not what was set: only its class counts
        a.close(T0 + 93 * MS);
        List<CaptureWriter.Packet> p = w.packets();
        Collections.swap(p, 10, 12);           // captured out of order
        p.add(20, p.get(15).copy());           // a retransmission
        CaptureWriter.Packet both = p.get(30).copy(); // a retransmission that covers two segments
        byte[] joined = new byte[200];
        System.arraycopy(p.get(30).payload, 0, joined, 0, 100);
        System.arraycopy(p.get(31).payload, 0, joined, 100, 100);
        both.payload = joined;
        p.add(40, both);
        Path file = dir.resolve("messy.pcap");
        w.writeTo(file);
        Result r = read(file, List.of());
        assertEquals(List.of(new Read("SET k " + "v".repeat(5000), 0, T0 + MS, 4, LogEntry.REPLY_OK),
                new Read("GET k", 0, T0 + 91 * MS, 58, LogEntry.REPLY_OK)), r.commands());
    }

    @Test
    void commandsCutByTheSnapLengthAreCountedAndTheRestReplays() {
        CaptureWriter w = new CaptureWriter().snapLength(200);
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        a.open(T0);
        for (int i = 0; i < 10; i++) {
            a.send(T0 + (10 + 2 * i) * MS, resp("SET", "k" + i, "v".repeat(1000))); // the snap length cuts each
            a.reply(T0 + (11 + 2 * i) * MS, "+OK\r\n");
        }
        a.send(T0 + 40 * MS, resp("GET", "k1"));
        a.reply(T0 + 41 * MS, "$1000\r\n" + "v".repeat(1000) + "\r\n"); // cut too: a reply's length still frames it
        a.send(T0 + 42 * MS, resp("GET", "k2"));
        a.reply(T0 + 43 * MS, "$-1\r\n");
        Path file = dir.resolve("snap.pcap");
        w.writeTo(file);
        Result r = read(file, List.of());
        assertEquals(List.of(new Read("GET k1", 0, T0 + 40 * MS, 24, LogEntry.REPLY_OK),
                new Read("GET k2", 0, T0 + 42 * MS, 26, LogEntry.REPLY_MISS)), r.commands());
        assertEquals(Map.of("commands cut by the capture's 200-byte snap length (never sent half)", 10L), r.skipped());
        assertTrue(r.notes().contains("11 packets cut by the snap length"), r.notes().toString());
    }

    @Test
    void aLostPacketInsideAValueCutsOneCommandAndOneInTheFramingEndsTheConnectionNamed() {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        a.open(T0);
        a.send(T0 + MS, resp("SET", "big", "v".repeat(4000)));       // packets 4, 5, 6: 5 is lost
        a.serverAck(T0 + 2 * MS);
        a.reply(T0 + 3 * MS, "+OK\r\n");
        a.send(T0 + 4 * MS, resp("GET", "big"));
        a.reply(T0 + 5 * MS, "$4000\r\n" + "v".repeat(4000) + "\r\n");
        a.send(T0 + 2_112 * MS, resp("GET", "one").repeat(70).substring(0, 1406)); // lost, framing and all
        a.send(T0 + 2_113 * MS, resp("GET", "one").repeat(70).substring(1406) + resp("GET", "two")); // packet 11
        a.serverAck(T0 + 2_115 * MS);
        StringBuilder replies = new StringBuilder();
        for (int i = 0; i < 71; i++) {
            replies.append("$-1\r\n");
        }
        a.reply(T0 + 2_116 * MS, replies.toString());
        a.close(T0 + 3_000 * MS);
        List<CaptureWriter.Packet> p = w.packets();
        p.remove(4);  // the middle of the SET's value
        p.remove(11); // the first 1,406 bytes of 70 pipelined GETs
        Path file = dir.resolve("gaps.pcap");
        w.writeTo(file);
        Result r = read(file, List.of());
        assertEquals(List.of(new Read("GET big", 0, T0 + 4 * MS, 8, LogEntry.REPLY_OK)), r.commands());
        assertEquals(Map.of("commands cut by packets the capture lacks (never sent half)", 1L), r.skipped());
        assertEquals(List.of("test.pcap, packet 12: connection 10.0.0.7:51234: 1,406 bytes missing at 2.113 s,"
                + " 71 commands not replayed"), r.bad().stream().map(s -> s.replace(file.toString(), "test.pcap")).toList());
    }

    @Test
    void aConnectionOpenBeforeTheCaptureIsPickedUpAtItsFirstWholeCommand() {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        CaptureWriter.Connection b = w.connection("10.0.0.8", 40000, "10.0.0.5", 6379);
        a.open(T0 - 1000 * MS); // before the capture: its packets are taken out below
        a.send(T0 - 10 * MS, resp("SET", "early", "v".repeat(100)));
        b.open(T0);
        b.send(T0 + MS, resp("GET", "x"));
        b.reply(T0 + 2 * MS, "$-1\r\n");
        a.send(T0 + 3 * MS, resp("GET", "early"));
        a.reply(T0 + 4 * MS, "+OK\r\n$100\r\n" + "v".repeat(100) + "\r\n");
        List<CaptureWriter.Packet> p = w.packets();
        p.subList(0, 3).clear(); // the connection's SYN, SYN-ACK and ACK
        CaptureWriter.Packet set = p.get(0); // the capture begins 60 bytes into the SET
        set.payload = java.util.Arrays.copyOfRange(set.payload, 60, set.payload.length);
        set.seq += 60;
        set.timeNanos = T0;
        Path file = dir.resolve("open.pcap");
        w.writeTo(file);
        Result r = read(file, List.of());
        assertEquals(List.of(new Read("GET x", 1, T0 + MS, 5, LogEntry.REPLY_MISS),
                new Read("GET early", 0, T0 + 3 * MS, 7, LogEntry.REPLY_UNKNOWN)), byTime(r.commands()));
        int rest = resp("SET", "early", "v".repeat(100)).length() - 60;
        assertEquals(List.of("test.pcap, packet 7: connection 10.0.0.7:51234: open before the capture began; its first "
                + rest + " bytes (the rest of a command sent before) not replayed, picked up at 0.003 s"),
                r.bad().stream().map(s -> s.replace(file.toString(), "test.pcap")).toList());
        assertTrue(r.notes().contains("2 connections to 10.0.0.5:6379 (1 open before the capture began), each replayed as"
                + " one original client"), r.notes().toString());
    }

    @Test
    void aCommandTheCaptureEndsInsideIsCountedNotSent() {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        a.open(T0);
        a.send(T0 + MS, resp("GET", "a"));
        a.send(T0 + 2 * MS, resp("SET", "b", "v".repeat(3000)));
        w.packets().remove(w.packets().size() - 1); // the SET's last segment: the capture ended
        Path file = dir.resolve("end.pcap");
        w.writeTo(file);
        Result r = read(file, List.of());
        assertEquals(List.of(new Read("GET a", 0, T0 + MS, 4, LogEntry.REPLY_UNKNOWN)), r.commands());
        assertEquals(Map.of("commands the capture ends inside (never sent half)", 1L), r.skipped());
    }

    @Test
    void aResetEndsAConnectionAndTheSamePortOpenedAgainIsANewClient() {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        a.open(T0).send(T0 + MS, resp("GET", "a") + resp("SET", "b", "v".repeat(3000)));
        w.packets().remove(w.packets().size() - 1); // the SET's last segment, which the server acknowledges below
        a.reply(T0 + 2 * MS, "$-1\r\n").reset(T0 + 3 * MS);
        a.send(T0 + 4 * MS, resp("GET", "late")); // after the reset: not a command of this connection
        CaptureWriter.Connection again = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379, 5, 9);
        again.open(T0 + 5 * MS).send(T0 + 6 * MS, resp("GET", "c")).reply(T0 + 7 * MS, "$1\r\nc\r\n").close(T0 + 8 * MS);
        Path file = dir.resolve("reset.pcap");
        w.writeTo(file);
        Result r = read(file, List.of());
        assertEquals(List.of("GET a", "GET c"), r.commands().stream().map(Read::words).toList());
        assertEquals(List.of(0, 1), r.commands().stream().map(Read::client).toList());
        assertEquals(List.of(LogEntry.REPLY_MISS, LogEntry.REPLY_OK), r.commands().stream().map(Read::reply).toList());
        assertEquals(Map.of("commands cut by packets the capture lacks (never sent half)", 1L), r.skipped());
    }

    @Test
    void severalServersNeedToBeNamedAndAReusedPortIsANewClient() {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        CaptureWriter.Connection b = w.connection("10.0.0.7", 51235, "10.0.0.6", 6379);
        a.open(T0).send(T0 + MS, resp("GET", "a")).reply(T0 + 2 * MS, "$-1\r\n").close(T0 + 3 * MS);
        b.open(T0).send(T0 + MS, resp("GET", "b") + resp("GET", "c")).reply(T0 + 2 * MS, "$-1\r\n$-1\r\n");
        CaptureWriter.Connection again = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379, 777, 888);
        again.open(T0 + 5 * MS).send(T0 + 6 * MS, resp("GET", "d")).reply(T0 + 7 * MS, "$1\r\nd\r\n");
        // and once more on the same ports, though the capture never saw the one before end
        CaptureWriter.Connection third = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379, 99_999, 7);
        third.open(T0 + 8 * MS).send(T0 + 9 * MS, resp("GET", "e")).reply(T0 + 10 * MS, "$-1\r\n");
        Path file = dir.resolve("two.pcap");
        w.writeTo(file);
        UserError e = assertThrows(UserError.class, () -> read(file, List.of()));
        assertEquals(file + ": the capture holds requests to 2 servers: 10.0.0.5:6379 (3 commands), 10.0.0.6:6379"
                + " (2 commands); pick one with --capture-server HOST:PORT (repeatable)", e.getMessage());
        Result r = read(file, List.of("10.0.0.5:6379"));
        assertEquals(List.of(new Read("GET a", 0, T0 + MS, 4, LogEntry.REPLY_MISS),
                new Read("GET d", 1, T0 + 6 * MS, 17, LogEntry.REPLY_OK),
                new Read("GET e", 2, T0 + 9 * MS, 22, LogEntry.REPLY_MISS)), r.commands());
        assertEquals(5, read(file, List.of("10.0.0.5:6379", "10.0.0.6:6379")).commands().size());
        UserError none = assertThrows(UserError.class, () -> read(file, List.of("10.0.0.9:6379")));
        assertEquals("--capture-server 10.0.0.9:6379: " + file + " holds no request to it; its servers are"
                + " 10.0.0.5:6379 (3 connections), 10.0.0.6:6379 (1 connection)", none.getMessage());
    }
}
