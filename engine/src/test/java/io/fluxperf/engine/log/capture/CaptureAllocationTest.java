package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.testkit.CaptureWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capture reader allocates nothing per command once a pass is open: reading a capture of ten
 * times the commands allocates no more than the pass's fixed set-up (buffers, connections, their
 * readers, the entries waiting for replies). Measured with the reading thread's own allocation
 * counter; JMH's {@code CaptureReaderBench -prof gc} shows the same per packet.
 */
class CaptureAllocationTest {
    private static final long T0 = 1_796_000_000_000_000_000L;

    @TempDir
    Path dir;

    /** A capture of {@code commands} redis commands from 10 clients, each answered (redis: the MONITOR reader's commands). */
    private Path capture(String name, int commands) {
        CaptureWriter w = new CaptureWriter();
        CaptureWriter.Connection[] c = new CaptureWriter.Connection[10];
        for (int i = 0; i < c.length; i++) {
            c[i] = w.connection("10.0.0." + (10 + i), 40_000 + i, "10.0.0.5", 6379).open(T0);
        }
        for (int n = 0; n < commands; n++) {
            long t = T0 + 1_000_000L + n * 20_000L;
            CaptureWriter.Connection x = c[n % c.length];
            String key = "key:" + (n % 1000);
            if (n % 5 == 0) {
                x.send(t, "*3\r\n$3\r\nSET\r\n$" + key.length() + "\r\n" + key + "\r\n$8\r\nvalue" + (100 + n % 900) + "\r\n");
                x.reply(t + 5_000, "+OK\r\n");
            } else {
                x.send(t, "*2\r\n$3\r\nGET\r\n$" + key.length() + "\r\n" + key + "\r\n");
                x.reply(t + 5_000, n % 3 == 0 ? "$-1\r\n" : "$8\r\nvalue123\r\n");
            }
        }
        Path file = dir.resolve(name);
        w.writeTo(file);
        return file;
    }

    /** Bytes this thread allocates reading the capture once, and the commands read. */
    private static long[] read(CaptureFormat.Prepared p, ReaderContext ctx, LogEntry e) throws Exception {
        return read(p, ctx, e, 1);
    }

    /** The same, read on {@code threads} threads: the bytes the thread that is given the commands allocates. */
    private static long[] read(CaptureFormat.Prepared p, ReaderContext ctx, LogEntry e, int threads) throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(id);
        long n = 0;
        try (LogReader r = threads == 1 ? p.open(ctx) : p.open(ctx, threads)) {
            while (r.next(e.reset())) {
                n++;
            }
        }
        return new long[] {mx.getThreadAllocatedBytes(id) - before, n};
    }

    @Test
    void nothingIsAllocatedPerCommand() throws Exception {
        perCommand(1);
    }

    /** Read on two threads, the thread given the commands (the one that puts the shares in order) allocates nothing per command. */
    @Test
    void nothingIsAllocatedPerCommandWhereTheSharesAreMerged() throws Exception {
        perCommand(2);
    }

    private void perCommand(int threads) throws Exception {
        CaptureFormat.Prepared small = CaptureFormat.INSTANCE.prepare(capture("small.pcap", 3_000), List.of(), null);
        CaptureFormat.Prepared large = CaptureFormat.INSTANCE.prepare(capture("large.pcap", 30_000), List.of(), null);
        ReaderContext ctx = RecordingSink.context("redis", null, false);
        LogEntry e = new LogEntry();
        for (int warm = 0; warm < 5; warm++) { // compiled, and the verb table and entry buffers grown
            read(large, ctx, e, threads);
        }
        long smallest = Long.MAX_VALUE;
        long largest = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long[] s = read(small, ctx, e, threads);
            long[] l = read(large, ctx, e, threads);
            assertEquals(3_000, s[1]);
            assertEquals(30_000, l[1]);
            smallest = Math.min(smallest, s[0]);
            largest = Math.min(largest, l[0]);
        }
        double perCommand = (largest - smallest) / 27_000.0;
        assertTrue(perCommand < 1.0, "a pass of 30,000 commands allocated " + largest + " B, one of 3,000 " + smallest
                + " B: " + perCommand + " B per command more");
    }
}
