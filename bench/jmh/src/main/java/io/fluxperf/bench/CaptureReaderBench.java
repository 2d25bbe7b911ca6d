package io.fluxperf.bench;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.log.capture.CaptureFormat;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A packet capture read as replay reads it, per packet: records, link, IP and TCP headers, each
 * connection put back in sequence order, the redis reader turning requests into log entries and
 * replies into their original outcome, entries released in each client's order and moved into the
 * caller's. One invocation is a whole pass over {@link ReplayLogs}' {@code pcap} of
 * {@value #COMMANDS} commands ({@link ReplayLogs#packets} = 400,150 packets, 58 MB, in
 * {@code java.io.tmpdir}, in the page cache after the first pass) from {@code open} to the end;
 * JMH divides its time by the packets ({@code @OperationsPerInvocation}), so one op is one packet.
 *
 * <p>{@code -prof gc}'s B/op is per packet too, and includes what a pass allocates once (the file's
 * and the decompressor's buffers, 50 connections and their readers, the entries that wait for
 * their replies), spread over 400,150 packets; two packets are one command. Expected: well under
 * 1 B per packet, nothing per command.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar CaptureReaderBench -prof gc}.
 */
@State(Scope.Thread)
public class CaptureReaderBench extends HotPathBenchmark {
    static final int COMMANDS = 200_000;
    private static final int PACKETS = 3 * ReplayLogs.CLIENTS + 2 * COMMANDS;

    private Path directory;
    private CaptureFormat.Prepared capture;
    private ReaderContext ctx;
    private final LogEntry entry = new LogEntry();

    @Setup
    public void setup() throws IOException {
        if (ReplayLogs.packets(COMMANDS) != PACKETS) {
            throw new IllegalStateException("the capture has " + ReplayLogs.packets(COMMANDS) + " packets");
        }
        directory = Files.createTempDirectory("fluxperf-bench-capture");
        Path file = ReplayLogs.write("pcap", directory, COMMANDS);
        capture = CaptureFormat.INSTANCE.prepare(file, List.of(), null);
        Protocol redis = Protocols.find(capture.protocol());
        ctx = new ReaderContext(file.toString(), new BadLines(false), new VerbTable(List.of("get", "set")), new LogStats(),
                null, false, redis.name(), redis::supports);
        long read = pass();
        if (read != COMMANDS || ctx.bad.count() > 0) {
            throw new IllegalStateException("read " + read + " commands of " + COMMANDS + ", bad: " + ctx.bad.first());
        }
    }

    @TearDown
    public void tearDown() {
        TraceBench.delete(directory);
    }

    /** One pass over the capture; returns the commands read (every one must have its original reply). */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long pass() throws IOException {
        long commands = 0;
        try (LogReader reader = capture.open(ctx)) {
            while (reader.next(entry.reset())) {
                if (entry.originalReply == LogEntry.REPLY_UNKNOWN) {
                    throw new IllegalStateException("no original reply for command " + commands);
                }
                commands++;
            }
        }
        return commands;
    }
}
