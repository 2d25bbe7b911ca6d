package io.fluxperf.trace;

import java.nio.file.Path;

/**
 * A writer for {@link TraceKilledWriterTest}, run in a child JVM: appends {@link TestTraces#fill}
 * records 0, 1, 2, … as fast as it can and, after every 1000, flushes its batch and prints
 * "written N", until it is killed
 * (or, as a safety net, for 60 s).
 */
public final class KilledWriterMain {
    private KilledWriterMain() {
    }

    public static void main(String[] args) {
        TraceRecord r = new TraceRecord();
        long end = System.nanoTime() + 60_000_000_000L;
        try (TraceWriter w = TraceWriter.open(Path.of(args[0]), TestTraces.header())) {
            for (long i = 0; System.nanoTime() < end; i++) {
                w.append(TestTraces.fill(r, i));
                if ((i + 1) % 1000 == 0) {
                    w.flush(); // what it reports is in the queue, not only in its batch
                    System.out.println("written " + (i + 1));
                    System.out.flush();
                }
            }
        }
    }
}
