package io.fluxperf.bench;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.replay.LogFormats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Each replay log reader's parse cost: one op is one {@link LogReader#next(LogEntry)} that returns
 * a command, on replay's reader thread's path: the format from {@link LogFormats#parse} (as
 * {@code --format} names it), {@code prepare} once, {@code open} per pass, a {@link ReaderContext}
 * as {@code ReplayPlan.context} makes it (no key prefix, not strict), entries taken in turn from
 * 4,096 that are reset before and left "in the read-ahead" after (as {@code ReplaySource} does, so
 * that watch's drop of a store's own fetch finds them). At the end of the log the reader is closed
 * and the next pass opened inside the op that met the end, as {@code --loop} does: one open per
 * pass of {@code commands} commands.
 *
 * <p>The logs ({@link ReplayLogs}): the same commands in every format, 4 gets to 1 set with
 * 32-byte values, 16-byte keys, 50 clients, written into {@code java.io.tmpdir} at the start of a
 * trial (redis-monitor 70 MB, memcache-watch 128 MB, memcache-ascii 30 MB and 26 MB of times, klog
 * 76 MB, a trace 84 MB, a Twitter cache trace 35 MB, or 6 MB as .zst, a packet capture of the redis
 * commands 291 MB) and deleted at its end. One op is one line, except in {@code pcap}, where it is one
 * command (two packets: the request and its reply, which gives its original outcome), in {@code memcache-ascii},
 * where a set's op reads its data block too (and every op its row of the {@code .times.csv} beside
 * the stream), and in {@code trace}, where it is one record. In {@code memcache-watch} a set is two
 * lines and two ops: the reader returns the fetch memcached logs inside the store too, and the
 * read-ahead drops it later.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar LogReaderBench -prof gc}
 * (one format: {@code … LogReaderBench -p format=klog -prof gc}). Expected: 0 B per line; what
 * {@code -prof gc} shows is the open of each pass (a text log's 64 KiB line and stream buffers and
 * its client table, a trace's Chronicle queue), 0.1–0.6 B/op spread over a million commands.
 */
@State(Scope.Thread)
public class LogReaderBench extends HotPathBenchmark {
    private static final int ENTRIES = 4096;

    @Param({"redis-monitor", "memcache-watch", "memcache-ascii", "klog", "trace", "twitter-cache-trace",
        "twitter-cache-trace.zst", "pcap"})
    public String format;

    @Param({"1000000"})
    public int commands;

    private Path directory;
    private LogFormat.PreparedLog log;
    private ReaderContext ctx;
    private LogReader reader;
    private final LogEntry[] entries = new LogEntry[ENTRIES];
    private int next;

    @Setup
    public void setup() throws IOException {
        directory = Files.createTempDirectory("fluxperf-bench-log");
        Path path = ReplayLogs.write(format, directory, commands);
        LogFormat f = LogFormats.parse(format.replace(".zst", "")); // a compressed log is told by its magic
        if (f == null) {
            throw new IllegalArgumentException("no format " + format + "; there are " + LogFormats.labels());
        }
        // a trace's own header names its protocol; the bench's traces are memcache, as a cache trace's operations;
        // a capture's clients tell theirs (redis)
        Protocol protocol = format.equals("trace") || format.startsWith("twitter") ? Protocols.find("memcache")
                : format.equals("pcap") ? Protocols.find("redis") : Protocols.ofLogFormat(f);
        ctx = new ReaderContext(path.toString(), new BadLines(false), new VerbTable(List.of("get", "set")),
                new LogStats(), null, false, protocol.name(), protocol::supports);
        log = f.prepare(path, null);
        for (int i = 0; i < ENTRIES; i++) {
            entries[i] = new LogEntry();
        }
        // one whole pass first: every command reads back as written (and the log is in the page cache)
        long expected = ReplayLogs.entries(format, commands);
        long read = 0;
        try (LogReader first = log.open(ctx)) {
            LogEntry e;
            while (first.next(e = entries[next++ & (ENTRIES - 1)].reset())) {
                e.inWindow = true;
                read++;
            }
        }
        if (read != expected || ctx.bad.count() > 0) {
            throw new IllegalStateException(format + ": read " + read + " commands of " + expected + ", "
                    + ctx.bad.count() + " bad lines " + ctx.bad.first());
        }
        reader = log.open(ctx);
    }

    @TearDown
    public void tearDown() {
        reader.close();
        TraceBench.delete(directory);
    }

    @Benchmark
    public LogEntry next() throws IOException {
        LogEntry e = entries[next++ & (ENTRIES - 1)].reset();
        if (!reader.next(e)) {
            reader.close();
            reader = log.open(ctx);
            e.reset();
            if (!reader.next(e)) {
                throw new IllegalStateException(format + ": a pass without commands");
            }
        }
        e.inWindow = true;
        return e;
    }
}
