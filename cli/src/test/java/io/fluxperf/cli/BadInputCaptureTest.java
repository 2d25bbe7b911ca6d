package io.fluxperf.cli;

import io.fluxperf.testkit.CaptureWriter;
import io.fluxperf.testkit.FreePorts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Bad packet captures and capture flags, to replay and to profile: one sentence that names the file
 * and the position (or the flag), exit code 2, never a stack trace, and nothing sent.
 */
class BadInputCaptureTest {
    private static final long T0 = 1_796_000_000_000_000_000L;

    @TempDir
    static Path dir;

    private static Path write(String name, byte[] bytes) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static CaptureWriter capture() {
        CaptureWriter w = new CaptureWriter();
        w.connection("10.0.0.7", 51234, "10.0.0.5", 11211).open(T0).send(T0 + 1_000_000, "get k\r\n")
                .reply(T0 + 2_000_000, "END\r\n");
        return w;
    }

    static Stream<Arguments> badCaptures() throws IOException {
        byte[] whole = capture().bytes();
        Path cutRecord = write("cut.pcap", Arrays.copyOf(whole, whole.length - 7));
        Path cutHeader = write("cut-header.pcap", Arrays.copyOf(whole, 13));
        byte[] usb = whole.clone();
        ByteBuffer.wrap(usb, 20, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(189);
        Path unknownLink = write("usb.pcap", usb);
        Path notACapture = write("notes.pcap", "these are my notes about the outage\n".getBytes());
        Path binaryJunk = write("junk.pcapng", new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8});
        CaptureWriter handshake = new CaptureWriter();
        handshake.connection("10.0.0.7", 51234, "10.0.0.5", 11211).open(T0);
        Path noRequests = write("empty-talk.pcap", handshake.bytes());
        CaptureWriter two = capture();
        two.connection("10.0.0.7", 51235, "10.0.0.6", 11211).open(T0).send(T0 + 1_000_000, "get j\r\n");
        Path twoServers = write("two.pcap", two.bytes());
        Path plain = write("capture.pcap", whole);
        Path text = write("watch.log", "ts=1700000000.000001 gid=1 type=item_get key=k status=not_found\n".getBytes());
        String server = "127.0.0.1:" + FreePorts.tcp();
        return Stream.of(
                Arguments.of(new String[] {"replay", "-s", server, "-l", cutRecord.toString()},
                        cutRecord + ": cut short at byte " + (whole.length - 7) + ", inside packet 5 (its record at byte "),
                Arguments.of(new String[] {"replay", "-s", server, "-l", cutHeader.toString()},
                        cutHeader + ": cut short at byte 13, inside the 24-byte pcap file header"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", unknownLink.toString()},
                        unknownLink + ": packet 1 (byte 24) has link type 189, which fluxperf does not read"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", notACapture.toString()},
                        notACapture + ": not a packet capture (it starts with 74 68 65 73, not the magic number of pcap"
                                + " or pcapng)"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", binaryJunk.toString()},
                        binaryJunk + ": not a packet capture (it starts with 00 01 02 03"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", plain.toString(), "--format", "pcap", "--times",
                        plain.toString()}, "--times: only a raw memcache stream"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", text.toString(), "--format", "pcap"},
                        text + ": not a packet capture (it starts with 74 73 3d 31"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", noRequests.toString()},
                        noRequests + ": the capture holds no TCP connection that carries a request (3 packets, 3 of them TCP)"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", twoServers.toString()},
                        twoServers + ": the capture holds requests to 2 servers: 10.0.0.5:11211 (1 command), 10.0.0.6:11211"
                                + " (1 command); pick one with --capture-server HOST:PORT (repeatable)"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", plain.toString(), "--capture-server", "10.0.0.9"},
                        "--capture-server: '10.0.0.9' is not HOST:PORT"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", plain.toString(), "--capture-server", "10.0.0.9:11211"},
                        "--capture-server 10.0.0.9:11211: " + plain + " holds no request to it; its servers are"
                                + " 10.0.0.5:11211 (1 connection)"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", text.toString(), "--capture-server", "10.0.0.5:11211"},
                        "--capture-server: picks servers of a packet capture, and " + text + " is memcache-watch"),
                Arguments.of(new String[] {"replay", "-s", server, "-l", plain.toString(), "--protocol", "gopher"},
                        "--protocol gopher: fluxperf does not read gopher from a packet capture"),
                // profile reads captures as replay does, and says so alike
                Arguments.of(new String[] {"profile", twoServers.toString()},
                        twoServers + ": the capture holds requests to 2 servers: 10.0.0.5:11211 (1 command), 10.0.0.6:11211"
                                + " (1 command); pick one with --capture-server HOST:PORT (repeatable)"),
                Arguments.of(new String[] {"profile", cutRecord.toString()},
                        cutRecord + ": cut short at byte " + (whole.length - 7) + ", inside packet 5 (its record at byte "),
                Arguments.of(new String[] {"profile", text.toString(), "--capture-server", "10.0.0.5:11211"},
                        "--capture-server: picks servers of a packet capture, and " + text + " is memcache-watch"));
    }

    @ParameterizedTest
    @MethodSource("badCaptures")
    void oneSentenceNamingTheFileAndThePositionAndExitTwo(String[] args, String sentence) {
        CliRun run = CliRun.of(args);
        assertEquals(2, run.exitCode(), "exit code; stdout: " + run.out() + " stderr: " + run.err());
        String first = run.err().lines().findFirst().orElse("");
        assertEquals(true, first.startsWith("fluxperf: " + sentence), "expected 'fluxperf: " + sentence + "…', got: " + run.err());
        assertEquals(1, run.err().lines().count(), "one sentence: " + run.err());
        assertFalse(run.err().contains("\tat ") || run.err().contains("Exception"), "no stack trace: " + run.err());
        assertEquals("", run.out(), "nothing replayed, no report");
    }
}
