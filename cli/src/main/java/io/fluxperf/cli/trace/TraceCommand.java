package io.fluxperf.cli.trace;

import io.fluxperf.cli.Streams;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.DurationParser;
import io.fluxperf.trace.Latency;
import io.fluxperf.trace.Outcome;
import io.fluxperf.trace.TraceExporter;
import io.fluxperf.trace.TraceFilter;
import io.fluxperf.trace.TraceFormatException;
import io.fluxperf.trace.TraceHeader;
import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceStats;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fluxperf trace stats|dump DIR}: what a trace written by {@code run --trace DIR} holds. */
@Command(name = "trace",
        header = "Reads a run's trace: its statistics, or its records.",
        mixinStandardHelpOptions = true,
        description = "Reads a trace that 'run --trace DIR' wrote: one record per request.",
        subcommands = {TraceCommand.Stats.class, TraceCommand.Dump.class},
        footer = {"",
                "Examples:",
                "  fluxperf trace stats /tmp/trace                       # counts, rate, latency percentiles",
                "  fluxperf trace stats /tmp/trace --latency service     # from the actual write",
                "  fluxperf trace dump /tmp/trace --format csv --out trace.csv",
                "  fluxperf trace dump /tmp/trace --format jsonl --from 10 --to 12 --outcome timeout",
                "  fluxperf trace dump /tmp/trace --format csv --command get --outcome miss --limit 100",
                "",
                "See also: fluxperf heatmap DIR --out heatmap.html"})
public final class TraceCommand implements Callable<Integer>, Streams.Aware {

    private Streams streams = Streams.system();

    @Spec
    private CommandSpec spec;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: stats or dump");
    }

    /** Opens a trace, turning a bad directory into the user's one-sentence error. */
    static TraceReader open(Path dir) {
        try {
            return TraceReader.open(dir);
        } catch (TraceFormatException e) {
            throw new UserError(e.getMessage());
        }
    }

    /** An I/O failure in words: NoSuchFileException and friends carry only the path. */
    static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** Parses --latency. */
    static Latency latency(String text) {
        try {
            return Latency.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UserError("--latency: " + e.getMessage() + ".");
        }
    }

    @Command(name = "stats",
            header = "Prints a trace's counts, rate and latency percentiles.",
            mixinStandardHelpOptions = true,
            description = {"Counts per outcome, command and workload, duration, rate and latency percentiles of a trace,",
                    "in the run report's words and with its HdrHistogram settings (warm-up left out, as the run does)."},
            footer = {"",
                    "Examples:",
                    "  fluxperf trace stats /tmp/trace",
                    "  fluxperf trace stats /tmp/trace --latency service --include-warmup"})
    static final class Stats implements Callable<Integer> {
        @ParentCommand
        private TraceCommand parent;

        @Parameters(index = "0", paramLabel = "DIR", description = "The trace directory.")
        private Path dir;

        @Option(names = "--latency", paramLabel = "KIND", defaultValue = "intended",
                description = "intended (completion - intended send; default, as the run reports) or service"
                        + " (completion - actual send).")
        private String latency;

        @Option(names = "--include-warmup", description = "Count warm-up requests too.")
        private boolean includeWarmup;

        @Override
        public Integer call() {
            Latency kind = latency(latency);
            PrintStream out = parent.streams.out();
            try (TraceReader reader = open(dir)) {
                TraceStats stats = TraceStats.compute(reader, kind, includeWarmup);
                stats.figureLines().forEach(out::println);
                out.flush();
                if (stats.truncationWarning() != null) {
                    parent.streams.err().println("fluxperf: warning: " + stats.truncationWarning());
                }
            } catch (TraceFormatException e) {
                throw new UserError(e.getMessage());
            }
            return 0;
        }
    }

    @Command(name = "dump",
            header = "Writes a trace's records as CSV or JSON lines.",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = {"Writes the records of a trace as CSV (with a header row) or JSON lines.",
                    "Times are ns since the start of the run; --from/--to select by intended send time."},
            footer = {"",
                    "Columns: " + "intended_send_ns, actual_send_ns, completion_ns, latency_ns, service_ns, workload,",
                    "  protocol, command, outcome, key, key_count, value_size, request_bytes, response_bytes,",
                    "  connection_id, warmup",
                    "",
                    "Examples:",
                    "  fluxperf trace dump /tmp/trace --format csv --out trace.csv",
                    "  fluxperf trace dump /tmp/trace --format jsonl --from 10 --to 12.5",
                    "  fluxperf trace dump /tmp/trace --format csv --command get --outcome miss --limit 100"})
    static final class Dump implements Callable<Integer> {
        @ParentCommand
        private TraceCommand parent;

        @Parameters(index = "0", paramLabel = "DIR", description = "The trace directory.")
        private Path dir;

        @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "csv", description = "csv (default) or jsonl.")
        private String format;

        @Option(names = "--from", paramLabel = "S",
                description = "Only requests sent (intended) at or after S seconds since the start (or 1.5s, 500ms).")
        private String from;

        @Option(names = "--to", paramLabel = "S", description = "Only requests sent (intended) before S seconds.")
        private String to;

        @Option(names = "--command", paramLabel = "NAME", description = "Only this command (get, set, ...).")
        private String command;

        @Option(names = "--outcome", paramLabel = "NAME", description = "Only this outcome: ok, miss, error, timeout or closed.")
        private String outcome;

        @Option(names = "--limit", paramLabel = "N", description = "At most N records.")
        private Long limit;

        @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE instead of standard output.")
        private Path outFile;

        @Override
        public Integer call() {
            TraceExporter.Format fmt;
            try {
                fmt = TraceExporter.Format.parse(format);
            } catch (IllegalArgumentException e) {
                throw new UserError("--format: " + e.getMessage() + ".");
            }
            if (limit != null && limit < 0) {
                throw new UserError("--limit: must be 0 or more, not " + limit + ".");
            }
            Long fromNanos = from == null ? null : seconds("--from", from);
            Long toNanos = to == null ? null : seconds("--to", to);
            if (fromNanos != null && toNanos != null && fromNanos >= toNanos) {
                throw new UserError("--from " + from + " must come before --to " + to + ".");
            }
            PrintStream out = parent.streams.out();
            try (TraceReader reader = open(dir)) {
                TraceFilter filter = filter(reader.header(), fromNanos, toNanos);
                long n;
                if (outFile == null) {
                    Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
                    n = TraceExporter.export(reader, fmt, filter, w);
                } else {
                    try (Writer w = Files.newBufferedWriter(outFile, StandardCharsets.UTF_8)) {
                        n = TraceExporter.export(reader, fmt, filter, w);
                    } catch (IOException e) {
                        throw new UserError("--out: cannot write " + outFile + ": " + describe(e) + ".");
                    }
                    out.println("Wrote " + n + " records to " + outFile + " (" + fmt.name().toLowerCase(Locale.ROOT)
                            + ")");
                }
                reader.warning().ifPresent(w -> parent.streams.err().println("fluxperf: warning: " + w));
            } catch (TraceFormatException e) {
                throw new UserError(e.getMessage());
            } catch (IOException e) {
                throw new UserError("Cannot write the records: " + describe(e) + ".");
            }
            out.flush();
            return 0;
        }

        private TraceFilter filter(TraceHeader header, Long fromNanos, Long toNanos) {
            TraceFilter f = TraceFilter.ALL;
            if (fromNanos != null) {
                f = f.withFromNanos(fromNanos);
            }
            if (toNanos != null) {
                f = f.withToNanos(toNanos);
            }
            if (command != null) {
                int code = header.commandCode(command);
                if (code < 0) {
                    // the header names every command fluxperf records, not those this trace holds
                    throw new UserError(header.commands().isEmpty()
                            ? "--command: this trace names no commands, so its records cannot be chosen by command."
                            : "--command: '" + command + "' is not a command fluxperf records; known: "
                                    + String.join(", ", header.commands()) + ".");
                }
                f = f.withCommand(code);
            }
            if (outcome != null) {
                int code = Outcome.code(outcome);
                if (code < 0) {
                    throw new UserError("--outcome: '" + outcome + "' is not an outcome; use ok, miss, error, timeout"
                            + " or closed.");
                }
                f = f.withOutcome(code);
            }
            if (limit != null) {
                f = f.withLimit(limit);
            }
            return f;
        }

        private static long seconds(String flag, String text) {
            try {
                return DurationParser.parse(text).toNanos();
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw new UserError(flag + ": " + e.getMessage() + ".");
            }
        }
    }
}
