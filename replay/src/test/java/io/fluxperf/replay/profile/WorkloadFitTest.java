package io.fluxperf.replay.profile;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.RunSettings;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.request.Command;
import io.fluxperf.replay.ReadableLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workload --config-out fits to a log resolves as run --config resolves it, for every sample log. */
class WorkloadFitTest {
    @TempDir
    Path dir;

    static Stream<Path> sampleLogs() throws IOException {
        Path logs = null;
        for (Path p = Path.of("").toAbsolutePath(); p != null && logs == null; p = p.getParent()) {
            logs = Files.isDirectory(p.resolve("samples/logs")) ? p.resolve("samples/logs") : null;
        }
        try (Stream<Path> files = Files.list(logs)) {
            return files.filter(p -> !p.toString().endsWith(".times.csv")).sorted().toList().stream();
        }
    }

    private RunConfig resolve(String toml) throws IOException {
        Path f = Files.writeString(dir.resolve("fitted.toml"), toml);
        RunSettings s = new RunSettings();
        s.config = f;
        s.server = "127.0.0.1:1";
        return ConfigResolver.resolve(s.toFlags());
    }

    @ParameterizedTest
    @MethodSource("sampleLogs")
    void everySampleLogFitsAWorkloadThatRunResolves(Path log) throws IOException {
        LogProfile p = Profiler.of(ReadableLog.open(log, null), true);
        RunConfig c = resolve(WorkloadFit.toml(p));
        assertEquals(p.protocol(), c.protocol(), log.toString());
        assertEquals(Math.max(1, p.clients()), c.threads() * c.connections(), log.toString());
        double rates = 0;
        for (WorkloadConfig w : c.workloads()) {
            double share = p.operations().get(w.name());
            if (p.rate() != null) {
                assertEquals(share * p.rate(), w.rate(), 1e-5, w.name());
            }
            rates += w.rate();
            assertEquals(p.keys(), w.keyspace().count());
            assertTrue(w.method() != Command.FLUSH && w.method() != Command.EVAL && w.method() != Command.COMMAND);
        }
        assertTrue(p.rate() == null || rates <= p.rate() + 1e-4, rates + " > " + p.rate()); // rates have 6 decimals
    }

    @Test
    void aTracesWritesKeepTheirSizesAndTtlsAndTheAlphaIsTheExponent() throws IOException {
        Path log = sampleLogs().filter(p -> p.getFileName().toString().startsWith("twitter")).findFirst().orElseThrow();
        LogProfile p = Profiler.of(ReadableLog.open(log, null), true);
        RunConfig c = resolve(WorkloadFit.toml(p));
        WorkloadConfig set = c.workloads().stream().filter(w -> w.name().equals("set")).findFirst().orElseThrow();
        assertEquals(new ValueSize.Weighted(new int[] {98, 215, 230, 1024}, new int[] {1, 1, 1, 1}), set.bytes());
        assertEquals("600:1,3600:2,86400:1", set.shape().ttls().describe(), "the ttl of every write: set, add");
        assertEquals(p.zipfAlpha(), set.keyspace().exponent(), 1e-6);
        assertEquals(List.of("get", "set", "add", "delete", "gets", "incr"), c.workloads().stream().map(WorkloadConfig::name).toList());
    }

    @Test
    void manyDistinctSizesBecomeThirtyTwoBinsThatKeepTheMean() {
        Map<Long, Long> sizes = new TreeMap<>();
        long n = 0;
        double sum = 0;
        for (long s = 1; s <= 1000; s++) {
            long count = 1 + s % 7;
            sizes.put(s, count);
            n += count;
            sum += (double) s * count;
        }
        String list = WorkloadFit.weighted(sizes, ValueSize.MAX_BYTES, "size");
        Matcher m = Pattern.compile("\\{ size = (\\d+), weight = (\\d+) }").matcher(list);
        Map<Long, Long> bins = new LinkedHashMap<>();
        while (m.find()) {
            bins.put(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
        }
        assertEquals(WorkloadFit.LIST_ENTRIES, bins.size(), list);
        assertEquals(n, bins.values().stream().mapToLong(Long::longValue).sum());
        double mean = bins.entrySet().stream().mapToDouble(e -> (double) e.getKey() * e.getValue()).sum() / n;
        assertEquals(sum / n, mean, 0.5, "the bins' mean is the sizes' mean, up to rounding each bin's");
        long[] counts = bins.values().stream().mapToLong(Long::longValue).toArray();
        for (long c : counts) {
            assertTrue(Math.abs(c - (double) n / WorkloadFit.LIST_ENTRIES) <= 1, "about equal counts: " + list);
        }
    }

    @Test
    void aLogWithoutAWorkloadMethodIsOneSentence() throws IOException {
        Path log = Files.writeString(dir.resolve("monitor.log"),
                "1700000000.000001 [0 127.0.0.1:5000] \"FLUSHALL\"\n1700000000.000002 [0 127.0.0.1:5000] \"CONFIG\" \"GET\" \"x\"\n");
        LogProfile p = Profiler.of(ReadableLog.open(log, null), true);
        UserError e = assertThrows(UserError.class, () -> WorkloadFit.toml(p));
        assertEquals("--config-out: none of the log's commands (config, flushall) is a workload method of redis; no"
                + " workload to fit", e.getMessage());
    }
}
