package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.OutcomeCounts;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client against servers that answer what a test scripts (plain sockets, a thread per
 * connection): responses delimited by the close, bytes that are no response, and a response
 * dribbled out a byte at a time.
 */
class HttpLoadRunScriptedServerTest {
    private ScriptedServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    /** Answers every request with {@code response}; closes after it when asked; writes it in pieces of {@code piece} bytes. */
    static final class ScriptedServer implements AutoCloseable {
        private final ServerSocket socket;
        private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-http");
            t.setDaemon(true);
            return t;
        });

        ScriptedServer(byte[] response, boolean closeAfter, int piece, long pauseMillis) throws IOException {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            threads.execute(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        s.setTcpNoDelay(true);
                        threads.execute(() -> serve(s, response, closeAfter, piece, pauseMillis));
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
        }

        private static void serve(Socket s, byte[] response, boolean closeAfter, int piece, long pauseMillis) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                while (readHead(in)) {
                    for (int i = 0; i < response.length; i += piece) {
                        out.write(response, i, Math.min(piece, response.length - i));
                        out.flush();
                        if (pauseMillis > 0) {
                            Thread.sleep(pauseMillis); // deliberate: a slow server dribbles its reply out, piece by piece
                        }
                    }
                    if (closeAfter) {
                        return;
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the client went away
            }
        }

        /** Reads one request head (GETs have no body); false at the end of the stream. */
        private static boolean readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) >= 0) {
                head.write(c);
                byte[] b = head.toByteArray();
                int n = b.length;
                if (n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n') {
                    return true;
                }
            }
            return false;
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), socket.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            socket.close();
            threads.shutdownNow();
            try {
                threads.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static LoadRun loadRun(int connections, long requests) {
        WorkloadConfig get = WorkloadConfig.of(Command.GET).withTemplate(CommandTemplate.word("/scripted/__key__"));
        RunConfig config = RunConfig.builder().protocol("http").threads(1).connections(connections).pipeline(1)
                .duration(Duration.ofSeconds(20)).windows(1).timeout(Duration.ofSeconds(2)).tcpNoDelay(true)
                .requests(requests).seed(3).workload(get).build();
        return new LoadRun(config, new RunListener() { });
    }

    private static OutcomeCounts outcomes(RunResult result) {
        OutcomeCounts o = result.total().total().outcomes();
        assertEquals(o.requests(), o.ok() + o.miss() + o.error() + o.timeout() + o.closed(), "outcomes add up");
        return o;
    }

    @Test
    void aBodyDelimitedByTheCloseEndsWithTheConnectionNeverAsAnError() throws IOException {
        server = new ScriptedServer("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nthe body ends when the server closes"
                .getBytes(StandardCharsets.US_ASCII), true, 1 << 16, 0);
        LoadRun run = loadRun(2, 20);
        OutcomeCounts o = outcomes(run.execute(server.address(), "scripted"));
        assertEquals(20, o.requests());
        // OK once the engine reports the end of the stream to the codec (HttpClientCodec.decodeAtEnd); CLOSED until then
        assertEquals(20, o.ok() + o.closed());
        assertEquals(0, o.error() + o.timeout());
        assertEquals(0, run.errors().protocolErrors(), run.errors().summary());
    }

    @Test
    void bytesThatAreNoResponseAreErrorsAndTheConnectionIsRenewed() throws IOException {
        server = new ScriptedServer("VALUE 0001 0 5\r\nhello\r\nEND\r\n".getBytes(StandardCharsets.US_ASCII), false, 1 << 16, 0);
        LoadRun run = loadRun(2, 10);
        OutcomeCounts o = outcomes(run.execute(server.address(), "scripted"));
        assertEquals(10, o.requests());
        assertEquals(0, o.ok());
        assertTrue(o.error() >= 2, "errors " + o.error());
        assertTrue(run.errors().summary().contains("malformed HTTP status line"), run.errors().summary());
    }

    @Test
    void aResponseDribbledOutAByteAtATimeIsReadWhole() throws IOException {
        String response = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nServer: slow\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "4\r\nslow\r\n6;x=1\r\n body\r\n0\r\nX-Done: yes\r\n\r\n";
        server = new ScriptedServer(response.getBytes(StandardCharsets.US_ASCII), false, 1, 1);
        OutcomeCounts o = outcomes(loadRun(2, 6).execute(server.address(), "scripted"));
        assertEquals(6, o.ok());
    }
}
