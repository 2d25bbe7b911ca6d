package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's reply, a key or a log line holding terminal escape sequences never reaches the
 * terminal raw (issue 46, item 11): what quotes them escapes their control characters, so the
 * Errors line, a refusal, the replay's bad lines and its command names cannot clear the screen or
 * retitle the window.
 */
@ExtendWith(RealServers.class)
class EscapedTextTest {
    /** Clears the screen, retitles the window, rings the bell. */
    private static final String EVIL = "\u001b[2J\u001b]0;owned\u0007\u009b31m";
    private static final String ESCAPED = "\\x1b[2J\\x1b]0;owned\\x07\\x9b31m";

    @TempDir
    Path dir;
    private final List<AutoCloseable> servers = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable s : servers) {
            s.close();
        }
    }

    @Test
    void aGarbageReplyIsQuotedEscapedInTheErrorsLine() throws IOException {
        int port = answering(("VALUE " + EVIL + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        CliRun run = CliRun.of("run", "-s", "127.0.0.1:" + port, "--method", "get", "--requests", "20", "-c", "1",
                "-d", "3", "--no-live");
        assertRaw(run);
        String errors = run.line("Errors:");
        assertTrue(errors.contains("'VALUE " + ESCAPED + "'"), errors);
    }

    @Test
    void aRefusalQuotesTheServersWordsEscaped() throws IOException {
        int port = answering(("-WRONGPASS " + EVIL + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        CliRun run = CliRun.of("run", "--protocol", "redis", "--password", "secret", "-s", "127.0.0.1:" + port,
                "--method", "get", "-d", "1", "--no-live");
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertRaw(run);
        // the handshake's words are read as UTF-8, where the C1 byte alone is no character
        assertTrue(run.err().contains("WRONGPASS \\x1b[2J\\x1b]0;owned\\x07"), run.err());
    }

    @Test
    void aReplayedLogsBadLinesAndVerbsAreQuotedEscaped(MemcachedProcess memcached) throws IOException {
        Path log = dir.resolve("stream.txt");
        Files.writeString(log, "get a\r\nfrob" + EVIL + " a 1\r\nget b\r\n", StandardCharsets.ISO_8859_1);
        CliRun run = CliRun.of("replay", "-s", memcached.address(), "-l", log.toString(), "--format", "memcache-ascii",
                "--speed", "max", "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertRaw(run);
        // the reader lower-cases a command it does not know
        assertTrue(run.out().contains("unknown command 'frob" + ESCAPED.toLowerCase(java.util.Locale.ROOT) + "'"), run.out());
    }

    @Test
    void aMistakeQuotingTheUsersOwnWordsIsEscaped() {
        CliRun run = CliRun.of("run", "--method", "get" + EVIL);
        assertEquals(2, run.exitCode());
        assertRaw(run);
        assertTrue(run.err().contains(ESCAPED), run.err());
    }

    private static void assertRaw(CliRun run) {
        for (String text : List.of(run.out(), run.err())) {
            assertTrue(text.chars().noneMatch(c -> Character.isISOControl(c) && c != '\n'),
                    "no control character but line ends reaches the terminal:\n" + text);
        }
    }

    /** A server on a free loopback port that answers every read with {@code reply}. */
    private int answering(byte[] reply) throws IOException {
        ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        servers.add(socket);
        Thread accept = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    servers.add(s);
                    Thread serve = new Thread(() -> answer(s, reply), "evil-server-connection");
                    serve.setDaemon(true);
                    serve.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "evil-server");
        accept.setDaemon(true);
        accept.start();
        return socket.getLocalPort();
    }

    private static void answer(Socket s, byte[] reply) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            byte[] buffer = new byte[4096];
            while (in.read(buffer) > 0) {
                out.write(reply);
                out.flush();
            }
        } catch (IOException gone) {
            // the client closed: done
        }
    }
}
