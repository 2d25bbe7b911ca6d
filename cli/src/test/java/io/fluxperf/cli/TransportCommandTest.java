package io.fluxperf.cli;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import io.fluxperf.testkit.FreePorts;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.SelfSignedCertificate;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import static io.fluxperf.cli.CliRun.assertAllOk;
import static io.fluxperf.cli.CliRun.field;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code run} over every transport against the servers that speak it — memcached over UDP
 * ({@code -U}) and over a Unix socket ({@code -s}, a second instance), the embedded target's UDP,
 * Unix-socket and TLS listeners — with counts checked by the servers' own statistics; and the
 * mistakes of each transport, one sentence and exit 2.
 */
class TransportCommandTest {
    @TempDir
    static Path dir;

    private static SelfSignedCertificate cert;

    @BeforeAll
    static void certificate() {
        cert = SelfSignedCertificate.create(dir, "server");
    }

    private static void assertOneSentence(CliRun run, String... mentions) {
        assertEquals(2, run.exitCode(), run.out() + run.err());
        String err = run.err().strip();
        assertEquals(1, err.lines().count(), "one line: " + err);
        assertTrue(err.startsWith("fluxperf: "), err);
        for (String m : mentions) {
            assertTrue(err.contains(m), "'" + m + "' in: " + err);
        }
    }

    // ---- memcached ----

    @Test
    void udpAgainstMemcachedAgreesWithItsStats() {
        int port = FreePorts.tcpAndUdp();
        try (MemcachedProcess memcached = MemcachedProcess.start(port, "-U", Integer.toString(port))) {
            String server = "127.0.0.1:" + port;
            assertAllOk(CliRun.of("run", "-s", server, "--udp", "--method", "set", "--bytes", "100..3000",
                    "--requests", "1000", "-c", "4", "--pipeline", "2", "-d", "30", "--no-live"), 1000);
            CliRun gets = CliRun.of("run", "-s", server, "--udp", "--method", "get", "--hit", "--keyspace", "500",
                    "--keys-per-request", "2", "--requests", "2000", "-c", "4", "-d", "30", "--no-live");
            assertAllOk(gets, 2000);
            Map<String, Long> stats = memcached.stats();
            assertEquals(1000 + 500, stats.get("cmd_set"), "the sets and the preload, all over UDP");
            assertEquals(4000, stats.get("cmd_get"), "2000 gets of 2 keys");
            assertEquals(4000, stats.get("get_hits"));
        }
    }

    @Test
    void unixSocketAgainstMemcachedAgreesWithItsStats() {
        Path socket = dir.resolve("memcached.sock");
        try (MemcachedProcess memcached = MemcachedProcess.startUnix(socket)) {
            CliRun run = CliRun.of("run", "-s", memcached.serverArgument(), "--method", "get", "--hit", "--keyspace", "300",
                    "--requests", "3000", "-c", "4", "-d", "30", "--no-live");
            assertAllOk(run, 3000);
            assertTrue(run.line("Config: Server:").contains("unix:" + socket), run.line("Config: Server:"));
            Map<String, Long> stats = memcached.stats();
            assertEquals(300, stats.get("cmd_set"));
            assertEquals(3000, stats.get("cmd_get"));
            assertEquals(3000, stats.get("get_hits"));
        }
    }

    // ---- the embedded target ----

    @Test
    void udpAndUnixAgainstTheEmbeddedTarget() {
        Path socket = dir.resolve("embedded.sock");
        try (TargetServer target = Protocols.startTarget("memcache",
                TargetOptions.builder().udpPort(0).unixPath(socket).build())) {
            assertAllOk(CliRun.of("run", "-s", "127.0.0.1:" + target.udpAddress().getPort(), "--udp", "--method", "get",
                    "--hit", "--keyspace", "200", "--bytes", "2000", "--requests", "1500", "-c", "3", "--pipeline", "4",
                    "-d", "30", "--no-live"), 1500);
            assertAllOk(CliRun.of("run", "-s", "unix:" + socket, "--method", "get", "--keyspace", "200",
                    "--requests", "1500", "-c", "3", "-d", "30", "--no-live"), 1500);
            assertEquals(200, target.stats().command("set"), "the preload (UDP); the Unix run needed none: the keys were there");
            assertEquals(3000, target.stats().command("get"));
            assertEquals(3000, target.stats().getHits());
        }
    }

    @Test
    void tlsAgainstTheEmbeddedTarget() {
        SelfSignedCertificate other = SelfSignedCertificate.create(dir, "other");
        try (TargetServer target = Protocols.startTarget("memcache",
                TargetOptions.builder().tls(cert.certificate(), cert.privateKey()).build())) {
            int port = target.address().getPort();
            assertAllOk(CliRun.of("run", "-s", "127.0.0.1:" + port, "--tls", "--tls-ca", cert.certificate().toString(),
                    "--method", "set", "--requests", "500", "-c", "2", "-d", "30", "--no-live"), 500);
            // by name: the certificate names localhost too (SNI and the host check)
            assertAllOk(CliRun.of("run", "-s", "localhost:" + port, "--tls", "--tls-ca", cert.certificate().toString(),
                    "--method", "set", "--requests", "200", "-c", "2", "-d", "30", "--no-live"), 200);
            assertAllOk(CliRun.of("run", "-s", "127.0.0.1:" + port, "--tls", "--tls-insecure",
                    "--method", "set", "--requests", "300", "-c", "2", "-d", "30", "--no-live"), 300);
            assertEquals(1000, target.stats().command("set"));
            // the meta protocol, quiet, with opaque tokens and base64 keys, on the same listener
            assertAllOk(CliRun.of("run", "--protocol", "memcache-meta", "-s", "127.0.0.1:" + port, "--tls", "--tls-ca",
                    cert.certificate().toString(), "--method", "set", "--meta-flags", "qbO", "--requests", "500", "-c", "2",
                    "--pipeline", "4", "-d", "30", "--no-live"), 500);
            assertEquals(500, target.stats().command("ms"));

            CliRun wrongCa = CliRun.of("run", "-s", "127.0.0.1:" + port, "--tls", "--tls-ca", other.certificate().toString(),
                    "-c", "2", "-d", "1", "--no-live");
            assertOneSentence(wrongCa, "TLS handshake", "127.0.0.1:" + port);
        }
    }

    // ---- mistakes and silence ----

    @Test
    void aUnixSocketThatDoesNotExistIsNamed() {
        assertOneSentence(CliRun.of("run", "--server", "unix:/no/such.sock", "-d", "1"), "--server", "/no/such.sock");
    }

    @Test
    void udpIsForMemcacheOnly() {
        assertOneSentence(CliRun.of("run", "-s", "127.0.0.1:6379", "--udp", "--protocol", "redis", "-d", "1"), "--udp", "redis");
    }

    @Test
    void udpWhereNothingAnswersEndsOnTimeWithTimeoutsCounted() throws Exception {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            long start = System.nanoTime();
            CliRun run = CliRun.of("run", "-s", "127.0.0.1:" + silent.getLocalPort(), "--udp", "-c", "2", "--pipeline", "2",
                    "-d", "1", "--timeout", "200ms", "--no-live");
            long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
            assertEquals(0, run.exitCode(), run.out() + run.err());
            String line = run.line("Requests:");
            assertEquals(0, field(line, "Ok:"), line);
            assertTrue(field(line, "Timeout:") >= 8, "2 sockets x 2 in flight, a 200 ms timeout, 1 s: " + line);
            assertEquals(field(line, "Requests:"), field(line, "Timeout:"), line);
            assertTrue(seconds < 4, "ends on time: " + seconds + " s");
        }
    }

    @Test
    void udpWhereNothingListensEndsAtOnceAsAFailedConnect() {
        int port = FreePorts.udp(); // nothing bound: the kernel answers each datagram with port unreachable
        long start = System.nanoTime();
        CliRun run = CliRun.of("run", "-s", "127.0.0.1:" + port, "--udp", "-d", "10", "--rate", "50", "-c", "1",
                "--timeout", "10s", "--no-live");
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertOneSentence(run, "cannot connect to 127.0.0.1:" + port + ": Connection refused");
        assertTrue(millis < 5000, "ends at the refusal, not by the 10 s timeout nor the 10 s window: " + millis + " ms");
    }

    @Test
    void udpServerThatGoesAwayMidRunIsCountedAndTheRunGoesOn() throws Exception {
        try (DatagramSocket server = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            int port = server.getLocalPort();
            Thread answering = new Thread(() -> answerThenClose(server, 5), "udp-answers");
            answering.start();
            CliRun run = CliRun.of("run", "-s", "127.0.0.1:" + port, "--udp", "--method", "get", "-d", "1", "--rate", "50",
                    "-c", "1", "--timeout", "200ms", "--no-live");
            answering.join();
            assertEquals(0, run.exitCode(), run.out() + run.err());
            String total = run.out().substring(run.out().indexOf("Total:"));
            String requests = total.lines().filter(l -> l.startsWith("Requests:")).findFirst().orElseThrow();
            assertEquals(5, field(requests, "Miss:"), "the replies before the server went away: " + requests);
            assertTrue(run.line("Errors:").contains("connection: Connection refused"), run.line("Errors:"));
        }
    }

    /** Answers {@code replies} memcache UDP gets with a miss (END), then closes: later datagrams are refused. */
    private static void answerThenClose(DatagramSocket server, int replies) {
        try (server) {
            byte[] in = new byte[2048];
            for (int i = 0; i < replies; i++) {
                java.net.DatagramPacket p = new java.net.DatagramPacket(in, in.length);
                server.receive(p);
                byte[] out = {in[0], in[1], 0, 0, 0, 1, 0, 0, 'E', 'N', 'D', '\r', '\n'}; // its request id, datagram 0 of 1
                server.send(new java.net.DatagramPacket(out, out.length, p.getSocketAddress()));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    // ---- serve ----

    @Test
    void serveListensOnUdpUnixAndTlsAtOnce() throws Exception {
        Path socket = dir.resolve("serve.sock");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ServeCommand serve = new ServeCommand();
        serve.streams(new Streams(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
        int[] exit = {-1};
        Thread thread = new Thread(() -> exit[0] = new CommandLine(serve).execute("--port", "0", "--udp-port", "0",
                "--unix", socket.toString(), "--tls-cert", cert.certificate().toString(),
                "--tls-key", cert.privateKey().toString(), "--stats-interval", "0"));
        thread.start();
        try {
            Pattern listening = Pattern.compile(
                    "fluxperf serve: memcache on 127\\.0\\.0\\.1:(\\d+) \\(TLS\\), UDP 127\\.0\\.0\\.1:(\\d+), Unix socket (\\S+)");
            Matcher m = await("serve printed its listeners").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> listening.matcher(out.toString(StandardCharsets.UTF_8)), Matcher::find);
            assertEquals(socket.toString(), m.group(3));
            assertAllOk(CliRun.of("run", "-s", "127.0.0.1:" + m.group(2), "--udp", "--method", "set", "--requests", "200",
                    "-c", "2", "-d", "30", "--no-live"), 200);
            assertAllOk(CliRun.of("run", "-s", "unix:" + socket, "--method", "set", "--requests", "200",
                    "-c", "2", "-d", "30", "--no-live"), 200);
            assertAllOk(CliRun.of("run", "-s", "127.0.0.1:" + m.group(1), "--tls", "--tls-ca", cert.certificate().toString(),
                    "--method", "set", "--requests", "200", "-c", "2", "-d", "30", "--no-live"), 200);
        } finally {
            serve.stop();
            thread.join(10_000);
        }
        assertEquals(0, exit[0]);
        assertFalse(Files.exists(socket), "the socket file goes with the server");
    }

    @Test
    void serveMistakesAreOneSentenceEach() throws Exception {
        Path missing = dir.resolve("missing.pem");
        assertOneSentence(CliRun.of("serve", "--port", "0", "--tls-cert", missing.toString(), "--tls-key",
                cert.privateKey().toString()), "--tls-cert", missing.toString());
        assertOneSentence(CliRun.of("serve", "--port", "0", "--tls-cert", cert.certificate().toString()), "--tls-key");
        Path garbage = Files.writeString(dir.resolve("garbage.pem"), "not a key\n");
        assertOneSentence(CliRun.of("serve", "--port", "0", "--tls-cert", cert.certificate().toString(), "--tls-key",
                garbage.toString()), "--tls-cert/--tls-key", garbage.toString());
        assertOneSentence(CliRun.of("serve", "--port", "0", "--unix", "/no/such/dir/mc.sock"), "--unix", "/no/such/dir");
        try (DatagramSocket busy = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            assertOneSentence(CliRun.of("serve", "--port", "0", "--udp-port", Integer.toString(busy.getLocalPort())),
                    "--udp-port", Integer.toString(busy.getLocalPort()));
        }
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertOneSentence(CliRun.of("serve", "--port", Integer.toString(busy.getLocalPort()), "--udp-port", "0"),
                    "--bind/--port", Integer.toString(busy.getLocalPort()));
        }
        assertOneSentence(CliRun.of("serve", "--udp-port", "70000"), "--udp-port", "70000");
    }
}
