package io.fluxperf.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.TcpSockets;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A traced run through hits, misses, errors, timeouts and a dead server: the trace holds exactly
 * one record per request, outcome by outcome, and trace stats prints the run's own figures.
 */
@ExtendWith(RealServers.class)
class TraceReconcileTest {
    @TempDir
    Path dir;

    @Test
    void traceRecordsEqualTheRunsRequestsPerOutcome(MemcachedProcess memcached) throws Exception {
        Path config = dir.resolve("mix.toml");
        Files.writeString(config, """
                [general]
                connections = 4
                timeout = "300ms"
                [[workload]]
                name = "hot"
                method = "get"
                rate = 1500
                hit = true
                keyspace = 500
                [[workload]]
                name = "cold"
                method = "get"
                rate = 1000
                keyspace = 100000
                key-length = 10
                [[workload]]
                name = "counter"
                method = "incr"
                rate = 500
                keyspace = 500
                """);
        Path trace = dir.resolve("trace");
        Path json = dir.resolve("run.json");
        CompletableFuture<CliRun> run = CompletableFuture.supplyAsync(() -> CliRun.of("run", "-s", memcached.address(),
                "--config", config.toString(), "-d", "4", "--trace", trace.toString(), "--json", json.toString(), "--no-live"));
        // the measured part runs once gets arrive (the preload only sets)
        long gets = awaitGets(memcached, 1000);
        signal(memcached.pid(), "STOP"); // a stalled server: requests time out
        Thread.sleep(800); // deliberate: the stall outlasts the 300 ms timeout
        signal(memcached.pid(), "CONT");
        // served again, on the connections that replaced the ones the timeouts closed
        awaitGets(memcached, gets + 1000);
        // a dead server: requests in flight close, reconnects fail. Stopped first, and killed once
        // every connection has a request in flight (at 3,000/s on 4 connections a kill alone once
        // found none in flight, and no request closed): the stopped server's side of each
        // connection holds request bytes it has not read
        signal(memcached.pid(), "STOP");
        await("a request in flight on every connection").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> unreadRequests(memcached.port()), unread -> unread.size() >= 4 && !unread.contains(0L));
        memcached.kill();
        CliRun result = run.get(60, TimeUnit.SECONDS);
        assertEquals(0, result.exitCode(), result.out() + result.err());

        JsonNode total = new ObjectMapper().readTree(json.toFile()).get("total");
        long[] runOutcomes = {total.get("ok").asLong(), total.get("miss").asLong(), total.get("error").asLong(),
                total.get("timeout").asLong(), total.get("closed").asLong()};
        for (int i = 0; i < runOutcomes.length; i++) {
            assertTrue(runOutcomes[i] > 0, "outcome " + i + " happened: " + total);
        }
        long[] traced = new long[5];
        long records = 0;
        try (TraceReader reader = TraceReader.open(trace)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                records++;
                if (!r.warmup()) {
                    traced[r.outcome()]++;
                }
            }
        }
        assertEquals(total.get("requests").asLong(), records, "one record per request");
        for (int i = 0; i < 5; i++) {
            assertEquals(runOutcomes[i], traced[i], "outcome " + i);
        }
        assertTrue(result.out().contains("Trace: " + records + " records"), result.out());

        CliRun stats = CliRun.of("trace", "stats", trace.toString());
        assertEquals(0, stats.exitCode(), stats.err());
        assertEquals(result.line("Total:").isEmpty() ? "" : totalBlockLine(result, "Percentiles:"), stats.line("Percentiles:"));
        assertEquals(totalBlockLine(result, "Requests:"), stats.line("Requests:"));
    }

    /** memcached's gets so far, once there are at least {@code atLeast}. */
    private static long awaitGets(MemcachedProcess memcached, long atLeast) {
        return await(atLeast + " gets at memcached").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> memcached.stats().getOrDefault("cmd_get", 0L), gets -> gets >= atLeast);
    }

    /** For each client connection to the server on {@code port}: the request bytes that reached it unread. */
    private static List<Long> unreadRequests(int port) {
        return TcpSockets.withLocalPort(port).stream().filter(s -> s.state() == TcpSockets.ESTABLISHED)
                .map(TcpSockets.Socket::receiveQueue).toList();
    }

    private static String totalBlockLine(CliRun run, String prefix) {
        return run.out().lines().dropWhile(l -> !l.equals("Total:")).filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }

    private static void signal(long pid, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertEquals(0, kill.waitFor());
    }
}
