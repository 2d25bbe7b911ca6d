package io.fluxperf.cli;

import java.io.PrintStream;

/** Where a command prints: System.out/err from {@code main}, captured streams in tests. */
public record Streams(PrintStream out, PrintStream err) {
    public static Streams system() {
        return new Streams(System.out, System.err);
    }

    /** A command that prints reports through streams rather than picocli's writers. */
    public interface Aware {
        void streams(Streams streams);
    }
}
