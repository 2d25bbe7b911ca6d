package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.capture.CaptureFormat;
import io.fluxperf.testkit.CaptureWriter;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Captures written by the test, damaged as real ones are, replayed into real servers: each
 * replays what is whole (the servers' own counters show exactly those commands, and no error: no
 * half command reached them) and the report names what is not; a pcapng file, a binary memcache
 * capture, an HTTP capture, and the flags every log takes.
 */
@ExtendWith(RealServers.class)
class CaptureReplayTest {
    private static final long T0 = 1_796_000_000_000_000_000L;
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private static String resp(String... words) {
        StringBuilder b = new StringBuilder("*" + words.length + "\r\n");
        for (String w : words) {
            b.append('$').append(w.length()).append("\r\n").append(w).append("\r\n");
        }
        return b.toString();
    }

    private static Replays.Run replay(Path file, String server, ReplayOptionsTweak tweak) {
        // a long timeout: on a busy machine a reply may take a second, and these tests count outcomes
        ReplayOptions.Builder b = ReplayOptions.builder(file).server(server).speed(0).live(false)
                .timeout(java.time.Duration.ofSeconds(20));
        return Replays.run(tweak.apply(b).build());
    }

    private interface ReplayOptionsTweak {
        ReplayOptions.Builder apply(ReplayOptions.Builder b);
    }

    private static long total(Replays.Run run, String outcome) {
        return switch (outcome) {
            case "error" -> run.result().run().total().total().outcomes().error();
            default -> run.result().run().total().total().outcomes().requests();
        };
    }

    @Test
    void aSmallSnapLengthCutsTheLargeCommandsAndTheRestReplays(MemcachedProcess target) {
        CaptureWriter w = new CaptureWriter().snapLength(200);
        CaptureWriter.Connection c = w.connection("10.0.0.7", 51234, "10.0.0.5", 11211);
        c.open(T0);
        long t = T0 + MS;
        for (int i = 0; i < 10; i++) {
            c.send(t, "set big" + i + " 0 0 1000\r\n" + "v".repeat(1000) + "\r\n");
            c.reply(t + 100_000, "STORED\r\n");
            c.send(t + 200_000, "set small" + i + " 0 0 5\r\nsmall\r\n");
            c.reply(t + 300_000, "STORED\r\n");
            c.send(t + 400_000, "get small" + i + "\r\n");
            c.reply(t + 500_000, "VALUE small" + i + " 0 5\r\nsmall\r\nEND\r\n");
            t += MS;
        }
        c.close(t);
        Path file = dir.resolve("snap.pcap");
        w.writeTo(file);
        Replays.Run run = replay(file, target.address(), b -> b);
        Map<String, Long> stats = target.stats();
        assertEquals(10, stats.get("cmd_set"), run.out());
        assertEquals(10, stats.get("cmd_get"), run.out());
        assertEquals(10, stats.get("get_hits"), run.out());
        assertEquals(0, total(run, "error"), run.out());
        assertEquals("Skipped: 10 commands cut by the capture's 200-byte snap length (never sent half)",
                run.line("Skipped: "), run.out());
        assertEquals("Hit rate: original 100.0 %, replay 100.0 % (reads; the original from the server's replies in the log)",
                run.line("Hit rate: "), run.out());
        assertTrue(run.out().contains("Replay: Note: 1 connection to 10.0.0.5:11211, each replayed as one original client"),
                run.out());
    }

    @Test
    void lostPacketsCutOneCommandOrEndAConnectionNamed(RedisProcess target) {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        CaptureWriter.Connection b = w.connection("10.0.0.8", 40000, "10.0.0.5", 6379);
        a.open(T0);
        b.open(T0);
        a.send(T0 + MS, resp("SET", "big", "v".repeat(4000)));   // its middle segment is lost: cut
        a.serverAck(T0 + 2 * MS);
        a.reply(T0 + 3 * MS, "+OK\r\n");
        a.send(T0 + 4 * MS, resp("SET", "a", "1") + resp("GET", "a"));
        a.reply(T0 + 5 * MS, "+OK\r\n$1\r\n1\r\n");
        b.send(T0 + 6 * MS, resp("INCR", "n"));
        b.reply(T0 + 7 * MS, ":1\r\n");
        b.send(T0 + 8 * MS, resp("INCR", "n").repeat(40)); // lost: framing and all
        b.send(T0 + 9 * MS, resp("INCR", "n").repeat(5));
        b.serverAck(T0 + 10 * MS);
        b.reply(T0 + 11 * MS, ":2\r\n".repeat(45));
        a.close(T0 + 500 * MS);
        b.close(T0 + 501 * MS);
        List<CaptureWriter.Packet> p = w.packets();
        p.remove(7);  // the SET's second segment
        p.remove(14); // the 40 pipelined INCRs
        Path file = dir.resolve("gaps.pcap");
        w.writeTo(file);
        Replays.Run run = replay(file, target.address(), x -> x);
        Map<String, Long> stats = target.commandstats();
        assertEquals(1L, stats.get("set"), run.out());
        assertEquals(1L, stats.get("get"), run.out());
        assertEquals(1L, stats.get("incr"), run.out());
        assertEquals(0, total(run, "error"), run.out());
        assertEquals("Skipped: 1 commands cut by packets the capture lacks (never sent half)", run.line("Skipped: "), run.out());
        assertEquals("Bad line: " + file + ", packet 15: connection 10.0.0.8:40000: 840 bytes missing at 0.009 s,"
                + " 45 commands not replayed", run.line("Bad line: "), run.out());
        // read on two threads, split by connection (--reader-threads 2): the same commands, cuts and bad line
        Replays.Run split = replay(file, target.address(), x -> x.readerThreads(2));
        stats = target.commandstats();
        assertEquals(2L, stats.get("set"), split.out());
        assertEquals(2L, stats.get("get"), split.out());
        assertEquals(2L, stats.get("incr"), split.out());
        assertEquals(run.line("Skipped: "), split.line("Skipped: "), split.out());
        assertEquals(run.line("Bad line: "), split.line("Bad line: "), split.out());
    }

    @Test
    void aConnectionOpenBeforeTheCaptureIsPickedUpAndNamed(MemcachedProcess target) {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection a = w.connection("10.0.0.7", 51234, "10.0.0.5", 11211);
        CaptureWriter.Connection b = w.connection("10.0.0.8", 40000, "10.0.0.5", 11211);
        a.open(T0 - 1000 * MS);
        a.send(T0 - MS, "set early 0 0 100\r\n" + "e".repeat(100) + "\r\n");
        a.reply(T0 + MS, "STORED\r\n");
        a.send(T0 + 2 * MS, "get early\r\nset later 0 0 1\r\nl\r\n");
        a.reply(T0 + 3 * MS, "VALUE early 0 100\r\n" + "e".repeat(100) + "\r\nEND\r\nSTORED\r\n");
        b.open(T0 + MS);
        b.send(T0 + 4 * MS, "set b 0 0 1\r\nb\r\nget b\r\n");
        b.reply(T0 + 5 * MS, "STORED\r\nVALUE b 0 1\r\nb\r\nEND\r\n");
        List<CaptureWriter.Packet> p = w.packets();
        p.subList(0, 3).clear(); // a's handshake
        CaptureWriter.Packet set = p.get(0); // the capture begins inside a's first command
        set.payload = java.util.Arrays.copyOfRange(set.payload, 30, set.payload.length);
        set.seq += 30;
        set.timeNanos = T0;
        Path file = dir.resolve("open.pcap");
        w.writeTo(file);
        Replays.Run run = replay(file, target.address(), x -> x);
        Map<String, Long> stats = target.stats();
        assertEquals(2, stats.get("cmd_set"), run.out());
        assertEquals(2, stats.get("cmd_get"), run.out());
        assertEquals(0, total(run, "error"), run.out());
        assertEquals("Bad line: " + file + ", packet 3: connection 10.0.0.7:51234: open before the capture began; its"
                + " first 91 bytes (the rest of a command sent before) not replayed, picked up at 0.002 s",
                run.line("Bad line: "), run.out());
        assertTrue(run.out().contains("(1 open before the capture began)"), run.out());
    }

    private static byte[] binary(int opcode, String key, byte[] extras, String value, int opaque) {
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
        byte[] v = value.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer b = ByteBuffer.allocate(24 + extras.length + k.length + v.length);
        b.put((byte) 0x80).put((byte) opcode).putShort((short) k.length).put((byte) extras.length).put((byte) 0)
                .putShort((short) 0).putInt(extras.length + k.length + v.length).putInt(opaque).putLong(0)
                .put(extras).put(k).put(v);
        return b.array();
    }

    private static byte[] binaryReply(int opcode, int status, int opaque, String value) {
        ByteBuffer b = ByteBuffer.allocate(24 + value.length());
        b.put((byte) 0x81).put((byte) opcode).putShort((short) 0).put((byte) 0).put((byte) 0).putShort((short) status)
                .putInt(value.length()).putInt(opaque).putLong(1).put(value.getBytes(StandardCharsets.ISO_8859_1));
        return b.array();
    }

    @Test
    void aPcapngFileOfBinaryClientsReplaysOverTheBinaryProtocol(MemcachedProcess target) {
        CaptureWriter w = new CaptureWriter().format(CaptureWriter.Format.PCAPNG).link(CaptureWriter.Link.LINUX_SLL2);
        CaptureWriter.Connection c = w.connection("::1", 51234, "::1", 11211);
        c.open(T0);
        byte[] store = ByteBuffer.allocate(8).putInt(0).putInt(0).array();
        for (int i = 0; i < 5; i++) {
            c.send(T0 + (10 * i + 1) * MS, binary(0x01, "k" + i, store, "value" + i, 2 * i));
            c.reply(T0 + (10 * i + 2) * MS, binaryReply(0x01, 0, 2 * i, ""));
            c.send(T0 + (10 * i + 3) * MS, binary(0x0c, "k" + i, new byte[0], "", 2 * i + 1));
            c.reply(T0 + (10 * i + 4) * MS, binaryReply(0x0c, 0, 2 * i + 1, "\0\0\0\0value" + i));
        }
        Path file = dir.resolve("binary.pcapng");
        w.writeTo(file);
        Replays.Run run = replay(file, target.address(), x -> x);
        assertEquals("memcache-binary", run.result().protocol());
        assertEquals(5, target.stats().get("cmd_set"), run.out());
        assertEquals(5, target.stats().get("get_hits"), run.out());
        assertEquals("Replies: original ok 10 miss 0 error 0 unknown 0, replay ok 10 miss 0 error 0 timeout 0 closed 0",
                run.line("Replies: "), run.out());
        assertEquals(CaptureFormat.INSTANCE, run.result().format());
    }

    @Test
    void anHttpCaptureReplaysItsRequestsToTheEmbeddedTarget() {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection c = w.connection("10.0.0.7", 51234, "10.0.0.5", 8080);
        c.open(T0);
        c.send(T0 + MS, "GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\nPUT /items/1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\n\r\n");
        c.reply(T0 + 2 * MS, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
        c.send(T0 + 3 * MS, "GET /items/1 HTTP/1.1\r\n\r\nHEAD /x HTTP/1.1\r\n\r\n");
        c.reply(T0 + 4 * MS, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n");
        Path file = dir.resolve("http.pcap");
        w.writeTo(file);
        Replays.Run run = Replays.run(ReplayOptions.builder(file).speed(0).live(false)
                .timeout(java.time.Duration.ofSeconds(20)).build());
        assertEquals("http", run.result().protocol());
        assertEquals(Map.of("get", 2L, "put", 1L), run.result().commands());
        assertEquals(3, total(run, "requests"), run.out());
        assertEquals("Skipped: 1 HTTP HEAD requests (the http protocol sends GET, POST, PUT and DELETE)",
                run.line("Skipped: "), run.out());
        assertEquals("Adjusted: 1 chunked bodies sent with a Content-Length", run.line("Adjusted: "), run.out());
    }

    @Test
    void theFlagsOfEveryLogWorkOnACapture(MemcachedProcess target) {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection c = w.connection("10.0.0.7", 51234, "10.0.0.5", 11211);
        c.open(T0);
        for (int i = 0; i < 10; i++) {
            c.send(T0 + (i + 1) * MS, "set k" + i + " 0 0 1\r\nv\r\nget k" + i + "\r\n");
            c.reply(T0 + (i + 1) * MS + 100_000, "STORED\r\nVALUE k" + i + " 0 1\r\nv\r\nEND\r\n");
        }
        Path file = dir.resolve("flags.pcap");
        w.writeTo(file);
        Replays.Run run = replay(file, target.address(), b -> b.keyPrefix("r:").only(List.of("set")).loops(2));
        assertEquals(20, target.stats().get("cmd_set"), run.out());
        assertEquals(0, target.stats().get("cmd_get"), run.out());
        assertTrue(target.keys().stream().map(k -> java.net.URLDecoder.decode(k, StandardCharsets.UTF_8))
                .allMatch(k -> k.startsWith("r:k")), target.keys().toString());
        assertEquals(10, target.keys().size());
    }

    @Test
    void shardedAgentsReplayEachClientOnceAndTheirOriginalRepliesAddUp(MemcachedProcess target) {
        CaptureWriter w = new CaptureWriter();
        for (int client = 0; client < 6; client++) {
            CaptureWriter.Connection c = w.connection("10.0.0." + (10 + client), 40_000, "10.0.0.5", 11211);
            c.open(T0);
            for (int i = 0; i < 5; i++) {
                c.send(T0 + (i + 1) * MS, "get c" + client + "k" + i + "\r\n");
                c.reply(T0 + (i + 1) * MS + 100_000, i % 2 == 0 ? "END\r\n" : "VALUE c" + client + "k" + i + " 0 1\r\nv\r\nEND\r\n");
            }
        }
        Path file = dir.resolve("sharded.pcap");
        w.writeTo(file);
        long sent = 0;
        long originalHits = 0;
        for (int agent = 0; agent < 3; agent++) {
            ReplayOptions o = ReplayOptions.builder(file).server(target.address()).speed(0).live(false)
                    .timeout(java.time.Duration.ofSeconds(20)).build();
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            ReplayResult r = new Replay(o).sharding(io.fluxperf.engine.shard.Shard.parse(agent + "/3"), null)
                    .run(new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                            new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            sent += r.replayed();
            originalHits += r.originalReplies().readHits();
        }
        assertEquals(30, sent, "every command once, over the three agents");
        assertEquals(30, target.stats().get("cmd_get"));
        assertEquals(12, originalHits, "the original hits of each agent's clients add up to the capture's");
    }

    /**
     * A replay stopped early counts the original replies of the commands it sent, not of those the
     * reader had dealt ahead into the lanes (up to the capture's read-ahead of 16,384).
     */
    @Test
    void aStoppedReplayCountsTheOriginalRepliesOfWhatItSent(MemcachedProcess target) throws Exception {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection[] clients = new CaptureWriter.Connection[4];
        for (int client = 0; client < clients.length; client++) {
            clients[client] = w.connection("10.0.0." + (10 + client), 40_000, "10.0.0.5", 11211).open(T0);
        }
        for (int i = 0; i < 5_000; i++) { // 10 s at 1x, the packets in time order as a capture's are
            long t = T0 + (i + 1) * 2 * MS;
            for (CaptureWriter.Connection c : clients) {
                c.send(t, "get k" + i + "\r\n");
                c.reply(t + 100_000, i % 4 == 0 ? "VALUE k" + i + " 0 1\r\nv\r\nEND\r\n" : "END\r\n");
            }
        }
        Path file = dir.resolve("long.pcap");
        w.writeTo(file);
        Replay replay = new Replay(ReplayOptions.builder(file).server(target.address()).live(false).build());
        java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        java.util.concurrent.CompletableFuture<ReplayResult> running =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> replay.run(quiet, quiet));
        org.awaitility.Awaitility.await("the replay under way").atMost(java.time.Duration.ofSeconds(20))
                .pollInterval(java.time.Duration.ofMillis(20)).until(() -> target.stats().get("cmd_get") >= 1_000);
        replay.requestStop();
        ReplayResult r = running.get(20, java.util.concurrent.TimeUnit.SECONDS);
        long requests = r.run().total().total().outcomes().requests();
        OriginalReplies o = r.originalReplies();
        assertTrue(requests >= 1_000 && requests < 20_000, "stopped early: " + requests);
        assertEquals(requests, o.readHits() + o.readMisses(), "the original replies of the gets sent: " + o);
        assertEquals(requests, o.ok() + o.miss() + o.error() + o.unknown(), o.toString());
    }

    @Test
    void severalServersAreListedAndOneIsPicked(MemcachedProcess target) {
        CaptureWriter w = new CaptureWriter();
        w.connection("10.0.0.7", 51234, "10.0.0.5", 11211).open(T0).send(T0 + MS, "get a\r\n").reply(T0 + 2 * MS, "END\r\n");
        w.connection("10.0.0.7", 51235, "10.0.0.6", 11211).open(T0).send(T0 + MS, "get b\r\nget c\r\n")
                .reply(T0 + 2 * MS, "END\r\nEND\r\n");
        Path file = dir.resolve("two.pcap");
        w.writeTo(file);
        UserError e = assertThrows(UserError.class, () -> replay(file, target.address(), x -> x));
        assertEquals(file + ": the capture holds requests to 2 servers: 10.0.0.6:11211 (2 commands), 10.0.0.5:11211"
                + " (1 command); pick one with --capture-server HOST:PORT (repeatable)", e.getMessage());
        Replays.Run run = replay(file, target.address(), b -> b.captureServers(List.of("10.0.0.6:11211")));
        assertEquals(2, target.stats().get("cmd_get"), run.out());
    }
}
