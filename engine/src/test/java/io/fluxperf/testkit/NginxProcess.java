package io.fluxperf.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real nginx (1.22, /usr/sbin/nginx) on a free 127.0.0.1 port, from a config generated in a
 * temporary directory that also holds its pid file, logs, temp paths and a 100-byte
 * {@code /small.txt} (the peers' benchmark file). One process ({@code master_process off}), one
 * worker's worth of connections, keep-alive for a million requests per connection.
 *
 * <p>What it proves: its access log has one line per request in the format
 * {@code $connection $connection_requests $request $status} ({@link #accessLog()}), so a test can
 * count requests and tell which came on which connection; {@code GET /status} is nginx's
 * {@code stub_status} ({@link #stubStatus()}).
 */
public final class NginxProcess extends ExternalServer {
    /** The static file's size, as the peers' small.txt. */
    public static final int SMALL_BYTES = 100;
    private static final Pattern LOG_LINE = Pattern.compile("^(\\d+) (\\d+) (.*) (\\d{3})$");

    private final Path dir;

    /** One access-log line: nginx's connection serial number, the request's number on it, the request line, the status. */
    public record Access(long connection, long connectionRequest, String request, int status) {
        public String method() {
            int space = request.indexOf(' ');
            return space < 0 ? request : request.substring(0, space);
        }

        public String path() {
            String[] parts = request.split(" ");
            return parts.length > 1 ? parts[1] : "";
        }
    }

    private NginxProcess(List<String> command, int port, Path dir) {
        super("nginx", command, port);
        this.dir = dir;
    }

    public static NginxProcess start() {
        int port = FreePorts.tcp();
        Path dir;
        try {
            dir = Files.createTempDirectory("fluxperf-nginx-");
            Files.createDirectories(dir.resolve("html"));
            Files.createDirectories(dir.resolve("tmp"));
            Files.write(dir.resolve("html/small.txt"), "a".repeat(SMALL_BYTES).getBytes(StandardCharsets.US_ASCII));
            Files.writeString(dir.resolve("html/index.html"), "<html><body>fluxperf test nginx</body></html>\n");
            Files.writeString(dir.resolve("nginx.conf"), config(dir, port));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the nginx config", e);
        }
        List<String> command = List.of(executable("nginx"), "-p", dir + "/", "-c", dir.resolve("nginx.conf").toString(),
                "-e", dir.resolve("error.log").toString());
        NginxProcess nginx = new NginxProcess(command, port, dir);
        nginx.awaitTcp(10_000);
        return nginx;
    }

    private static String config(Path dir, int port) {
        String user = "root".equals(System.getProperty("user.name")) ? "user root;\n" : "";
        return user
                + "daemon off;\n"
                + "master_process off;\n"
                + "worker_processes 1;\n"
                + "pid " + dir.resolve("nginx.pid") + ";\n"
                + "error_log " + dir.resolve("error.log") + " warn;\n"
                + "events { worker_connections 4096; }\n"
                + "http {\n"
                + "  default_type text/plain;\n"
                + "  log_format fluxperf '$connection $connection_requests $request $status';\n"
                + "  access_log " + dir.resolve("access.log") + " fluxperf;\n"
                + "  client_body_temp_path " + dir.resolve("tmp/body") + ";\n"
                + "  proxy_temp_path " + dir.resolve("tmp/proxy") + ";\n"
                + "  fastcgi_temp_path " + dir.resolve("tmp/fastcgi") + ";\n"
                + "  uwsgi_temp_path " + dir.resolve("tmp/uwsgi") + ";\n"
                + "  scgi_temp_path " + dir.resolve("tmp/scgi") + ";\n"
                + "  keepalive_requests 1000000;\n"
                + "  keepalive_timeout 75s;\n"
                + "  server {\n"
                + "    listen 127.0.0.1:" + port + " backlog=4096;\n"
                + "    root " + dir.resolve("html") + ";\n"
                + "    location / { }\n"
                + "    location = /status { stub_status; }\n"
                + "  }\n"
                + "}\n";
    }

    /** The access log so far, one entry per finished request (the {@code /status} reads included). */
    public List<Access> accessLog() {
        List<Access> entries = new ArrayList<>();
        Path log = dir.resolve("access.log");
        if (!Files.exists(log)) {
            return entries;
        }
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
                Matcher m = LOG_LINE.matcher(line);
                if (m.matches()) {
                    entries.add(new Access(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), m.group(3),
                            Integer.parseInt(m.group(4))));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    /**
     * The access log's entries for which {@code path} is the request path, once there are at least
     * {@code count} (nginx writes a line after it sent the response, so the last ones may lag), or
     * the ones there are after {@code timeoutMillis}: the test's own assertion then says what is missing.
     */
    public List<Access> awaitAccessLog(String path, long count, long timeoutMillis) {
        try {
            Awaitility.await().atMost(Duration.ofMillis(timeoutMillis)).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(20)).until(() -> entries(path).size() >= count);
        } catch (ConditionTimeoutException fewer) {
            // fewer than asked for: returned as they are
        }
        return entries(path);
    }

    private List<Access> entries(String path) {
        return accessLog().stream().filter(a -> a.path().equals(path)).toList();
    }

    /** The entries whose path starts with {@code prefix}, once two looks at the log 200 ms apart found no new line. */
    public List<Access> settledAccessLog(String prefix) {
        int[] last = {-1};
        Awaitility.await("nginx's access log settled").atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    int size = accessLog().size();
                    boolean settled = size == last[0];
                    last[0] = size;
                    return settled;
                });
        return accessLog().stream().filter(a -> a.path().startsWith(prefix)).toList();
    }

    /**
     * nginx's {@code stub_status}: active, accepts, handled, requests, reading, writing, waiting
     * (this read itself counts as one request and one active connection).
     */
    public Map<String, Long> stubStatus() {
        String text = get("/status");
        Matcher m = Pattern.compile("Active connections: (\\d+)\\s+server accepts handled requests\\s+(\\d+) (\\d+) (\\d+)"
                + "\\s+Reading: (\\d+) Writing: (\\d+) Waiting: (\\d+)").matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("unexpected stub_status reply: " + text);
        }
        Map<String, Long> s = new LinkedHashMap<>();
        String[] names = {"active", "accepts", "handled", "requests", "reading", "writing", "waiting"};
        for (int i = 0; i < names.length; i++) {
            s.put(names[i], Long.parseLong(m.group(i + 1)));
        }
        return s;
    }

    /** A GET over its own connection ({@code Connection: close}); returns the whole response as text. */
    public String get(String path) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException("nginx on " + address() + " did not answer GET " + path, e);
        }
    }

    public Path directory() {
        return dir;
    }

    @Override
    public String logText() {
        try {
            Path error = dir.resolve("error.log");
            return super.logText() + (Files.exists(error) ? Files.readString(error) : "");
        } catch (IOException e) {
            return super.logText();
        }
    }

    @Override
    public void close() {
        super.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // a leftover temp directory is harmless
        }
    }
}
