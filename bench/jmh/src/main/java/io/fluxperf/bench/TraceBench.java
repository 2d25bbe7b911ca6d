package io.fluxperf.bench;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.engine.trace.ThreadTracer;
import io.fluxperf.trace.TraceHeader;
import io.fluxperf.trace.TraceRecord;
import io.fluxperf.trace.TraceWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The trace append ({@code --trace}): {@code append} is {@link TraceWriter#append} of a reused
 * {@link TraceRecord} (16-byte key, times that grow like a run's); {@code threadTracer} is the
 * engine's per-request path, {@link ThreadTracer#record}, which fills that record from a
 * {@link Request} and appends it. Each trial writes a new trace in a temporary directory
 * ({@code java.io.tmpdir}), deleted at its end; a trial writes about 40 bytes per op, so a
 * one-second iteration leaves a few hundred MB on disk until then.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar TraceBench -prof gc}. Needs Chronicle
 * Queue's {@code --add-opens/--add-exports} in the fork, which {@link HotPathBenchmark} passes.
 * Expected: 0 B/op.
 */
public class TraceBench extends HotPathBenchmark {

    @State(Scope.Thread)
    public static class Writer {
        Path directory;
        TraceWriter writer;
        final TraceRecord record = new TraceRecord();
        long n;

        @Setup
        public void setup() throws IOException {
            directory = Files.createTempDirectory("fluxperf-bench-trace");
            TraceHeader header = TraceHeader.builder().fluxperfVersion("bench").clockOriginNow()
                    .workloads(List.of("get")).commands(List.of("get")).protocols(List.of("memcache")).build();
            writer = TraceWriter.open(directory.resolve("trace"), header);
            record.keyLatin1("0000000000004242").workload(0).protocol(0).command(0).outcome(0)
                    .valueSize(64).requestBytes(26).responseBytes(90).connectionId(7);
        }

        @TearDown
        public void tearDown() {
            writer.close();
            if (writer.recordsLost() > 0) {
                throw new IllegalStateException(writer.statusLine());
            }
            delete(directory);
        }
    }

    @State(Scope.Thread)
    public static class Tracer {
        Path directory;
        RunTrace trace;
        ThreadTracer tracer;
        final Request request = new Request();

        @Setup
        public void setup() throws IOException {
            directory = Files.createTempDirectory("fluxperf-bench-trace");
            RunConfig config = GeneratedLoadBench.runConfig(List.of(WorkloadConfig.of(Command.GET)));
            trace = RunTrace.open(directory.resolve("trace"), config, "{}");
            tracer = trace.forThread();
            request.command(Command.GET, 0).addKey(4242, 16);
        }

        @TearDown
        public void tearDown() {
            trace.close();
            if (trace.recordsLost() > 0) {
                throw new IllegalStateException(trace.statusLine());
            }
            delete(directory);
        }
    }

    @Benchmark
    public boolean append(Writer s) {
        long t = s.n += 20_000; // one request every 20 µs
        s.record.intendedSendNanos(t).actualSendNanos(t + 3_000).completionNanos(t + 45_000);
        return s.writer.append(s.record);
    }

    @Benchmark
    public void threadTracer(Tracer s) {
        long now = System.nanoTime();
        s.request.sentNanos(now - 40_000).sentOn(7, 26);
        s.tracer.record(s.request, Outcome.OK, now, 90, false);
    }

    static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
