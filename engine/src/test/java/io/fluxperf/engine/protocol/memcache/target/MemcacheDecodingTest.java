package io.fluxperf.engine.protocol.memcache.target;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request decoder is a resumable state machine: a pipelined batch gives the same replies
 * whether it arrives in one read, split at any byte, or a byte at a time; multi-megabyte values
 * may arrive in many reads; bad input never throws. Runs the real connection handler on Netty's
 * EmbeddedChannel, so each split is an exact sequence of reads.
 */
class MemcacheDecodingTest {
    private final List<EmbeddedChannel> channels = new ArrayList<>();

    @AfterEach
    void closeChannels() {
        for (EmbeddedChannel c : channels) {
            c.finishAndReleaseAll();
        }
    }

    /** Every command kind, values holding CR and LF, noreply, errors, a bad data chunk, bare-LF lines. */
    private static byte[] pipelinedBatch() {
        String value5000 = "v".repeat(4000) + "\r\n" + "w".repeat(998);
        String batch = "set a 1 0 5\r\nhello\r\n"
                + "set crlf 2 0 6\r\nab\r\ncd\r\n"
                + "set big 3 0 5000\r\n" + value5000 + "\r\n"
                + "get a crlf big missing\r\n"
                + "gets a\r\n"
                + "add a 0 0 1\r\nx\r\n"
                + "append a 0 0 3\r\n!!!\r\n"
                + "prepend a 0 0 1 noreply\r\n>\r\n"
                + "cas a 0 0 1 1\r\nz\r\n"
                + "cas a 0 0 1 5\r\nz\r\n"
                + "set n 0 0 2\r\n41\r\n"
                + "incr n 1\r\n"
                + "decr n 100\r\n"
                + "incr n 1 noreply\r\n"
                + "touch a 100\r\n"
                + "gat 0 a n\r\n"
                + "delete crlf\r\n"
                + "delete crlf\r\n"
                + "bogus command\r\n"
                + "set bad 0 0 2\r\nabc\r\n"
                + "get " + "k".repeat(251) + "\r\n"
                + "set lf 0 0 2\nok\r\nget lf\n"
                + "\r\n"
                + "version\r\n"
                + "verbosity 1 noreply\r\n"
                + "get a n lf\r\n";
        return batch.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void aPipelinedBatchGivesTheSameRepliesSplitAtEveryByte() {
        byte[] batch = pipelinedBatch();
        String expected = feed(List.of(batch));
        assertTrue(expected.startsWith("STORED\r\nSTORED\r\nSTORED\r\nVALUE a 1 5\r\nhello\r\nVALUE crlf 2 6\r\nab\r\ncd\r\n"),
                expected.substring(0, 100));
        assertTrue(expected.endsWith("VERSION " + MemcacheReplies.VERSION + "\r\nVALUE a 0 1\r\nz\r\nVALUE n 0 2\r\n1 \r\n"
                + "VALUE lf 0 2\r\nok\r\nEND\r\n"), expected);
        assertTrue(expected.contains("CLIENT_ERROR bad data chunk\r\nERROR\r\n"));
        for (int split = 1; split < batch.length; split++) {
            int at = split;
            String got = feed(List.of(Arrays.copyOfRange(batch, 0, at), Arrays.copyOfRange(batch, at, batch.length)));
            assertEquals(expected, got, () -> "split at byte " + at);
        }
    }

    /** Meta commands among text ones: data blocks with CR and LF, quiet mode, errors whose data is swallowed. */
    @Test
    void aPipelinedMetaBatchGivesTheSameRepliesSplitAtEveryByte() {
        byte[] batch = ("ms a 6 T0 F3\r\nab\r\ncd\r\n"
                + "mg a v f s k O7\r\n"
                + "mg missing v q O8\r\n"
                + "ms b 2 ME q\r\nbb\r\n"
                + "ms b 2 ME q O9\r\nbb\r\n"
                + "ms c 3 MX\r\nabc\r\n"
                + "ma n N0 J5 v\r\n"
                + "ma n MD D2 v q\r\n"
                + "md b q\r\n"
                + "me a\r\n"
                + "get a\r\n"
                + "mn\r\n").getBytes(StandardCharsets.ISO_8859_1);
        String expected = feed(List.of(batch));
        assertEquals("HD\r\nVA 6 f3 s6 ka O7\r\nab\r\ncd\r\nNS O9\r\nCLIENT_ERROR invalid mode for ms M token\r\n"
                + "VA 1\r\n5\r\n", expected.substring(0, expected.indexOf("ME a ")));
        assertTrue(expected.endsWith("VALUE a 3 6\r\nab\r\ncd\r\nEND\r\nMN\r\n"), expected);
        for (int split = 1; split < batch.length; split++) {
            int at = split;
            String got = feed(List.of(Arrays.copyOfRange(batch, 0, at), Arrays.copyOfRange(batch, at, batch.length)));
            assertEquals(expected, got, () -> "split at byte " + at);
        }
    }

    @Test
    void aPipelinedBatchGivesTheSameRepliesOneByteAtATimeAndInRandomPieces() {
        byte[] batch = pipelinedBatch();
        String expected = feed(List.of(batch));
        List<byte[]> bytes = new ArrayList<>();
        for (byte b : batch) {
            bytes.add(new byte[] {b});
        }
        assertEquals(expected, feed(bytes));
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            List<byte[]> pieces = new ArrayList<>();
            int i = 0;
            while (i < batch.length) {
                int n = Math.min(batch.length - i, 1 + random.nextInt(64));
                pieces.add(Arrays.copyOfRange(batch, i, i + n));
                i += n;
            }
            assertEquals(expected, feed(pieces), "random pieces, round " + round);
        }
    }

    @Test
    void aMultiMegabyteValueArrivesInManyReadsAndComesBackWhole() {
        byte[] value = new byte[3 << 20];
        new Random(7).nextBytes(value);
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.writeBytes(("set blob 0 0 " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(value);
        request.writeBytes("\r\nget blob\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] all = request.toByteArray();
        List<byte[]> reads = new ArrayList<>();
        for (int i = 0; i < all.length; i += 1500) {
            reads.add(Arrays.copyOfRange(all, i, Math.min(all.length, i + 1500)));
        }
        byte[] reply = feedBytes(reads);
        byte[] head = ("STORED\r\nVALUE blob 0 " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(head, Arrays.copyOf(reply, head.length));
        assertArrayEquals(value, Arrays.copyOfRange(reply, head.length, head.length + value.length));
        assertEquals("\r\nEND\r\n", new String(reply, head.length + value.length, reply.length - head.length - value.length,
                StandardCharsets.US_ASCII));
    }

    @Test
    void aMultiGetOfManyLargeValuesStreamsOutWhole() {
        StringBuilder request = new StringBuilder();
        StringBuilder expected = new StringBuilder();
        StringBuilder get = new StringBuilder("get");
        for (int i = 0; i < 12; i++) {
            String v = Integer.toString(i).repeat(100_000 / Integer.toString(i).length());
            request.append("set v").append(i).append(" 0 0 ").append(v.length()).append("\r\n").append(v).append("\r\n");
            expected.append("STORED\r\n");
            get.append(" v").append(i);
        }
        for (int i = 0; i < 12; i++) {
            String v = Integer.toString(i).repeat(100_000 / Integer.toString(i).length());
            expected.append("VALUE v").append(i).append(" 0 ").append(v.length()).append("\r\n").append(v).append("\r\n");
        }
        expected.append("END\r\nCLIENT_ERROR bad command line format\r\n");
        request.append(get).append("\r\n").append(get).append(' ').append("k".repeat(251)).append("\r\n");
        byte[] bytes = request.toString().getBytes(StandardCharsets.US_ASCII);
        EmbeddedChannel ch = channel();
        ch.writeInbound(Unpooled.wrappedBuffer(bytes));
        ch.runPendingTasks();
        List<String> writes = new ArrayList<>();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            writes.add(b.toString(StandardCharsets.US_ASCII));
            b.release();
        }
        assertEquals(expected.toString(), String.join("", writes));
        assertTrue(writes.size() > 1, "a reply of more than " + MemcacheCommandProcessor.EARLY_WRITE_BYTES
                + " bytes should go out in several writes, not one buffer");
    }

    @Test
    void anUnfinishedLineLongerThanMemcachedsLimitClosesTheConnectionAtAnySplit() {
        byte[] line = ("set " + "x".repeat(3000)).getBytes(StandardCharsets.US_ASCII);
        for (int split : new int[] {1, 100, 2047, 2048, 2049, 2500}) {
            EmbeddedChannel ch = channel();
            ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOf(line, split)));
            ch.runPendingTasks();
            assertEquals(split <= MemcacheRequestDecoder.MAX_LINE, ch.isOpen(), "after the first " + split + " bytes");
            if (ch.isOpen()) {
                ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(line, split, line.length)));
                ch.runPendingTasks();
            }
            assertFalse(ch.isOpen(), "split " + split);
        }
        // a multi-key get may be longer, and still gets its answer
        StringBuilder get = new StringBuilder("get");
        for (int i = 0; i < 1000; i++) {
            get.append(" key").append(i);
        }
        byte[] getLine = (get + "\r\n").getBytes(StandardCharsets.US_ASCII);
        EmbeddedChannel ch = channel();
        for (int i = 0; i < getLine.length; i += 1000) {
            ch.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(getLine, i, Math.min(getLine.length, i + 1000))));
        }
        assertEquals("END\r\n", drain(ch));
        assertTrue(ch.isOpen());
    }

    @Test
    void quitClosesAfterTheRepliesBeforeIt() {
        EmbeddedChannel ch = channel();
        ch.writeInbound(Unpooled.copiedBuffer("version\r\nquit\r\nversion\r\n", StandardCharsets.US_ASCII));
        ch.runPendingTasks();
        assertEquals("VERSION " + MemcacheReplies.VERSION + "\r\n", drain(ch));
        assertFalse(ch.isOpen());
    }

    @Test
    void randomBytesNeverThrow() {
        Random random = new Random(1);
        byte[] alphabet = "getsadclrpnvu0123456789 \r\n\t-+x".getBytes(StandardCharsets.US_ASCII);
        for (int round = 0; round < 300; round++) {
            MemcacheStore store = new MemcacheStore(1 << 20, 1);
            MemcacheCounters counters = new MemcacheCounters();
            MemcacheCounters.Cell cell = counters.cellFor(this);
            List<ByteBuf> early = new ArrayList<>();
            MemcacheCommandProcessor processor = new MemcacheCommandProcessor(store, cell,
                    new MemcacheServerStats(counters, store, 1), UnpooledByteBufAllocator.DEFAULT, early::add, null);
            MemcacheRequestDecoder decoder = new MemcacheRequestDecoder();
            ByteBuf in = Unpooled.buffer();
            for (int piece = 0; piece < 20 && !decoder.stopped(); piece++) {
                byte[] chunk = new byte[1 + random.nextInt(200)];
                for (int i = 0; i < chunk.length; i++) {
                    chunk[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
                }
                in.writeBytes(chunk);
                decoder.decode(in, processor); // must not throw
                in.discardReadBytes();
            }
            processor.release();
            early.forEach(ByteBuf::release);
            in.release();
        }
    }

    private EmbeddedChannel channel() {
        MemcacheStore store = new MemcacheStore(64 << 20, 1);
        MemcacheCounters counters = new MemcacheCounters();
        EmbeddedChannel ch = new EmbeddedChannel(new MemcacheConnectionHandler(store, counters,
                new MemcacheServerStats(counters, store, 1), null));
        channels.add(ch);
        return ch;
    }

    /** Feeds each piece as one read (each followed by read-complete) into a fresh connection. */
    private String feed(List<byte[]> reads) {
        return new String(feedBytes(reads), StandardCharsets.ISO_8859_1);
    }

    private byte[] feedBytes(List<byte[]> reads) {
        EmbeddedChannel ch = channel();
        for (byte[] read : reads) {
            ch.writeInbound(Unpooled.wrappedBuffer(read));
        }
        ch.runPendingTasks();
        return drain(ch).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String drain(EmbeddedChannel ch) {
        StringBuilder s = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            s.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        return s.toString();
    }
}
