package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 46: the admin endpoint abused while a paced run goes, as a user runs fluxperf (a process
 * of its own) under a low file descriptor limit, with a connection per request (so the load opens
 * sockets all the time). Garbage bytes, bad paths, HTTP/9.9, 500 idle connections, slowloris
 * clients, a tiny and a huge rate: the rate is held within 1 % in every window, every GET on a
 * fresh connection is answered within 100 ms, no load connection fails, and nothing of it reaches
 * the output. Before, the idle connections took every descriptor and the load's connects failed.
 */
@Tag("timing")
@ExtendWith(RealServers.class)
class AdminAbuseTest {
    /** The child's `ulimit -n`: its JVM holds about 140, the load 20 connections, and the rest would go to the abuse. */
    private static final int FD_LIMIT = 320;
    private static final int RATE = 1000;
    private static final int WINDOWS = 5;

    @TempDir
    Path dir;

    @Test
    void abuseDuringAPacedRunTouchesNeitherTheRateNorTheLoadsConnections(MemcachedProcess memcached) throws Exception {
        Path out = dir.resolve("run.out");
        Path json = dir.resolve("result.json");
        Process p = child(out, "run", "-s", memcached.address(), "--rate", Integer.toString(RATE), "-d", "1",
                "-w", Integer.toString(WINDOWS), "--warmup", "1", "--connect-per-request", "-c", "20", "--admin", "0",
                "--json", json.toString(), "--no-live");
        AtomicBoolean stop = new AtomicBoolean();
        List<Socket> held = new CopyOnWriteArrayList<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicInteger dropped = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> abusers = new ArrayList<>();
        try {
            // the endpoint closes once the report is out: what fails then is no failure of the endpoint
            java.util.function.BooleanSupplier ended = () -> stop.get() || !p.isAlive() || reported(out);
            InetSocketAddress admin = awaitAdmin(p, out);
            awaitMeasuring(admin);
            long fds = openFiles(p);
            System.out.println("the child's open file descriptors while it measures, before the abuse: " + fds
                    + " of " + FD_LIMIT);
            long mostFds = fds;
            abusers.add(abuser("idle", () -> {
                for (int i = 0; i < 500 && !stop.get(); i++) {
                    Socket s = new Socket();
                    try {
                        s.connect(admin, 2000);
                    } catch (IOException refused) {
                        dropped.incrementAndGet(); // the abuser's loss, not the endpoint's failure
                        s.close();
                        continue;
                    }
                    held.add(s); // held open and silent to the end
                    Thread.sleep(1); // 500 in about a second: a flood of connections, not of CPU
                }
            }, failures, ended));
            abusers.add(abuser("slowloris", () -> {
                List<Socket> slow = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    Socket s = new Socket();
                    try {
                        s.connect(admin, 2000);
                    } catch (IOException refused) {
                        dropped.incrementAndGet();
                        s.close();
                        continue;
                    }
                    slow.add(s);
                    held.add(s);
                }
                byte[] head = "GET /metrics HTTP/1.1\r\nHost: a\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; !stop.get(); i++) {
                    for (Socket s : slow) {
                        try {
                            s.getOutputStream().write(i < head.length ? head[i] : 'a'); // never the head's end
                        } catch (IOException closedByTheEndpoint) {
                            // as it should be, once the header timeout has passed
                        }
                    }
                    Thread.sleep(100); // a byte per connection every 100 ms: the trickle is the abuse
                }
            }, failures, ended));
            abusers.add(abuser("garbage", () -> {
                Random random = new Random(46);
                String[] bad = {
                    "GET /\\..\\etc\\passwd HTTP/1.1\r\nHost: a\r\n\r\n",
                    "GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n",
                    "PUT /ratelimit/" + new String("\u0665\u0660\u0660\u0660".getBytes(StandardCharsets.UTF_8),
                            StandardCharsets.ISO_8859_1) + " HTTP/1.1\r\nHost: a\r\n\r\n",
                    "GET / HTTP/9.9\r\nHost: a\r\n\r\n",
                    "GET /\n\n",
                    "PUT /ratelimit/1e-9 HTTP/1.1\r\nHost: a\r\n\r\n",
                    "PUT /ratelimit/1e12 HTTP/1.1\r\nHost: a\r\n\r\n",
                    "PUT /ratelimit/get/0.000001 HTTP/1.1\r\nHost: a\r\n\r\n",
                    "DELETE /quitquitquit HTTP/1.1\r\nHost: a\r\n\r\n",
                };
                while (!stop.get()) {
                    for (String b : bad) {
                        asked.incrementAndGet();
                        Answer a;
                        try {
                            a = exchange(admin, b.getBytes(StandardCharsets.ISO_8859_1));
                        } catch (IOException refused) {
                            dropped.incrementAndGet();
                            continue;
                        }
                        if (a.status == -1 && a.body.isEmpty()) {
                            dropped.incrementAndGet(); // closed unanswered: replaced at the cap by a newer one
                        } else if (a.status < 400 || a.status >= 600 || !oneSentence(a.body)) {
                            failures.add(b.strip() + " -> " + a.status + " " + a.body.strip());
                        }
                    }
                    byte[] noise = new byte[200 + random.nextInt(2000)];
                    random.nextBytes(noise);
                    noise[noise.length - 4] = '\r';
                    noise[noise.length - 3] = '\n';
                    noise[noise.length - 2] = '\r';
                    noise[noise.length - 1] = '\n';
                    try {
                        exchange(admin, noise);
                    } catch (IOException refused) {
                        dropped.incrementAndGet();
                    }
                    Thread.sleep(50); // about 200 bad requests a second: a scanner, not a CPU hog on 2 cores
                }
            }, failures, ended));
            // a client that asks now and then: each GET on a fresh connection, timed
            List<Long> millis = new ArrayList<>();
            while (p.isAlive()) {
                long t0 = System.nanoTime();
                Answer a;
                try {
                    a = exchange(admin, "GET /vars HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                } catch (IOException refused) {
                    a = new Answer(-1, refused.toString());
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                if (a.status == -1 && ended.getAsBoolean()) {
                    break; // the run ended meanwhile, and its endpoint with it
                }
                assertEquals(200, a.status, "GET /vars during the abuse: " + a.body);
                millis.add(ms);
                mostFds = Math.max(mostFds, openFiles(p));
                Thread.sleep(50); // deliberate: the sampling period of the GETs timed during the abuse
            }
            stop.set(true);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the run ended");
            for (Thread t : abusers) {
                t.join(10_000);
            }
            String text = Files.readString(out);
            assertEquals(0, p.exitValue(), text);
            assertEquals(List.of(), failures, "bad requests answered otherwise than with a 4xx or 5xx and one sentence");
            assertFalse(text.contains("WARN") || text.contains("Exception") || text.contains("\tat "),
                    "nothing of the abuse in the output:\n" + text);

            JsonNode result = new ObjectMapper().readTree(json.toFile());
            StringBuilder windows = new StringBuilder();
            for (JsonNode w : result.get("windows")) {
                windows.append(w.get("number").asInt()).append(": ").append(w.get("rate").asDouble()).append("/s, ")
                        .append(w.get("connections")).append('\n');
            }
            assertEquals(WINDOWS, result.get("windows").size(), windows.toString());
            for (JsonNode w : result.get("windows")) {
                assertEquals(RATE, w.get("rate").asDouble(), RATE * 0.01, "each window within 1 %:\n" + windows);
                assertEquals(0, w.get("connections").get("failures").asLong(), "no load connection failed:\n" + windows);
            }
            JsonNode total = result.get("total");
            assertEquals(total.get("requests").asLong(), total.get("miss").asLong() + total.get("ok").asLong(),
                    "every request answered (no error, timeout or closed): " + total);
            for (JsonNode w : result.get("windows")) {
                assertEquals(RATE, w.get("workloads").get(0).get("targetRate").asDouble(),
                        "the tiny and the huge rate were refused: " + w.get("workloads"));
            }
            System.out.println("GETs on fresh connections during the abuse, ms: " + millis);
            System.out.println("the child's open file descriptors at most: " + mostFds + " of " + FD_LIMIT);
            // the load's 20 connections and the endpoint's 32 (and one being replaced), where the 520 abusers would take 520
            assertTrue(mostFds <= fds + 20 + 33 + 16, "the endpoint held its cap: " + mostFds + " descriptors, from " + fds);
            System.out.println("the abusers' connections refused, timed out or closed unanswered: " + dropped.get()
                    + "; bad requests sent: " + asked.get());
            // an abuser's connection may be replaced at the cap before its bytes are read (its loss), rarely
            assertTrue(dropped.get() <= asked.get() / 20 + 5, "most bad requests answered: " + dropped + " of " + asked);
            assertTrue(millis.size() >= 20, "GETs during the run: " + millis);
            assertTrue(millis.stream().allMatch(ms -> ms < 100), "every GET within 100 ms: " + millis);
        } finally {
            stop.set(true);
            p.destroyForcibly();
            for (Socket s : held) {
                s.close();
            }
        }
    }

    /** How many file descriptors process {@code p} has open now (0 once it has ended). */
    private static long openFiles(Process p) {
        try (var list = Files.list(Path.of("/proc", Long.toString(p.pid()), "fd"))) {
            return list.count();
        } catch (IOException | java.io.UncheckedIOException ended) {
            return 0;
        }
    }

    /** fluxperf in a child JVM whose file descriptors are limited to {@link #FD_LIMIT} (util-linux's prlimit). */
    private static Process child(Path output, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("prlimit", "--nofile=" + FD_LIMIT + ":" + FD_LIMIT, "--",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
                "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private interface Body {
        void run() throws Exception;
    }

    /** Runs {@code body} on a thread of its own; what fails once the run has ended (its endpoint closed) is no failure. */
    private static Thread abuser(String name, Body body, List<String> failures, java.util.function.BooleanSupplier ended) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                if (!ended.getAsBoolean()) {
                    failures.add(name + ": " + e);
                }
            }
        }, "abuse-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The run's report is out: it is ending, and its admin endpoint closes. */
    private static boolean reported(Path out) {
        try {
            return Files.readString(out).contains("Total:");
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean oneSentence(String body) {
        String b = body.strip();
        return b.endsWith(".") && !b.contains("\n") && !b.contains(". ") && !b.contains("Exception");
    }

    private record Answer(int status, String body) {
    }

    /** A request as raw bytes on a fresh connection, and the answer's status and body. */
    private static Answer exchange(InetSocketAddress to, byte[] request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(to, 2000);
            s.setSoTimeout(5000);
            try {
                s.getOutputStream().write(request);
            } catch (IOException closedEarly) {
                // the endpoint answered and closed before the rest was written; read what it said
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[8192];
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    got.write(buf, 0, n);
                    String text = got.toString(StandardCharsets.UTF_8);
                    int head = text.indexOf("\r\n\r\n");
                    Matcher m = Pattern.compile("(?i)content-length: *([0-9]+)").matcher(text);
                    if (head >= 0 && m.find() && got.size() >= head + 4 + Integer.parseInt(m.group(1))) {
                        break;
                    }
                }
            } catch (SocketTimeoutException | java.net.SocketException quietOrReset) {
                // judged on what arrived
            }
            String text = got.toString(StandardCharsets.UTF_8);
            String[] line = text.split("\r\n", 2)[0].split(" ");
            int status = line.length > 1 && line[0].startsWith("HTTP/") ? Integer.parseInt(line[1]) : -1;
            int head = text.indexOf("\r\n\r\n");
            return new Answer(status, head < 0 ? "" : text.substring(head + 4));
        }
    }

    private static InetSocketAddress awaitAdmin(Process p, Path out) throws Exception {
        return new InetSocketAddress("127.0.0.1", Integer.parseInt(AdminChild.awaitEndpoint(p, out).group(2)));
    }

    private static void awaitMeasuring(InetSocketAddress admin) {
        AdminChild.awaitMeasuring(() -> {
            Answer a = exchange(admin, "GET /metrics.json HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            return a.status == 200 ? a.body : null;
        });
    }
}
