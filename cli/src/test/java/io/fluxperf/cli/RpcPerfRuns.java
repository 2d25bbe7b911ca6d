package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.trace.TraceReader;
import io.fluxperf.trace.TraceRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the rpc-perf config tests share: writing files, running them, reading the servers' own logs. */
final class RpcPerfRuns {
    /** rpc-perf's line at the end of a warm-up to a hit rate, as fluxperf prints it. */
    static final Pattern WARMUP_COMPLETE =
            Pattern.compile("Warmup complete: hit rate (\\d+\\.\\d) % after (\\d+\\.\\d) s \\(target (\\d+) %\\)");

    private RpcPerfRuns() {
    }

    static Path write(Path dir, String name, String toml) {
        Path p = dir.resolve(name);
        try {
            Files.writeString(p, toml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    static void assertShare(double expected, long part, long whole, String what) {
        double share = (double) part / whole;
        assertTrue(Math.abs(share - expected) <= 0.02, what + ": " + part + " of " + whole + " = " + share
                + ", expected " + expected + " ± 0.02");
    }

    /** Runs fluxperf, which must exit 0 with no error, timeout or closed request. */
    static CliRun ok(String... args) {
        CliRun run = CliRun.of(args);
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String total = run.line("Requests:");
        assertEquals(0, CliRun.field(total, "Error:"), total);
        assertEquals(0, CliRun.field(total, "Timeout:"), total);
        assertEquals(0, CliRun.field(total, "Closed:"), total);
        return run;
    }

    /** The warm-up reached the file's hit rate, and said so as rpc-perf does, with the rate and the time. */
    static void assertWarmedUp(CliRun run, int targetPercent) {
        String line = run.line("Warmup complete");
        Matcher m = WARMUP_COMPLETE.matcher(line);
        assertTrue(m.matches(), line);
        assertTrue(Double.parseDouble(m.group(1)) >= targetPercent, line);
        assertEquals(targetPercent, Integer.parseInt(m.group(3)), line);
        assertTrue(run.out().indexOf(line) < run.out().indexOf("Window: 1"), "the warm-up ends before the first window");
    }

    /** The quoted words of a redis MONITOR line: the verb, then its arguments. */
    static List<String> monitorWords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (word == null) {
                if (c == '"') {
                    word = new StringBuilder();
                }
            } else if (c == '\\' && i + 1 < line.length()) {
                word.append(c).append(line.charAt(++i)); // an escape (\", \\, \xNN) stays as redis wrote it
            } else if (c == '"') {
                words.add(word.toString());
                word = null;
            } else {
                word.append(c);
            }
        }
        return words;
    }

    /**
     * The MONITOR lines (as words) of the given verbs, once there are {@code n} of them: redis
     * writes MONITOR's lines a little after it answers.
     */
    static List<List<String>> monitored(io.fluxperf.testkit.RedisProcess.Monitor monitor, java.util.Set<String> verbs,
                                        long n) {
        List<List<String>> found = new ArrayList<>();
        org.awaitility.Awaitility.await("MONITOR lines of " + verbs + ": " + n).atMost(java.time.Duration.ofSeconds(10))
                .pollInterval(java.time.Duration.ofMillis(20)).until(() -> {
                    found.clear();
                    for (String line : monitor.lines()) {
                        List<String> words = monitorWords(line);
                        if (!words.isEmpty() && verbs.contains(words.get(0))) {
                            found.add(words);
                        }
                    }
                    return found.size() >= n;
                });
        return found;
    }

    /** How many of the keys have each length. */
    static Map<Integer, Long> byLength(List<String> keys) {
        Map<Integer, Long> counts = new HashMap<>();
        for (String k : keys) {
            counts.merge(k.length(), 1L, Long::sum);
        }
        return counts;
    }

    /** Every record of a trace. */
    static void eachRecord(Path trace, Consumer<TraceRecord> each) {
        try (TraceReader reader = TraceReader.open(trace)) {
            TraceRecord r = new TraceRecord();
            while (reader.next(r)) {
                each.accept(r);
            }
        }
    }
}
