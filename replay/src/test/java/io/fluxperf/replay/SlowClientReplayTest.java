package io.fluxperf.replay;

import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No client's wait delays another's commands (invariant 13), within a read-ahead of bounded memory.
 *
 * <p>One slow client among 49 fast ones: the embedded redis answers every batch with a key under
 * {@code slow:} 500 ms late, so the slow client, one command in flight on its connection, can do
 * 2 commands a second where its log asks for 5. Before each client's commands could wait for
 * its own connection, the slow client's next command held up every other client behind it (the
 * load thread's one waiting request, then the reader's lane): their latency, measured from the
 * log's schedule, grew with the slow client's backlog to seconds. Now the fast clients keep their
 * schedule while the slow one falls behind alone. The rates are low (500 commands a second in
 * all) so that a loaded machine keeps them too.
 *
 * <p>Memory: 10,000 original clients share 100 connections, half of them slow; at --speed max the
 * reader is far faster than the slow connections, so commands pile up behind them until the
 * read-ahead's budget (1 MiB here) is spent, and no further. Every command still reaches the server
 * once and in its client's order: each client pushes its sequence numbers onto a list of its own.
 */
class SlowClientReplayTest {
    private static final long BASE_MICROS = 1_700_000_000_000_000L;

    @TempDir
    Path dir;

    @Test
    @Tag("timing")
    void aSlowClientDoesNotSlowTheOthers() throws Exception {
        Path log = dir.resolve("monitor.log");
        // two seconds of log: 49 fast clients at 10 GET/SET a second each, client 0 at 5 INCR a second
        try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            List<String> lines = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                long t = BASE_MICROS + i * 100_000L;
                for (int c = 1; c < 50; c++) {
                    long at = t + c * 1_900L;
                    lines.add(line(at, c, i % 5 == 0 ? "\"SET\" \"k" + c + ":" + i + "\" \"v\"" : "\"GET\" \"k" + c + ":" + (i - i % 5) + "\""));
                }
                if (i % 2 == 0) {
                    lines.add(line(t + 50, 0, "\"INCR\" \"slow:counter\""));
                }
            }
            lines.sort(null); // same-width timestamps: text order is time order
            for (String l : lines) {
                w.write(l);
                w.write('\n');
            }
        }
        try (TargetServer server = Protocols.startTarget("redis",
                TargetOptions.builder().slowKeys("slow:", Duration.ofMillis(500)).build())) {
            Replays.Run run = Replays.run(ReplayOptions.builder(log).server(address(server)).speed(1).threads(1)
                    .connections(50).pipeline(1).timeout(Duration.ofSeconds(5)).live(false).build());
            WindowResult total = run.result().run().total();
            assertEquals(990, total.total().outcomes().requests(), run.out());
            assertEquals(0, total.total().outcomes().error(), run.out());
            long fastP99 = Math.max(p99(total, "get"), p99(total, "set"));
            long slowP99 = p99(total, "incr");
            // the slow client's 10 commands take 5 s for a log of 2 s: it alone falls behind
            assertTrue(slowP99 >= 2_000_000_000L, "the slow client fell behind: incr p99 " + slowP99 + " ns\n" + run.out());
            // held up behind it, the others fell as far behind; now their lag is the machine's own (a loaded one's
            // is hundreds of ms on this schedule, hence no absolute bound)
            assertTrue(fastP99 < slowP99 / 2, "the fast clients kept their schedule: p99 " + fastP99 + " ns, the slow"
                    + " client's " + slowP99 + " ns\n" + run.out());
            assertTrue(run.result().limit().readAheadPeak() > 0, "commands waited for the slow connection: " + run.out());
            assertTrue(run.line("In flight: mean ").matches("In flight: mean \\d+\\.\\d of 50 commands .*"), run.out());
        }
    }

    @Test
    void tenThousandClientsStayWithinTheReadAheadBudget() throws Exception {
        int clients = 10_000;
        int perClient = 5;
        Path log = dir.resolve("many.log");
        try (BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (int i = 0; i < perClient; i++) {
                for (int c = 0; c < clients; c++) {
                    long at = BASE_MICROS + (long) i * clients + c;
                    w.write(line(at, c, "\"RPUSH\" \"" + key(c) + "\" \"" + i + "\""));
                    w.write('\n');
                }
            }
        }
        long budget = 1L << 20;
        try (TargetServer server = Protocols.startTarget("redis",
                TargetOptions.builder().slowKeys("slow:", Duration.ofMillis(2)).build())) {
            Replays.Run run = Replays.run(ReplayOptions.builder(log).server(address(server)).speed(0).threads(1)
                    .connections(100).pipeline(1).readAheadBytes(budget).timeout(Duration.ofSeconds(10)).live(false).build());
            assertEquals((long) clients * perClient, run.result().replayed(), run.out());
            assertEquals((long) clients * perClient, run.result().run().total().total().outcomes().ok(), run.out());
            ReplayLimit l = run.result().limit();
            assertEquals(budget, l.readAheadBudget());
            assertTrue(l.readAheadPeak() <= budget, "within its budget: " + l.readAheadPeak() + "\n" + run.out());
            // keys that share a slot of the key table make the thread wait, so the backlog stops short of the budget
            assertTrue(l.readAheadPeak() > budget / 4, "the backlog did build up towards the budget: " + l.readAheadPeak());
            assertTrue(run.line("Limited by: ").startsWith("Limited by: the "), run.out());
            // each command once, each client's in its order
            List<String> values = getAll(server, clients);
            String expected = "0,1,2,3,4";
            for (int c = 0; c < clients; c++) {
                assertEquals(expected, values.get(c), "client " + c + "'s list");
            }
        }
    }

    /** Half the clients' keys are slow. */
    private static String key(int client) {
        return (client % 2 == 0 ? "slow:" : "fast:") + client;
    }

    private static String line(long micros, int client, String command) {
        return String.format(Locale.ROOT, "%d.%06d [0 127.0.0.1:%d] %s", micros / 1_000_000, micros % 1_000_000,
                20_000 + client, command);
    }

    private static String address(TargetServer server) {
        InetSocketAddress a = (InetSocketAddress) server.address();
        return a.getHostString() + ":" + a.getPort();
    }

    private static long p99(WindowResult total, String verb) {
        for (int i = 0; i < total.workloadConfigs().size(); i++) {
            if (total.workloadConfigs().get(i).name().toLowerCase(Locale.ROOT).contains(verb)) {
                WorkloadStats s = total.workloads().get(i);
                return s.latency().getValueAtPercentile(99);
            }
        }
        throw new AssertionError("no workload " + verb + " in " + total.workloadConfigs());
    }

    /** LRANGE of every client's list, pipelined on one connection; each list joined with commas, in client order. */
    private static List<String> getAll(TargetServer server, int clients) throws IOException {
        InetSocketAddress a = (InetSocketAddress) server.address();
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), a.getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            StringBuilder b = new StringBuilder();
            for (int c = 0; c < clients; c++) {
                String k = key(c);
                b.append("*4\r\n$6\r\nLRANGE\r\n$").append(k.length()).append("\r\n").append(k)
                        .append("\r\n$1\r\n0\r\n$2\r\n-1\r\n");
            }
            out.write(b.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = new java.io.BufferedInputStream(s.getInputStream());
            List<String> values = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                String head = readLine(in);
                if (!head.startsWith("*")) {
                    throw new IOException("LRANGE answered " + head);
                }
                int items = Integer.parseInt(head.substring(1));
                List<String> list = new ArrayList<>();
                for (int j = 0; j < items; j++) {
                    int n = Integer.parseInt(readLine(in).substring(1));
                    byte[] v = in.readNBytes(n + 2);
                    list.add(new String(v, 0, n, StandardCharsets.US_ASCII));
                }
                values.add(String.join(",", list));
            }
            return values;
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int ch;
        while ((ch = in.read()) != '\n') {
            if (ch < 0) {
                throw new IOException("closed after " + b);
            }
            if (ch != '\r') {
                b.append((char) ch);
            }
        }
        return b.toString();
    }
}
