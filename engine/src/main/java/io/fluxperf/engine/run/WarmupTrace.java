package io.fluxperf.engine.run;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.trace.TraceFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The throw-away trace of a traced run's in-process warm-up, in a temporary directory that
 * closing deletes: the warm-up appends records as the run will, so that the first measured
 * requests do not pay for compiling the trace's append path.
 */
final class WarmupTrace implements AutoCloseable {
    private final Path directory;
    private final RunTrace trace;

    private WarmupTrace(Path directory, RunTrace trace) {
        this.directory = directory;
        this.trace = trace;
    }

    /** A trace in a new temporary directory; without one (no writable temporary directory) the warm-up goes untraced. */
    static WarmupTrace open(RunConfig warm) {
        Path dir;
        try {
            dir = Files.createTempDirectory("fluxperf-warmup-trace");
        } catch (IOException | UncheckedIOException e) {
            return new WarmupTrace(null, null);
        }
        try {
            return new WarmupTrace(dir, RunTrace.open(dir.resolve("trace"), warm, "{}"));
        } catch (TraceFormatException | UncheckedIOException e) {
            delete(dir);
            return new WarmupTrace(null, null);
        }
    }

    /** The trace to write, or null when none could be opened. */
    RunTrace trace() {
        return trace;
    }

    /** The directory the trace is in, or null; gone after {@link #close()}. */
    Path directory() {
        return directory;
    }

    @Override
    public void close() {
        if (trace != null) {
            trace.close();
        }
        if (directory != null) {
            delete(directory);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // a temporary directory left behind is the operating system's to clean
        }
    }
}
