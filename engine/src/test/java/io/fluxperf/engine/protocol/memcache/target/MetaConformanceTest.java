package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The embedded server answers a scripted session of meta commands exactly as memcached 1.6.18 does:
 * every command with the flags it implements, quiet mode, base64 keys, the win token of a
 * vivifying get, the error replies, and memcached's stats for them. Both servers get the same bytes
 * in lock step (each step is followed by {@code mn}, whose {@code MN} ends its replies). Compared
 * structurally: cas values (by the pattern of equal and different values), and the seconds of a
 * TTL, {@code me}'s {@code exp} and {@code la}, which depend on when each server's clock ticked.
 */
@ExtendWith(RealServers.class)
class MetaConformanceTest {
    private static final Pattern CAS = Pattern.compile("(?<=\\s)(c|cas=)(\\d+)");
    private static final Pattern SECONDS = Pattern.compile("(?<=\\s)(t|exp=-|la=)(\\d+)");
    private static final List<String> DETERMINISTIC_STATS = List.of("cmd_get", "cmd_set", "cmd_touch", "get_hits",
            "get_misses", "delete_misses", "delete_hits", "incr_misses", "incr_hits", "decr_misses", "decr_hits",
            "cas_misses", "cas_hits", "cas_badval", "touch_hits", "touch_misses", "store_too_large", "total_items");
    private static final String K250 = "k".repeat(250);
    private static final String TWO_MB = "y".repeat(2_000_000);

    @RealServer
    private MemcachedProcess memcached;
    private MemcacheTargetServer embedded;

    @BeforeEach
    void start() {
        embedded = MemcacheTargetServer.start(TargetOptions.builder().memoryLimitBytes(1 << 20).build());
    }

    @AfterEach
    void stop() {
        if (embedded != null) {
            embedded.close();
        }
    }

    @Test
    void answersTheMetaSessionAsMemcachedDoes() {
        Side reference = new Side("memcached", memcached.port());
        Side ours = new Side("embedded", embedded.address().getPort());
        try {
            for (String step : script()) {
                List<String> expected = reference.exchange(step);
                List<String> actual = ours.exchange(step);
                assertEquals(expected, actual, () -> "reply to " + printable(step));
            }
            Map<String, String> expectedStats = reference.stats();
            Map<String, String> actualStats = ours.stats();
            for (String name : DETERMINISTIC_STATS) {
                assertEquals(expectedStats.get(name), actualStats.get(name), "stat " + name);
            }
        } finally {
            reference.close();
            ours.close();
        }
    }

    private static List<String> script() {
        return List.of(
                "stats reset\r\n",
                "flush_all\r\n",
                // mg and ms with every return flag
                "ms a 3 T0 F5\r\nabc\r\n",
                "mg a v\r\n",
                "mg a\r\n",
                "mg a s v t f c k O123 h\r\n",
                "mg a h\r\n",
                "mg a v q\r\n",
                "mg missing v\r\n",
                "mg missing v k O9\r\n",
                "mg missing v q O9\r\n",
                "mg missing v q O9\r\nmg a v q O10\r\nmg b v q O11\r\n",
                "ms t 1 T100\r\nx\r\n",
                "mg t t v\r\n",
                "mg t T200 t\r\n",
                "mg missing T10\r\n",
                "ms e 0\r\n\r\n",
                "mg e v s\r\n",
                "me a\r\n",
                "me missing\r\n",
                "me t\r\n",
                // ms modes, cas, quiet, return flags
                "ms b 2 ME\r\nbb\r\n",
                "ms b 2 ME\r\nbb\r\n",
                "ms c 1 MR\r\nc\r\n",
                "ms b 3 MR k O1\r\nbbb\r\n",
                "ms b 2 MA\r\n_a\r\n",
                "ms b 2 MP\r\np_\r\n",
                "ms nokey 1 MA\r\nx\r\n",
                "ms b 1 MS q\r\nz\r\n",
                "ms b 1 ME q O7\r\nz\r\n",
                "ms b 1 c\r\ny\r\n",
                "mg b c v\r\n",
                "ms b 1 C1\r\nw\r\n",
                "ms nokey 1 C1\r\nw\r\n",
                "ms b 1 MA C1\r\nw\r\n",
                "mg b v f\r\n",
                // md
                "md b\r\n",
                "md b\r\n",
                "md b q O3\r\n",
                "ms d 1\r\nd\r\n",
                "md d q O4\r\n",
                "ms d 1\r\nd\r\n",
                "md d C1 k\r\n",
                // ma
                "ms n 2\r\n10\r\n",
                "ma n\r\n",
                "ma n v\r\n",
                "ma n MD D5 v\r\n",
                "ma n M- D100 v t\r\n",
                "ma n MI D18446744073709551615 v\r\n",
                "ma nokey\r\n",
                "ma nokey MD\r\n",
                "ma nokey q O5\r\n",
                "ma new N0 J7 v\r\n",
                "ma new v q O6\r\n",
                "ma new2 N0 q O8\r\n",
                "ma a\r\n",
                "ma n C1\r\n",
                "ma n MX\r\n",
                "ma n D-1\r\n",
                "ma n J\r\n",
                // vivify and the win token
                "mg viv N30 v t\r\n",
                "mg viv v\r\n",
                "mg viv N30 v\r\n",
                // base64 keys
                "ms aGk= 2 b\r\nhi\r\n",
                "mg aGk= b k v\r\n",
                "mg hi k v\r\n",
                "mg aGk= b k q\r\n",
                "me aGk= b\r\n",
                "md aGk= b k\r\n",
                "mg aGk= b k v\r\n",
                "ms qa 1 b\r\nx\r\n",
                "mg !!!! b v\r\n",
                // errors
                "mg\r\n",
                "ms a\r\n",
                "ms a abc\r\n",
                "ms a -1\r\n",
                "ms a 1 Z\r\nx\r\n",
                "ms a 1 MX\r\nx\r\n",
                "ms a 1 M\r\nx\r\n",
                "ms a 1 T\r\nx\r\n",
                "ms a 2\r\nxyz\r\n",
                "mg a v v\r\n",
                "mg a x\r\n",
                "mg a T\r\n",
                "mg a Oabcdefghijabcdefghijabcdefghijabc\r\n",
                "mg missing Oabcdefghijabcdefghijabcdefghijabc\r\n",
                "ms a 1 Oabcdefghijabcdefghijabcdefghijabc\r\nx\r\n",
                "md a Z\r\n",
                "md a Oabcdefghijabcdefghijabcdefghijabc\r\n",
                "ma a Z\r\n",
                "mz\r\n",
                "me\r\n",
                "mg " + K250 + " v\r\n",
                "mg " + K250 + "k v\r\n",
                "mg a 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\r\n",
                "mg a v t s f c k h O1 q u P L 1 2 3 4 5\r\n",
                "ms big 2000000\r\n" + TWO_MB + "\r\n",
                "mg big v\r\n",
                "ms big 1 q\r\nx\r\n",
                "ms big 2000000 q\r\n" + TWO_MB + "\r\n",
                "mg big v\r\n",
                // text and meta on one connection
                "set mixed 0 0 1\r\nm\r\n",
                "mg mixed v\r\n",
                "get a\r\n");
    }

    private static String printable(String step) {
        String s = step.length() > 120 ? step.substring(0, 120) + "…(" + step.length() + " bytes)" : step;
        return "'" + s.replace("\r", "\\r").replace("\n", "\\n") + "'";
    }

    /** One server's connection and how its replies are normalized. */
    private static final class Side implements AutoCloseable {
        private final String name;
        private final TextSession session;
        private final Map<String, String> casPlaceholders = new HashMap<>();

        Side(String name, int port) {
            this.name = name;
            this.session = new TextSession(port);
        }

        /** Sends a step and mn, and returns the reply lines before the last MN. */
        List<String> exchange(String step) {
            session.send(step + "mn\r\n");
            int barriers = 1 + countOf(step, "mn\r\n");
            List<String> lines = new ArrayList<>();
            while (true) {
                String line = session.readLine();
                if (line == null) {
                    throw new AssertionError(name + " closed the connection after " + printable(step) + "; got " + lines);
                }
                if (line.equals("MN") && --barriers == 0) {
                    return lines;
                }
                lines.add(normalize(line));
                if (line.startsWith("VA ") || line.startsWith("VALUE ")) {
                    String[] parts = line.split(" ");
                    int length = Integer.parseInt(parts[line.startsWith("VA ") ? 1 : 3]);
                    String data = new String(session.readBytes(length), StandardCharsets.ISO_8859_1);
                    lines.add(data.length() > 100 ? data.length() + " bytes" : data);
                    session.readBytes(2);
                }
            }
        }

        private String normalize(String line) {
            Matcher cas = CAS.matcher(line);
            StringBuilder out = new StringBuilder();
            while (cas.find()) {
                String placeholder = casPlaceholders.computeIfAbsent(cas.group(2), c -> "<cas" + casPlaceholders.size() + ">");
                cas.appendReplacement(out, Matcher.quoteReplacement(cas.group(1) + placeholder));
            }
            cas.appendTail(out);
            return SECONDS.matcher(out).replaceAll(m -> Matcher.quoteReplacement(
                    m.group(1) + (m.group(1).equals("exp=-") && m.group(2).equals("1") ? "1" : "<seconds>")));
        }

        Map<String, String> stats() {
            Map<String, String> stats = new LinkedHashMap<>();
            for (String line : session.call("stats\r\n")) {
                String[] parts = line.split(" ", 3);
                if (parts.length == 3 && parts[0].equals("STAT")) {
                    stats.put(parts[1], parts[2]);
                }
            }
            return stats;
        }

        private static int countOf(String s, String part) {
            int n = 0;
            for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
                n++;
            }
            return n;
        }

        @Override
        public void close() {
            session.close();
        }
    }
}
