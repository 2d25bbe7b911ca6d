package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.FreePorts;
import io.fluxperf.testkit.RedisProcess;
import io.fluxperf.testkit.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay} takes the connection options {@code run} takes: the same MONITOR log replayed
 * over TLS, over a Unix socket, with RESP3 and into database 2, each checked against the server's
 * own {@code INFO commandstats}.
 */
class ReplayConnectionOptionsTest {
    private static final int SETS = 120;
    private static final int GETS = 180;

    @TempDir
    static Path dir;
    private static RedisProcess redis;
    private static int tlsPort;
    private static Path socket;
    private static SelfSignedCertificate cert;
    private static Path log;

    @BeforeAll
    static void start() throws Exception {
        cert = SelfSignedCertificate.create(dir, "redis");
        tlsPort = FreePorts.tcp();
        socket = dir.resolve("redis.sock");
        redis = RedisProcess.start("--tls-port", Integer.toString(tlsPort), "--tls-cert-file", cert.certificate().toString(),
                "--tls-key-file", cert.privateKey().toString(), "--tls-auth-clients", "no",
                "--unixsocket", socket.toString(), "--unixsocketperm", "700");
        List<String> lines = new ArrayList<>();
        long micros = 1_700_000_000_000_000L;
        for (int i = 0; i < SETS + GETS; i++) {
            micros += 1_000;
            String client = "127.0.0.1:" + (50_000 + i % 3);
            String command = i < SETS ? "\"SET\" \"k" + i + "\" \"value-" + i + "\"" : "\"GET\" \"k" + (i - SETS) + "\"";
            lines.add(micros / 1_000_000 + "." + String.format("%06d", micros % 1_000_000) + " [0 " + client + "] " + command);
        }
        log = Files.write(dir.resolve("monitor.log"), lines);
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @BeforeEach
    void resetCounters() {
        redis.command("FLUSHALL");
        redis.command("CONFIG", "RESETSTAT");
    }

    private static CliRun replay(String... options) {
        List<String> args = new ArrayList<>(List.of("replay", "-l", log.toString(), "--speed", "max", "-c", "3", "--no-live"));
        args.addAll(List.of(options));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.out() + run.err());
        return run;
    }

    /** Every logged command reached the server once: its own counts say so. */
    private static Map<String, Long> assertServerCounted() {
        Map<String, Long> calls = redis.commandstats();
        assertEquals(SETS, calls.get("set"), "sets the server counted: " + calls);
        assertEquals(GETS, calls.get("get"), "gets the server counted: " + calls);
        return calls;
    }

    @Test
    void overTls() {
        CliRun run = replay("-s", "127.0.0.1:" + tlsPort, "--tls", "--tls-ca", cert.certificate().toString());
        assertServerCounted();
        assertTrue(run.out().contains("Requests: " + (SETS + GETS) + " Ok: "), run.out());
    }

    @Test
    void overAUnixSocket() {
        replay("-s", "unix:" + socket);
        assertServerCounted();
    }

    @Test
    void withResp3() {
        replay("-s", redis.address(), "--resp", "3");
        Map<String, Long> calls = assertServerCounted();
        assertEquals(3L, calls.get("hello"), "each of the 3 connections switched with HELLO 3: " + calls);
    }

    @Test
    void intoDatabaseTwo() {
        replay("-s", redis.address(), "--db", "2");
        Map<String, Long> calls = assertServerCounted();
        assertEquals(3L, calls.get("select"), "each of the 3 connections selected database 2: " + calls);
        String keyspace = redis.info("keyspace");
        assertTrue(keyspace.contains("db2:keys=" + SETS) && !keyspace.contains("db0:"), keyspace);
    }

    @Test
    void anOptionTheLogsProtocolDoesNotReadIsRefused() {
        CliRun run = CliRun.of("replay", "-l", log.toString(), "-s", redis.address(), "--http-ok", "4xx", "--no-live");
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertTrue(run.err().startsWith("fluxperf: --http-ok: protocol redis has no such option"), run.err());
    }
}
