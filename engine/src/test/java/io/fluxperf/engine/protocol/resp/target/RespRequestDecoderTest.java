package io.fluxperf.engine.protocol.resp.target;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server's request framing: a pipeline of multibulk and inline commands split at every byte, and fuzzed input. */
class RespRequestDecoderTest {
    private static final String PIPELINE = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$7\r\nhe\r\nllo\r\n"
            + "PING\r\n"
            + "*0\r\n"
            + "*2\r\n$4\r\nECHO\r\n$0\r\n\r\n"
            + "  GET  \"a b\\x21\"  'c\\'d' \n"
            + "\r\n"
            + "*1\r\n$4\r\nQUIT\r\n";
    private static final List<List<String>> COMMANDS = List.of(List.of("SET", "k", "he\r\nllo"), List.of("PING"),
            List.of("ECHO", ""), List.of("GET", "a b!", "c'd"), List.of("QUIT"));

    /** Collects commands as word lists, and protocol errors. */
    private static final class Recorder implements RespRequestDecoder.Sink {
        final List<List<String>> commands = new ArrayList<>();
        final List<String> errors = new ArrayList<>();

        @Override
        public void onCommand(RespArgs args, RespRequestDecoder decoder) {
            List<String> words = new ArrayList<>();
            for (int i = 0; i < args.count(); i++) {
                words.add(args.text(i));
            }
            commands.add(words);
        }

        @Override
        public void onProtocolError(String message) {
            errors.add(message);
        }

        @Override
        public boolean authRequired() {
            return false;
        }
    }

    private static Recorder feed(byte[] bytes, int... splits) {
        RespRequestDecoder d = new RespRequestDecoder();
        Recorder r = new Recorder();
        ByteBuf cumulation = Unpooled.buffer();
        int from = 0;
        for (int i = 0; i <= splits.length; i++) {
            int to = i < splits.length ? splits[i] : bytes.length;
            cumulation.writeBytes(bytes, from, to - from);
            d.decode(cumulation, r);
            cumulation.discardReadBytes();
            from = to;
        }
        return r;
    }

    @Test
    void framesThePipelineWhole() {
        Recorder r = feed(PIPELINE.getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(List.of(), r.errors);
        assertEquals(COMMANDS, r.commands);
    }

    @Test
    void framesThePipelineSplitAtEveryByteAndByteByByte() {
        byte[] bytes = PIPELINE.getBytes(StandardCharsets.ISO_8859_1);
        for (int split = 1; split < bytes.length; split++) {
            Recorder r = feed(bytes, split);
            assertEquals(COMMANDS, r.commands, "split at " + split);
            assertEquals(List.of(), r.errors);
        }
        int[] every = new int[bytes.length - 1];
        for (int i = 0; i < every.length; i++) {
            every[i] = i + 1;
        }
        assertEquals(COMMANDS, feed(bytes, every).commands);
    }

    @Test
    void fuzzedInputEndsInCommandsOrOneProtocolErrorNeverAnExceptionOrAHang() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            Random random = new Random(7);
            byte[] alphabet = "*$\r\n0123456789-abc \"'\\x".getBytes(StandardCharsets.ISO_8859_1);
            byte[] valid = PIPELINE.getBytes(StandardCharsets.ISO_8859_1);
            for (int round = 0; round < 20_000; round++) {
                byte[] input;
                if (round % 2 == 0) {
                    input = new byte[1 + random.nextInt(60)];
                    for (int i = 0; i < input.length; i++) {
                        input[i] = random.nextInt(6) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
                    }
                } else {
                    input = valid.clone();
                    for (int m = 0; m < 1 + random.nextInt(3); m++) {
                        input[random.nextInt(input.length)] = alphabet[random.nextInt(alphabet.length)];
                    }
                }
                int[] splits = random.ints(random.nextInt(4), 1, input.length + 1).sorted().distinct().toArray();
                Recorder r = feed(input, splits);
                assertTrue(r.errors.size() <= 1, "the decoder stops at the first protocol error");
            }
        });
    }
}
