package io.fluxperf.cli;

import io.fluxperf.engine.config.ConfigResolver;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxperf convert FILE}: an rpc-perf config as fluxperf's own TOML. */
@Command(name = "convert",
        header = "Prints an rpc-perf config file as fluxperf's own TOML.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Prints an rpc-perf config file (2.x, 3.x or 5.x, told by its shape) as the fluxperf TOML that",
                "runs the same workload, with a comment on each key saying what it was mapped from, and the keys",
                "that change nothing in fluxperf listed at the top. The file is checked as run --config checks it;",
                "a key fluxperf cannot honour is an error that names it."},
        footer = {"",
                "Examples:",
                "  fluxperf convert samples/rpc-perf-5-redis.toml",
                "  fluxperf convert old.toml --config-format rpc-perf-2 --out new.toml",
                "  fluxperf convert old.toml --out new.toml && fluxperf run --config new.toml -s 127.0.0.1:6379"})
public final class ConvertCommand implements Callable<Integer>, Streams.Aware {
    private Streams streams = Streams.system();

    @Parameters(index = "0", paramLabel = "FILE", description = "The config file to convert.")
    private Path file;

    @Option(names = "--config-format", paramLabel = "FORMAT",
            description = "Read FILE as rpc-perf-2, rpc-perf-3, rpc-perf-5 or fluxperf, whatever its shape.")
    private String format;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the TOML to FILE instead of standard output.")
    private Path out;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        if (out != null) {
            OutputFiles.check("--out", out);
        }
        String toml = ConfigResolver.convert(file, format);
        if (out == null) {
            streams.out().print(toml);
            streams.out().flush();
        } else {
            OutputFiles.write("--out", out, toml);
        }
        return 0;
    }
}
