package io.fluxperf.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * A real redis-server on a free 127.0.0.1 port, without persistence, in its own temporary
 * directory; with a tiny blocking RESP client ({@link Client}) to read its own counters (INFO
 * commandstats, keyspace_hits, …) and to talk to any redis-speaking server in tests, and a
 * MONITOR capture ({@link Monitor}) that records lines exactly as {@code redis-cli monitor} prints them.
 */
public final class RedisProcess extends ExternalServer {
    private final Path dir;
    private final String password;

    private RedisProcess(List<String> command, int port, Path dir, String password) {
        super("redis-server", command, port);
        this.dir = dir;
        this.password = password;
    }

    /** {@code redis-server --port P --bind 127.0.0.1 --save '' --appendonly no --dir TMP}, plus {@code extraArgs}. */
    public static RedisProcess start(String... extraArgs) {
        return startWithPassword(null, extraArgs);
    }

    /** As {@link #start(String...)} with {@code --requirepass password} (null: none). */
    public static RedisProcess startWithPassword(String password, String... extraArgs) {
        return startOn(FreePorts.tcp(), password, extraArgs);
    }

    /** As {@link #startWithPassword} on {@code port} (a cluster node names its bus port relative to it). */
    public static RedisProcess startOn(int port, String password, String... extraArgs) {
        Path dir;
        try {
            dir = Files.createTempDirectory("fluxperf-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = new ArrayList<>(List.of(executable("redis-server"), "--port", Integer.toString(port),
                "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString()));
        if (password != null) {
            command.addAll(List.of("--requirepass", password));
        }
        command.addAll(List.of(extraArgs));
        RedisProcess server = new RedisProcess(command, port, dir, password);
        server.awaitTcp(10_000);
        return server;
    }

    /** A new connection, authenticated when the server has a password. The caller closes it. */
    public Client client() {
        Client c = Client.connect(port());
        if (password != null) {
            c.command("AUTH", password);
        }
        return c;
    }

    /** Starts recording MONITOR output on a connection of its own; {@link Monitor#close()} stops. */
    public Monitor monitor() {
        return new Monitor(client());
    }

    /** One command on a new connection; the decoded reply (see {@link Client#read()}). */
    public Object command(String... words) {
        try (Client c = client()) {
            return c.command(words);
        }
    }

    /** The text of {@code INFO section}. */
    public String info(String section) {
        try (Client c = client()) {
            return c.info(section);
        }
    }

    /** {@code INFO} fields of a section as a map (e.g. keyspace_hits → 12). */
    public Map<String, String> infoFields(String section) {
        return Client.fields(info(section));
    }

    /** A counter of {@code INFO stats}, e.g. keyspace_hits. */
    public long stat(String name) {
        return Long.parseLong(infoFields("stats").get(name));
    }

    /** Calls per command from {@code INFO commandstats} (e.g. get → 100). */
    public Map<String, Long> commandstats() {
        try (Client c = client()) {
            return c.commandstats();
        }
    }

    /** Its temporary directory (a cluster node keeps its nodes.conf there). */
    public Path dir() {
        return dir;
    }

    @Override
    public void close() {
        super.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a leftover empty temp directory is harmless
        }
    }

    /**
     * MONITOR on its own connection: {@link #lines()} are the lines redis-cli prints for it after
     * its "OK" (each a status reply: the time, the database and client, the quoted command).
     */
    public static final class Monitor implements AutoCloseable {
        private final Client client;
        private final List<String> lines = new CopyOnWriteArrayList<>();
        private final Thread reader;

        private Monitor(Client client) {
            this.client = client;
            Object ok = client.command("MONITOR");
            if (!new Simple("OK").equals(ok)) {
                client.close();
                throw new IllegalStateException("MONITOR answered " + ok);
            }
            try {
                client.socket.setSoTimeout(0); // a quiet server is no failure: the capture waits until close()
            } catch (IOException e) {
                client.close();
                throw new UncheckedIOException(e);
            }
            reader = new Thread(() -> {
                try {
                    while (true) {
                        Object line = client.read();
                        lines.add(line instanceof Simple s ? s.text() : String.valueOf(line));
                    }
                } catch (RuntimeException closed) {
                    // the connection closed: the capture ends
                }
            }, "redis-monitor");
            reader.setDaemon(true);
            reader.start();
        }

        /** The lines captured so far. */
        public List<String> lines() {
            return List.copyOf(lines);
        }

        /** The lines once at least {@code n} were captured; fails after {@code timeout}. */
        public List<String> await(int n, Duration timeout) {
            Awaitility.await("MONITOR lines: " + n).atMost(timeout).pollInterval(Duration.ofMillis(10))
                    .until(lines::size, size -> size >= n);
            return lines();
        }

        /** Writes the capture as redis-cli's output: "OK", then one line per command. */
        public void writeTo(Path file) throws IOException {
            StringBuilder b = new StringBuilder("OK\n");
            for (String l : lines()) {
                b.append(l).append('\n');
            }
            Files.writeString(file, b, StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() {
            client.close();
            try {
                reader.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // ---- replies as Java values ----

    /** An error reply ({@code -…} or RESP3 {@code !…}). */
    public record Err(String message) {
    }

    /** A simple string ({@code +OK}). */
    public record Simple(String text) {
    }

    /** A RESP2 or RESP3 null. */
    public enum Nil { NIL }

    /** A RESP3 double, kept as its text. */
    public record Dbl(String text) {
    }

    /** A RESP3 verbatim string. */
    public record Verbatim(String format, String text) {
    }

    /** A RESP3 set (elements in wire order). */
    public record RespSet(List<Object> elements) {
    }

    /** A RESP3 push. */
    public record Push(List<Object> elements) {
    }

    /**
     * A blocking RESP2/RESP3 client on one connection, for tests. Bulk strings decode to String
     * (ISO-8859-1, byte for byte), integers to Long, arrays to List, maps to LinkedHashMap, RESP3
     * booleans to Boolean and big numbers to BigInteger; attributes are skipped.
     */
    public static final class Client implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        private Client(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream());
            this.out = socket.getOutputStream();
        }

        public static Client connect(int port) {
            try {
                Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
                s.setSoTimeout(5_000);
                s.setTcpNoDelay(true);
                return new Client(s);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot connect to 127.0.0.1:" + port, e);
            }
        }

        /** Sends the words as a RESP array of bulk strings and reads the reply. */
        public Object command(String... words) {
            send(encode(words));
            return read();
        }

        /** Several commands in one write (pipelined); their replies in order. */
        public List<Object> pipeline(List<String[]> commands) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (String[] c : commands) {
                all.writeBytes(encode(c));
            }
            send(all.toByteArray());
            List<Object> replies = new ArrayList<>();
            for (int i = 0; i < commands.size(); i++) {
                replies.add(read());
            }
            return replies;
        }

        public static byte[] encode(String... words) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.writeBytes(("*" + words.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            for (String w : words) {
                byte[] bytes = w.getBytes(StandardCharsets.ISO_8859_1);
                b.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
                b.writeBytes(bytes);
                b.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            return b.toByteArray();
        }

        public void send(byte[] bytes) {
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        public String info(String section) {
            Object reply = command("INFO", section);
            if (reply instanceof Verbatim v) {
                return v.text();
            }
            if (reply instanceof String s) {
                return s;
            }
            throw new IllegalStateException("INFO " + section + " answered " + reply);
        }

        public Map<String, Long> commandstats() {
            Map<String, Long> calls = new LinkedHashMap<>();
            for (Map.Entry<String, String> f : fields(info("commandstats")).entrySet()) {
                if (f.getKey().startsWith("cmdstat_")) {
                    String v = f.getValue();
                    int from = v.indexOf("calls=") + 6;
                    calls.put(f.getKey().substring(8), Long.parseLong(v.substring(from, v.indexOf(',', from))));
                }
            }
            return calls;
        }

        public static Map<String, String> fields(String info) {
            Map<String, String> m = new LinkedHashMap<>();
            for (String line : info.split("\r\n")) {
                int colon = line.indexOf(':');
                if (!line.startsWith("#") && colon > 0) {
                    m.put(line.substring(0, colon), line.substring(colon + 1));
                }
            }
            return m;
        }

        /** Whether the server closed the connection (reads end of stream within the socket timeout). */
        public boolean closedByServer() {
            try {
                return in.read() < 0;
            } catch (IOException e) {
                return true;
            }
        }

        /** Reads one reply. */
        public Object read() {
            try {
                Object v;
                do {
                    v = readValue();
                } while (v == Attribute.SKIPPED);
                return v;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private enum Attribute { SKIPPED }

        private Object readValue() throws IOException {
            int type = in.read();
            if (type < 0) {
                throw new EOFException("the server closed the connection");
            }
            String line = line();
            switch (type) {
                case '+':
                    return new Simple(line);
                case '-':
                    return new Err(line);
                case ':':
                    return Long.parseLong(line);
                case '_':
                    return Nil.NIL;
                case '#':
                    return line.equals("t");
                case ',':
                    return new Dbl(line);
                case '(':
                    return new BigInteger(line);
                case '$':
                case '=':
                case '!': {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return Nil.NIL;
                    }
                    byte[] b = in.readNBytes(n);
                    if (b.length < n) {
                        throw new EOFException("bulk string cut short");
                    }
                    line();
                    String s = new String(b, StandardCharsets.ISO_8859_1);
                    return type == '$' ? s : type == '!' ? new Err(s) : new Verbatim(s.substring(0, 3), s.substring(4));
                }
                case '*':
                case '~':
                case '>': {
                    int n = Integer.parseInt(line);
                    if (n < 0) {
                        return Nil.NIL;
                    }
                    List<Object> items = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        items.add(read());
                    }
                    return type == '*' ? items : type == '~' ? new RespSet(items) : new Push(items);
                }
                case '%': {
                    int n = Integer.parseInt(line);
                    Map<Object, Object> map = new LinkedHashMap<>();
                    for (int i = 0; i < n; i++) {
                        Object k = read();
                        map.put(k, read());
                    }
                    return map;
                }
                case '|': {
                    int n = Integer.parseInt(line);
                    for (int i = 0; i < 2 * n; i++) {
                        read();
                    }
                    return Attribute.SKIPPED;
                }
                default:
                    throw new IOException("not a RESP type byte: " + (char) type + line);
            }
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0) {
                if (c == '\r') {
                    int lf = in.read();
                    if (lf == '\n') {
                        return b.toString(StandardCharsets.ISO_8859_1);
                    }
                    b.write(c);
                    c = lf;
                }
                b.write(c);
            }
            throw new EOFException("the server closed the connection mid-line");
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
