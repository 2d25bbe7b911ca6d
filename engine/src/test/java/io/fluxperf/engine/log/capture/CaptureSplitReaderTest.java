package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.testkit.CaptureWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A capture read by several threads ({@link CaptureSplitReader}) gives exactly what one reader gives:
 * the commands, their order, clients, places and original replies, the counters and bad lines, and
 * the verbs in the order they were first read. The captures are made to hold what makes the order
 * hard: many connections at once, replies that never come (released by the sweeps, several
 * connections in one sweep), connections that end (changing the order of the live ones), that reuse
 * a port, that were open before the capture began, lost and cut packets, and connections still
 * waiting at the capture's end.
 */
class CaptureSplitReaderTest {
    private static final long T0 = 1_796_000_000_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void respMemcacheAndHttpCapturesReadOnTwoAndThreeThreadsAsOnOne() {
        for (String proto : List.of("resp", "memcache", "http")) {
            Path file = dir.resolve(proto + ".pcap");
            int port = proto.equals("resp") ? 6379 : proto.equals("memcache") ? 11211 : 80;
            generate(proto, port, 48).writeTo(file);
            CaptureFormat.Prepared p = CaptureFormat.INSTANCE.prepare(file,
                    List.of(Endpoint.parse("10.0.0.5:" + port, "--capture-server")), null);
            Read one = read(p, 1);
            assertTrue(one.commands.size() > 2_000, proto + ": " + one.commands.size());
            assertTrue(one.clients > 40, proto + ": " + one.clients);
            assertTrue(one.unknownReplies > 100, proto + ": commands released by a sweep or the end, " + one.unknownReplies);
            assertTrue(one.skipped.keySet().stream().anyMatch(k -> k.contains("snap length")), proto + ": " + one.skipped);
            assertTrue(one.badCount > 0, proto + ": no bad lines");
            for (int threads : new int[] {2, 3}) {
                Read split = read(p, threads);
                assertEquals(one.commands.size(), split.commands.size(), proto + " on " + threads + " threads: commands");
                for (int i = 0; i < one.commands.size(); i++) {
                    assertEquals(one.commands.get(i), split.commands.get(i), proto + " on " + threads + " threads: command " + i);
                }
                assertEquals(one.summary(), split.summary(), proto + " on " + threads + " threads");
            }
        }
    }

    @Test
    void underStrictTheSplitReadStopsAtTheSameBadLineAfterTheSameCommands() {
        Path file = dir.resolve("strict.pcap");
        generate("resp", 6379, 7).writeTo(file);
        CaptureFormat.Prepared p = CaptureFormat.INSTANCE.prepare(file,
                List.of(Endpoint.parse("10.0.0.5:6379", "--capture-server")), null);
        String one = strict(p, 1);
        assertTrue(one.contains("--strict stops at the first bad line"), one);
        assertEquals(one, strict(p, 2));
        assertEquals(one, strict(p, 3));
    }

    @Test
    void aCaptureThatBreaksOffStopsAfterTheSameCommandsWithTheSameError() throws Exception {
        Path file = dir.resolve("breaks.pcap");
        generate("memcache", 11211, 9).writeTo(file);
        CaptureFormat.Prepared p = CaptureFormat.INSTANCE.prepare(file,
                List.of(Endpoint.parse("10.0.0.5:11211", "--capture-server")), null);
        byte[] b = java.nio.file.Files.readAllBytes(file);
        java.nio.file.Files.write(file, java.util.Arrays.copyOf(b, b.length * 2 / 3 + 7)); // cut inside a packet after the scan
        String one = outcome(p, 1, false);
        assertTrue(one.contains("cut short"), one);
        assertEquals(one, outcome(p, 2, false));
    }

    /** The commands given before a read stopped (strict: at the first bad line), and its message. */
    private static String strict(CaptureFormat.Prepared p, int threads) {
        return outcome(p, threads, true);
    }

    private static String outcome(CaptureFormat.Prepared p, int threads, boolean strict) {
        ReaderContext ctx = new ReaderContext("test.pcap", new io.fluxperf.engine.log.BadLines(strict),
                new io.fluxperf.engine.log.VerbTable(), new io.fluxperf.engine.log.LogStats(), null, false, p.protocol(),
                c -> true);
        long n = 0;
        try (LogReader r = threads == 1 ? p.open(ctx) : p.open(ctx, threads)) {
            LogEntry e = new LogEntry();
            while (r.next(e.reset())) {
                n++;
            }
        } catch (io.fluxperf.engine.UserError | java.io.IOException ex) {
            return n + " commands, then " + ex.getMessage();
        }
        return n + " commands, no error; bad " + ctx.bad.count() + ", skipped " + ctx.stats.skipped();
    }

    /** What a reader gave: each command as a line of text, and what was counted. */
    record Read(List<String> commands, int clients, long unknownReplies, java.util.Map<String, Long> skipped, long badCount, String summary) {
    }

    private static Read read(CaptureFormat.Prepared p, int threads) {
        ReaderContext ctx = RecordingSink.context(p.protocol(), null, false);
        List<String> out = new ArrayList<>();
        int clients = 0;
        long unknown = 0;
        long lines;
        try (LogReader r = threads == 1 ? p.open(ctx) : p.open(ctx, threads)) {
            assertEquals(threads == 1 ? CaptureReader.class : CaptureSplitReader.class, r.getClass());
            LogEntry e = new LogEntry();
            HexFormat hex = HexFormat.of();
            while (r.next(e.reset())) {
                clients = Math.max(clients, e.client + 1);
                if (e.originalReply == LogEntry.REPLY_UNKNOWN) {
                    unknown++;
                }
                out.add(e.client + " " + ctx.verbs.name(e.verb) + " " + e.command + " t=" + e.timeNanos + " key=" + e.sortKey
                        + " packet=" + e.line + " at=" + e.position + " reply=" + e.originalReply
                        + " keys=" + hex.formatHex(e.keys, 0, e.keyStart(e.keyCount)) + "/" + e.keyCount
                        + " args=" + hex.formatHex(e.args, 0, e.argStart(e.argCount)) + "/" + e.argCount + "/" + e.valueArg
                        + " value=" + (e.valueLogged ? hex.formatHex(e.value, 0, e.valueLength) : "-") + "/" + e.synthSize
                        + " ttl=" + e.ttlSeconds + " n=" + e.numeric);
            }
            lines = r.lines();
        } catch (java.io.IOException ex) {
            throw new AssertionError(ex);
        }
        String summary = "skipped " + ctx.stats.skipped() + "; adjusted " + ctx.stats.adjusted() + "; bad " + ctx.bad.count()
                + " " + ctx.bad.first() + "; verbs " + ctx.verbs.names() + "; packets " + lines;
        return new Read(out, clients, unknown, ctx.stats.skipped(), ctx.bad.count(), summary);
    }

    /**
     * About 7 s of traffic from 24 client slots to one server: commands and their replies, servers
     * that stop answering some connections, closes, resets and reused ports; then a few packets
     * lost; the largest values are cut by the snap length.
     */
    static CaptureWriter generate(String proto, int port, long seed) {
        Random rnd = new Random(seed);
        CaptureWriter w = new CaptureWriter().snapLength(1_200); // the largest values are cut
        int slots = 24;
        CaptureWriter.Connection[] conn = new CaptureWriter.Connection[slots];
        boolean[] mute = new boolean[slots];
        int[] portOf = new int[slots];
        int nextPort = 40_000;
        int isn = 1;
        long t = T0;
        for (int i = 0; i < slots; i++) {
            portOf[i] = nextPort++;
            conn[i] = w.connection("10.0.0." + (10 + i % 5), portOf[i], "10.0.0.5", port);
            if (i < 3) {
                // open before the capture began; the first also in the middle of a command
                if (i == 0) {
                    conn[i].send(t, tail(proto));
                    conn[i].reply(t + 20_000, reply(proto, 1, false));
                }
            } else {
                conn[i].open(t);
            }
            t += 30_000;
            mute[i] = i % 4 == 3; // connections whose server never answers
        }
        for (int step = 0; step < 3_500; step++) {
            t += 500_000 + rnd.nextInt(3_000_000);
            if (step == 1_500) {
                t += 700_000_000; // a quiet spell: several sweeps in a row
            }
            int i = rnd.nextInt(slots);
            if (conn[i] == null) {
                boolean reuse = rnd.nextInt(3) == 0;
                if (!reuse) {
                    portOf[i] = nextPort++;
                }
                conn[i] = w.connection("10.0.0." + (10 + i % 5), portOf[i], "10.0.0.5", port, 7_000 + isn * 100_003, 9_000 + isn * 70_001);
                isn++;
                conn[i].open(t);
                mute[i] = rnd.nextInt(6) == 0;
                continue;
            }
            int roll = rnd.nextInt(100);
            if (roll < 2 && step < 3_300 && !mute[i]) {
                conn[i].close(t);
                conn[i] = null;
                continue;
            }
            if (roll < 3 && step < 3_300 && !mute[i]) {
                conn[i].reset(t);
                conn[i] = null;
                continue;
            }
            if (mute[i] && rnd.nextInt(8) != 0) {
                continue; // seldom: its commands' waits end in the sweeps, not at its own next packet
            }
            int pipelined = 1 + rnd.nextInt(3);
            StringBuilder req = new StringBuilder();
            StringBuilder rep = new StringBuilder();
            for (int k = 0; k < pipelined; k++) {
                int kind = rnd.nextInt(6);
                String key = "k" + rnd.nextInt(50);
                int size = rnd.nextInt(10) == 0 ? 1_000 + rnd.nextInt(3_000) : 1 + rnd.nextInt(40);
                req.append(command(proto, kind, key, size));
                rep.append(reply(proto, kind, rnd.nextBoolean()));
            }
            conn[i].send(t, req.toString());
            if (!mute[i] && rnd.nextInt(20) != 0) {
                conn[i].reply(t + 40_000 + rnd.nextInt(200_000), rep.toString());
            }
        }
        List<CaptureWriter.Packet> packets = w.packets();
        packets.sort(java.util.Comparator.comparingLong(pk -> pk.timeNanos)); // replies written ahead of later sends
        for (int n = 0; n < 4; n++) {
            int at = 200 + rnd.nextInt(packets.size() - 400);
            while (packets.get(at).payload.length < 30) {
                at++;
            }
            packets.remove(at); // lost
        }
        return w;
    }

    private static String tail(String proto) {
        return switch (proto) {
            case "resp" -> "alue\r\n";
            case "memcache" -> "lue\r\n";
            default -> "ody}";
        };
    }

    private static String command(String proto, int kind, String key, int size) {
        String value = "v".repeat(size);
        return switch (proto) {
            case "resp" -> switch (kind) {
                case 0 -> CaptureReaderTest.resp("GET", key);
                case 1 -> CaptureReaderTest.resp("SET", key, value);
                case 2 -> CaptureReaderTest.resp("INCR", key);
                case 3 -> CaptureReaderTest.resp("HSET", key, "f", value);
                case 4 -> CaptureReaderTest.resp("EXPIRE", key, "10");
                default -> CaptureReaderTest.resp("LPUSH", key, value);
            };
            case "memcache" -> switch (kind) {
                case 0 -> "get " + key + "\r\n";
                case 1 -> "set " + key + " 0 0 " + size + "\r\n" + value + "\r\n";
                case 2 -> "delete " + key + "\r\n";
                case 3 -> "touch " + key + " 10\r\n";
                case 4 -> "add " + key + " 0 0 " + size + "\r\n" + value + "\r\n";
                default -> "gets " + key + "\r\n";
            };
            default -> switch (kind) {
                case 0 -> "GET /" + key + " HTTP/1.1\r\nHost: s\r\n\r\n";
                case 1 -> "PUT /" + key + " HTTP/1.1\r\nHost: s\r\nContent-Length: " + size + "\r\n\r\n" + value;
                case 2 -> "DELETE /" + key + " HTTP/1.1\r\nHost: s\r\n\r\n";
                case 3 -> "POST /" + key + " HTTP/1.1\r\nHost: s\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(size) + "\r\n" + value + "\r\n0\r\n\r\n";
                case 4 -> "HEAD /" + key + " HTTP/1.1\r\nHost: s\r\n\r\n";
                default -> "OPTIONS /" + key + " HTTP/1.1\r\nHost: s\r\n\r\n";
            };
        };
    }

    /** The reply to a command of {@code kind}; a read finds its key or not. */
    private static String reply(String proto, int kind, boolean hit) {
        return switch (proto) {
            case "resp" -> kind == 0 ? (hit ? "$1\r\nx\r\n" : "$-1\r\n") : kind == 2 || kind >= 3 ? ":1\r\n" : "+OK\r\n";
            case "memcache" -> switch (kind) {
                case 0 -> hit ? "VALUE k 0 1\r\nx\r\nEND\r\n" : "END\r\n";
                case 1, 4 -> "STORED\r\n";
                case 2 -> hit ? "DELETED\r\n" : "NOT_FOUND\r\n";
                case 3 -> "TOUCHED\r\n";
                default -> "END\r\n";
            };
            default -> hit || kind != 0 ? "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
                    : "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n";
        };
    }
}
