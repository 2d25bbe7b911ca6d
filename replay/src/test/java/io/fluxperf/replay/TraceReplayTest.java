package io.fluxperf.replay;

import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.trace.TraceHeader;
import io.fluxperf.trace.TraceRecord;
import io.fluxperf.trace.TraceWriter;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trace of a run replays into the same per-command counts, by the replay's report and by memcached's stats. */
@ExtendWith(RealServers.class)
class TraceReplayTest {
    @TempDir
    Path dir;

    @Test
    void traceOfARunReplaysIntoTheSameCommandCounts(MemcachedProcess source, MemcachedProcess target) {
        Path trace = dir.resolve("run-trace");
        KeyspaceConfig keys = new KeyspaceConfig(500, 12, io.fluxperf.engine.config.KeyDistribution.UNIFORM, 0.99);
        List<WorkloadConfig> workloads = List.of(
                WorkloadConfig.of(Command.SET).withRate(800).withKeyspace(keys),
                WorkloadConfig.of(Command.GET).withRate(2000).withKeyspace(keys),
                WorkloadConfig.of(Command.GET).withName("multiget").withRate(300).withKeysPerRequest(3).withKeyspace(keys),
                WorkloadConfig.of(Command.DELETE).withRate(200).withKeyspace(keys));
        Map<String, Long> runCounts = new LinkedHashMap<>();
        RunConfig config = RunConfig.builder().server(source.address()).threads(1).connections(4).pipeline(1)
                .duration(Duration.ofMillis(1500)).windows(1).timeout(Duration.ofSeconds(1)).tcpNoDelay(true)
                .seed(42).workloads(workloads).build();
        RunResult result;
        try (RunTrace runTrace = RunTrace.open(trace, config, new JsonReport().configJson(config))) {
            result = new LoadRun(config, new RunListener() { }).trace(runTrace)
                    .execute(ServerAddress.parse(source.address(), "--server"), source.address());
        }
        for (int i = 0; i < workloads.size(); i++) {
            runCounts.merge(workloads.get(i).method().label(),
                    result.total().workloads().get(i).outcomes().requests(), Long::sum);
        }
        Map<String, Long> original = source.stats();
        Replays.Run run = Replays.run(ReplayOptions.builder(trace).server(target.address()).live(false).build());
        assertEquals(TraceFormat.INSTANCE, run.result().format());
        assertEquals(runCounts, run.result().commands(), run.out());
        Map<String, Long> replayed = target.stats();
        assertEquals(original.get("cmd_get"), replayed.get("cmd_get"), "a multi-get counts each key");
        assertEquals(original.get("cmd_set"), replayed.get("cmd_set"));
        assertEquals(original.get("delete_hits") + original.get("delete_misses"),
                replayed.get("delete_hits") + replayed.get("delete_misses"));
        assertEquals(runCounts.values().stream().mapToLong(Long::longValue).sum(),
                run.result().run().total().total().outcomes().requests());
        assertTrue(run.result().sendLagNanos() != null, "a trace's intended times are replayed");
    }

    /** A trace cut short, as a partial copy is: replayed up to its last whole record, and the report says so. */
    @Test
    void traceCutShortReplaysItsWholeRecordsAndSaysSo(MemcachedProcess target) throws IOException {
        Path trace = dir.resolve("cut");
        int records = 20_000;
        TraceRecord r = new TraceRecord();
        try (TraceWriter w = TraceWriter.open(trace, TraceHeader.builder().fluxperfVersion("test").configJson("{}")
                .clockOrigin(1_700_000_000_000_000_000L, 0).workloads(List.of("get")).commands(List.of("get"))
                .protocols(List.of("memcache")).build())) {
            for (int i = 0; i < records; i++) {
                long t = 1_000L * i;
                w.append(r.clear().intendedSendNanos(t).actualSendNanos(t).completionNanos(t + 50_000).workload(0)
                        .protocol(0).command(0).outcome(0).keyLatin1("key:" + i).keyCount(1).connectionId(i % 4));
            }
        }
        Path cycleFile;
        try (var files = Files.list(trace)) {
            cycleFile = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile f = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            f.setLength(160 * 1024); // 20,000 records take about 400 KB
        }
        Replays.Run cut = Replays.run(ReplayOptions.builder(trace).server(target.address()).speed(0).live(false).build());
        long replayed = cut.result().run().total().total().outcomes().requests();
        String all = cut.out() + cut.err();
        assertTrue(replayed > 0 && replayed < records, replayed + " of " + records + "\n" + all);
        assertTrue(all.contains("is truncated: its record file " + cycleFile.getFileName() + " is cut short at "
                + 160 * 1024 + " bytes"), all);
        assertTrue(all.contains("read " + replayed + " whole records of the " + records + " its end marker counts"), all);
    }
}
