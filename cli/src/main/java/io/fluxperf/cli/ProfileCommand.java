package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.replay.LogFormats;
import io.fluxperf.replay.ReadableLog;
import io.fluxperf.replay.profile.LogProfile;
import io.fluxperf.replay.profile.ProfileJson;
import io.fluxperf.replay.profile.ProfileText;
import io.fluxperf.replay.profile.Profiler;
import io.fluxperf.replay.profile.WorkloadFit;
import io.fluxperf.trace.FileErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code fluxperf profile LOG}: a replayable log summarised in the columns of the OSDI'20 paper's table. */
@Command(name = "profile",
        header = "Summarises a log: rate, clients, keys, verbs, sizes, Zipf alpha.",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {"Summarises a replayable log (a Twitter cache trace, redis MONITOR, memcached",
                "watch, klog, a raw memcache stream, a packet capture, a trace directory) in",
                "the columns of the OSDI'20 paper's table: requests, seconds, rate and the peak",
                "second; clients and keys; each operation's share; key and value sizes (mean,",
                "p50, p99, max); the Zipf alpha; the one-hit-wonder ratio; TTL shares; the",
                "working set; the hit rate of reads where the log holds replies (a capture, a",
                "trace's outcomes).",
                "One pass, through the reader replay uses; nothing is sent. Definitions:",
                "docs/replay.md, The profile's columns."},
        footer = {"",
                "Examples:",
                "  fluxperf profile cluster52.0.zst",
                "  fluxperf profile monitor.log --json profile.json",
                "  fluxperf profile peak.pcap.zst --capture-server 10.0.0.5:11211",
                "  fluxperf profile cluster52.0.zst --config-out c52.toml",
                "  fluxperf run --config c52.toml -s 127.0.0.1:11211 --trace /tmp/t",
                "  fluxperf profile /tmp/t                       # the run's own trace",
                "",
                "Lines that cannot be parsed are counted and the first five shown; --strict",
                "stops at the first one (exit 2). Memory: about 28 bytes per distinct key plus",
                "the key's own bytes."})
public final class ProfileCommand implements Callable<Integer>, Streams.Aware {
    private Streams streams = Streams.system();

    @Parameters(index = "0", paramLabel = "LOG", description = "The log (plain, gzip or zstd), or a trace directory.")
    private Path log;

    @Option(names = "--format", paramLabel = "NAME", description = "The log's format (default: told from the content).")
    private String format;

    @Option(names = "--capture-server", paramLabel = "HOST:PORT",
            description = "The server of a packet capture whose traffic is profiled (repeatable; default: the capture's"
                    + " only server).")
    private List<String> captureServers;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the figures as JSON.")
    private Path json;

    @Option(names = "--config-out", paramLabel = "FILE.toml",
            description = "Write a workload fitted to the log, for 'fluxperf run --config': its verb mix and rate, its"
                    + " key count and size with a Zipf distribution of the fitted alpha, value sizes and TTLs as"
                    + " weighted lists, its client count as connections.")
    private Path configOut;

    @Option(names = "--strict", description = "Stop at the first line that cannot be parsed (exit 2).")
    private boolean strict;

    @Override
    public void streams(Streams streams) {
        this.streams = streams;
    }

    @Override
    public Integer call() {
        LogFormat f = null;
        if (format != null) {
            f = LogFormats.parse(format);
            if (f == null) {
                throw new UserError("--format: unknown format '" + format + "'; expected one of " + LogFormats.labels());
            }
        }
        LogProfile profile = Profiler.of(ReadableLog.open(log, f, captureServers == null ? List.of() : captureServers),
                strict);
        if (json != null) {
            write("--json", json, ProfileJson.of(profile));
        }
        if (configOut != null) {
            write("--config-out", configOut, WorkloadFit.toml(profile));
        }
        streams.out().print(ProfileText.of(profile));
        streams.out().flush();
        return 0;
    }

    private static void write(String flag, Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(flag + ": cannot write " + file + ": " + FileErrors.describe(e), e);
        }
    }
}
