package io.fluxperf.replay.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.request.Command;
import io.fluxperf.replay.ReadableLog;
import io.fluxperf.testkit.CacheTraceFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each figure of a profile of a Twitter-format trace made in the test equals the one this test
 * computes from the trace's lines by the definitions in docs/replay.md (The profile's columns), computed here on its own.
 */
class ProfileTest {
    private static final double EXACT = 1e-9;

    @TempDir
    Path dir;

    /** The figures of a cache trace by the definitions, from its lines. */
    private static final class Expected {
        long requests;
        double seconds;
        double rate;
        long peakSecond;
        long peakRequests;
        long clients;
        long keys;
        Map<String, Double> operations = new HashMap<>();
        long[] keySize;
        double keyMean;
        long[] valueSize;
        double valueMean;
        double alpha;
        double oneHit;
        Map<Long, Double> ttl = new TreeMap<>();
        long workingSet;

        Expected(List<String> lines) {
            requests = lines.size();
            Map<Long, Integer> perSecond = new TreeMap<>();
            for (String l : lines) {
                perSecond.merge(Long.parseLong(l.split(",")[0]), 1, Integer::sum);
            }
            Map<Long, Integer> seen = new HashMap<>();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            Set<String> clientIds = new HashSet<>();
            Map<String, Integer> keyCounts = new LinkedHashMap<>();
            Map<String, Long> lastValue = new HashMap<>();
            Map<String, Long> ops = new HashMap<>();
            List<Long> keySizes = new ArrayList<>();
            List<Long> valueSizes = new ArrayList<>();
            Map<Long, Long> ttls = new TreeMap<>();
            long withTtl = 0;
            for (String l : lines) {
                String[] f = l.split(",");
                long s = Long.parseLong(f[0]);
                int n = perSecond.get(s);
                int k = seen.merge(s, 1, Integer::sum) - 1;
                long t = s * 1_000_000_000L + (n <= 1 ? 0 : 1_000_000_000L * Math.min(k, n - 1) / n); // k/n of the second
                first = Math.min(first, t);
                last = Math.max(last, t);
                String key = f[1] + "~".repeat(Math.max(0, Integer.parseInt(f[2]) - f[1].length()));
                keyCounts.merge(key, 1, Integer::sum);
                keySizes.add((long) key.length());
                clientIds.add(f[4]);
                String op = f[5];
                ops.merge(op, 1L, Long::sum);
                long value = Long.parseLong(f[3]);
                boolean write = Set.of("set", "add", "replace", "cas", "append", "prepend").contains(op);
                if (write || op.equals("get") || op.equals("gets")) {
                    valueSizes.add(value);
                    lastValue.put(key, value);
                }
                long ttl = Long.parseLong(f[6]);
                if (write && ttl > 0) {
                    ttls.merge(ttl, 1L, Long::sum);
                    withTtl++;
                }
            }
            seconds = (last - first) / 1e9;
            rate = requests / seconds;
            long base = Math.floorDiv(first, 1_000_000_000L);
            for (Map.Entry<Long, Integer> e : perSecond.entrySet()) {
                if (e.getValue() > peakRequests) {
                    peakRequests = e.getValue();
                    peakSecond = e.getKey() - base;
                }
            }
            clients = clientIds.size();
            keys = keyCounts.size();
            ops.forEach((op, c) -> operations.put(op, (double) c / requests));
            keySize = summary(keySizes);
            keyMean = keySizes.stream().mapToLong(Long::longValue).sum() / (double) keySizes.size();
            valueSize = summary(valueSizes);
            valueMean = valueSizes.stream().mapToLong(Long::longValue).sum() / (double) valueSizes.size();
            List<Integer> popular = keyCounts.values().stream().filter(c -> c >= 2)
                    .sorted(Comparator.reverseOrder()).toList();
            double mx = 0;
            double my = 0;
            for (int r = 1; r <= popular.size(); r++) {
                mx += Math.log(r) / popular.size();
                my += Math.log(popular.get(r - 1)) / popular.size();
            }
            double sxy = 0;
            double sxx = 0;
            for (int r = 1; r <= popular.size(); r++) {
                sxy += (Math.log(r) - mx) * (Math.log(popular.get(r - 1)) - my);
                sxx += (Math.log(r) - mx) * (Math.log(r) - mx);
            }
            alpha = -sxy / sxx;
            oneHit = keyCounts.values().stream().filter(c -> c == 1).count() / (double) keys;
            long w = withTtl;
            ttls.forEach((s, c) -> ttl.put(s, (double) c / w));
            for (String key : keyCounts.keySet()) {
                workingSet += key.length() + lastValue.getOrDefault(key, 0L);
            }
        }

        /** {p50, p99, max}, nearest rank. */
        private static long[] summary(List<Long> values) {
            List<Long> sorted = values.stream().sorted().toList();
            int n = sorted.size();
            return new long[] {sorted.get((int) Math.ceil(0.50 * n) - 1), sorted.get((int) Math.ceil(0.99 * n) - 1),
                    sorted.get(n - 1)};
        }
    }

    @Test
    void everyFigureOfATwitterTraceEqualsTheDefinitions() throws Exception {
        CacheTraceFile trace = CacheTraceFile.builder().seed(11).seconds(6, 500).varying(60).keys(800, 1.1).clients(9)
                .ops("get", 60, "set", 25, "delete", 5, "incr", 5, "add", 5)
                .valueSizes(new int[] {50, 230, 1024, 4000}, new int[] {4, 3, 2, 1})
                .ttls(new int[] {0, 60, 600, 86400}, new int[] {1, 4, 2, 1}).make();
        Path log = trace.writeZstd(dir.resolve("cluster9.0.zst"));
        LogProfile p = Profiler.of(ReadableLog.open(log, null), false);
        Expected x = new Expected(trace.lines());

        assertEquals("twitter-cache-trace", p.format());
        assertEquals("zstd", p.compression());
        assertEquals(x.requests, p.requests());
        assertEquals(x.seconds, p.seconds(), EXACT);
        assertEquals(x.rate, p.rate(), EXACT);
        assertEquals(new LogProfile.PeakSecond(x.peakSecond, x.peakRequests), p.peakSecond());
        assertEquals(new LogProfile.PeakSecond(3, 740), p.peakSecond(), "second 3 has 4 × 60 more");
        assertEquals(x.clients, p.clients());
        assertEquals(x.keys, p.keys());
        assertEquals(x.operations.keySet(), p.operations().keySet());
        x.operations.forEach((op, share) -> assertEquals(share, p.operations().get(op), EXACT, op));
        assertEquals(x.keyMean, p.keySize().mean(), EXACT);
        assertEquals(List.of(x.keySize[0], x.keySize[1], x.keySize[2]),
                List.of(p.keySize().p50(), p.keySize().p99(), p.keySize().max()));
        assertEquals(x.valueMean, p.valueSize().mean(), EXACT);
        assertEquals(List.of(x.valueSize[0], x.valueSize[1], x.valueSize[2]),
                List.of(p.valueSize().p50(), p.valueSize().p99(), p.valueSize().max()));
        assertEquals(x.alpha, p.zipfAlpha(), EXACT);
        assertEquals(x.oneHit, p.oneHitWonderRatio(), EXACT);
        assertEquals(x.ttl.keySet(), p.ttl().keySet());
        x.ttl.forEach((t, share) -> assertEquals(share, p.ttl().get(t), EXACT, t + " s"));
        assertEquals(x.workingSet, p.workingSetBytes());
        assertNull(p.hitRate(), "a cache trace holds no replies");
        assertEquals(0, p.badLines());

        // the JSON holds the same figures under the names
        JsonNode j = new ObjectMapper().readTree(ProfileJson.of(p));
        assertEquals(x.requests, j.get("requests").asLong());
        assertEquals(x.seconds, j.get("seconds").asDouble(), EXACT);
        assertEquals(x.rate, j.get("rate").asDouble(), EXACT);
        assertEquals(x.peakRequests, j.get("peakSecond").get("requests").asLong());
        assertEquals(x.clients, j.get("clients").asLong());
        assertEquals(x.keys, j.get("keys").asLong());
        x.operations.forEach((op, share) -> assertEquals(share, j.get("operations").get(op).asDouble(), EXACT));
        assertEquals(x.keySize[1], j.get("keySize").get("p99").asLong());
        assertEquals(x.valueMean, j.get("valueSize").get("mean").asDouble(), EXACT);
        assertEquals(x.valueSize[0], j.get("valueSize").get("p50").asLong());
        assertEquals(x.valueSize[2], j.get("valueSize").get("max").asLong());
        assertEquals(x.alpha, j.get("zipfAlpha").asDouble(), EXACT);
        assertEquals(x.oneHit, j.get("oneHitWonderRatio").asDouble(), EXACT);
        x.ttl.forEach((t, share) -> assertEquals(share, j.get("ttl").get(Long.toString(t)).asDouble(), EXACT));
        assertEquals(x.workingSet, j.get("workingSetBytes").asLong());
        assertTrue(j.get("hitRate").isNull());

        String text = ProfileText.of(p);
        assertTrue(text.contains("Requests: " + x.requests + " Seconds: "), text);
        assertTrue(text.contains("Zipf alpha: " + String.format(java.util.Locale.ROOT, "%.4f", x.alpha)), text);
        assertTrue(text.contains("Working set: " + x.workingSet + " bytes"), text);
    }

    @Test
    void theHitRateOfReadsWhereTheLogHoldsReplies() {
        VerbTable verbs = new VerbTable();
        Profiler p = new Profiler(verbs);
        byte[] get = "get".getBytes(StandardCharsets.US_ASCII);
        byte[] set = "set".getBytes(StandardCharsets.US_ASCII);
        // a reader of a log with replies, as a capture's will be: 7 hits, 3 misses, 1 error, 2 reads without a reply
        byte[] replies = {1, 1, 2, 1, 1, 2, 1, 1, 2, 1, 3, 0, 0};
        LogReader reader = new LogReader() {
            private int n;

            @Override
            public boolean next(LogEntry e) {
                if (n > replies.length) {
                    return false;
                }
                e.reset();
                boolean write = n == replies.length;
                e.verb = verbs.id(write ? set : get, 0, 3);
                e.command(write ? Command.SET : Command.GET);
                e.addKey(null, ("k" + n).getBytes(StandardCharsets.US_ASCII), 0, 2);
                e.originalReply = write ? LogEntry.REPLY_OK : replies[n];
                e.timeNanos = n * 100_000_000L;
                n++;
                return true;
            }

            @Override
            public long position() {
                return n;
            }

            @Override
            public long size() {
                return -1;
            }

            @Override
            public long lines() {
                return n;
            }

            @Override
            public void close() {
            }
        };
        LogEntry e = new LogEntry();
        try (reader) {
            while (reader.next(e)) {
                p.add(e);
            }
        } catch (java.io.IOException impossible) {
            throw new AssertionError(impossible);
        }
        LogProfile profile = p.finish("capture", "test", "", "memcache", 14, 0, List.of(), List.of());
        assertEquals(0.7, profile.hitRate(), EXACT, "7 of the 10 reads the server answered found their key");
        assertEquals(10, profile.repliedReads());
        assertTrue(ProfileText.of(profile).contains("Hit rate: 70.00 % (of 10 reads the original server answered)"));
    }
}
