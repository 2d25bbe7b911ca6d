package io.fluxperf.engine.trace;

import io.fluxperf.engine.Version;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.trace.TraceHeader;
import io.fluxperf.trace.TraceWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The trace of one run: a {@link TraceWriter} plus the clock origin and the name tables that
 * turn the engine's requests into trace records. Each event loop gets its own
 * {@link ThreadTracer} (and so its own record and Chronicle appender).
 */
public final class RunTrace implements AutoCloseable {
    private final TraceWriter writer;
    private final long originNanos;

    private RunTrace(TraceWriter writer, long originNanos) {
        this.writer = writer;
        this.originNanos = originNanos;
    }

    /**
     * Opens a new trace directory for a run.
     *
     * @param configJson the effective config, as JSON
     * @throws io.fluxperf.trace.TraceFormatException when the directory cannot hold a new trace
     */
    public static RunTrace open(Path directory, RunConfig config, String configJson) {
        long epochNanos = System.currentTimeMillis() * 1_000_000L;
        long origin = System.nanoTime();
        TraceHeader header = TraceHeader.builder()
                .fluxperfVersion(Version.get())
                .configJson(configJson)
                .clockOrigin(epochNanos, origin)
                .workloads(config.workloads().stream().map(WorkloadConfig::name).toList())
                .commands(commandNames())
                .protocols(List.of(config.protocol()))
                .build();
        return new RunTrace(TraceWriter.open(directory, header), origin);
    }

    /** Command codes are {@link Command} ordinals. */
    static List<String> commandNames() {
        return Arrays.stream(Command.values()).map(Command::label).toList();
    }

    /** A tracer for one event-loop thread. */
    public ThreadTracer forThread() {
        return new ThreadTracer(writer, originNanos);
    }

    /**
     * Keeps the run's client pauses beside the trace ({@link io.fluxperf.trace.TracePauses}), for the
     * heatmaps drawn from it to mark.
     *
     * @param pauses each pause as {start, duration}, ns, its start a {@link System#nanoTime()}, with its cause
     */
    public void markPauses(List<long[]> pauses, List<String> causes) throws java.io.IOException {
        List<io.fluxperf.trace.TracePauses.Pause> marks = new java.util.ArrayList<>();
        for (int i = 0; i < pauses.size(); i++) {
            marks.add(new io.fluxperf.trace.TracePauses.Pause(pauses.get(i)[0] - originNanos, pauses.get(i)[1], causes.get(i)));
        }
        io.fluxperf.trace.TracePauses.write(writer.directory(), marks);
    }

    public long recordsWritten() {
        return writer.recordsWritten();
    }

    public long recordsLost() {
        return writer.recordsLost();
    }

    /** Tracing stopped after a write failed (a full disk); later records are counted as lost. */
    public boolean failed() {
        return writer.failed();
    }

    /** "Trace: N records in DIR", or a loud line saying how many records were lost and why. */
    /** Why writing failed, when it did. */
    public java.util.Optional<String> failure() {
        return writer.failure();
    }

    /** The trace's directory. */
    public Path directory() {
        return writer.directory();
    }

    public String statusLine() {
        return writer.statusLine();
    }

    @Override
    public void close() {
        writer.close();
    }
}
