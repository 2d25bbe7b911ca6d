package io.fluxperf.engine.protocol.memcache.target;

import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded server answers a scripted session exactly as memcached 1.6.18 does: every command,
 * noreply, the error replies, expiry, cas, incr/decr edge cases, oversized values, and the cases
 * where memcached hangs up. Both servers get the same bytes over raw sockets in lock step; only
 * what differs by nature is compared structurally: cas uniques (by the pattern of equal and
 * different values), the version string, and which stats exist (the deterministic counters must
 * be equal).
 */
@ExtendWith(RealServers.class)
class MemcachedConformanceTest {
    private static final String K250 = "k".repeat(250);
    private static final String K251 = "k".repeat(251);
    private static final String TWO_MB = "y".repeat(2_000_000);
    private static final Pattern VALUE_WITH_CAS = Pattern.compile("^VALUE (\\S+) (\\d+) (\\d+) (\\d+)$");
    /**
     * Counters that depend only on the commands sent, so both servers must agree on them.
     * (get_expired does not: memcached's LRU crawler reclaims some expired items before a get finds them.)
     */
    private static final List<String> DETERMINISTIC_STATS = List.of("cmd_get", "cmd_set", "cmd_flush", "cmd_touch",
            "get_hits", "get_misses", "delete_misses", "delete_hits", "incr_misses", "incr_hits", "decr_misses",
            "decr_hits", "cas_misses", "cas_hits", "cas_badval", "touch_hits", "touch_misses", "store_too_large", "total_items");

    @RealServer
    private MemcachedProcess memcached;
    private MemcacheTargetServer embedded;

    @BeforeEach
    void start() {
        // 1 MiB: the largest item is then just under memcached's default 1 MB item size limit
        embedded = MemcacheTargetServer.start(TargetOptions.builder().memoryLimitBytes(1 << 20).build());
    }

    @AfterEach
    void stop() {
        if (embedded != null) {
            embedded.close();
        }
    }

    @Test
    void answersTheScriptedSessionAsMemcachedDoes() throws Exception {
        Side reference = new Side("memcached", memcached.port());
        Side ours = new Side("embedded", embedded.address().getPort());
        try {
            for (String step : script()) {
                if (step.startsWith("#sleep ")) {
                    Thread.sleep(Long.parseLong(step.substring(7))); // deliberate: time passes on both servers (TTLs, a delayed flush_all)
                    continue;
                }
                List<String> expected = reference.exchange(step);
                List<String> actual = ours.exchange(step);
                assertEquals(expected, actual, () -> "reply to " + printable(step));
            }
            for (String closing : List.of("quit\r\n", "GET / HTTP/1.1\r\n", "set " + "x".repeat(3000))) {
                assertTrue(reference.closesAfter(closing), () -> "memcached should hang up after " + printable(closing));
                assertTrue(ours.closesAfter(closing), () -> "embedded server should hang up after " + printable(closing));
            }
            Map<String, String> expectedStats = reference.stats();
            Map<String, String> actualStats = ours.stats();
            for (String name : actualStats.keySet()) {
                assertTrue(expectedStats.containsKey(name), () -> "memcached has no stat named " + name);
            }
            for (String name : DETERMINISTIC_STATS) {
                assertEquals(expectedStats.get(name), actualStats.get(name), "stat " + name);
            }
            for (String name : List.of("pid", "uptime", "time", "curr_connections", "total_connections",
                    "bytes_read", "bytes_written", "limit_maxbytes", "curr_items", "total_items", "bytes", "evictions")) {
                assertTrue(actualStats.containsKey(name), () -> "missing stat " + name);
                assertTrue(actualStats.get(name).matches("\\d+"), () -> "stat " + name + " is " + actualStats.get(name));
            }
            assertEquals(Long.toString(ProcessHandle.current().pid()), actualStats.get("pid"));
            assertEquals("1048576", actualStats.get("limit_maxbytes"));
            assertFalse(actualStats.get("bytes_read").equals("0"));
        } finally {
            reference.close();
            ours.close();
        }
    }

    /** The session: each entry is sent as is (commands with their data blocks); "#sleep N" pauses both. */
    private static List<String> script() {
        long inAnHour = System.currentTimeMillis() / 1000 + 3600;
        List<String> s = new ArrayList<>(List.of(
                "stats reset\r\n",
                "flush_all\r\n",
                // storage commands and multi-key gets
                "set a 5 0 3\r\nabc\r\n",
                "get a\r\n",
                "gets a\r\n",
                "add a 0 0 1\r\nx\r\n",
                "add b 7 0 2\r\nbb\r\n",
                "replace c 0 0 1\r\nx\r\n",
                "replace b 8 0 3\r\nbbb\r\n",
                "append b 9 0 2\r\n_a\r\n",
                "prepend b 9 0 2\r\np_\r\n",
                "append nokey 0 0 1\r\nx\r\n",
                "prepend nokey 0 0 1\r\nx\r\n",
                "get a b nokey\r\n",
                "gets a b\r\n",
                "get  a   b \r\n",
                "bget a\r\n",
                "set empty 0 0 0\r\n\r\n",
                "get empty\r\n",
                "set bin 4294967295 0 6\r\n\u0000\u0001 \t\u00ff\r\r\n",
                "get bin\r\n",
                "set line 0 0 5\nhello\r\nget line\n",
                // cas with the right unique, then a stale one
                "cas a 0 0 1 {cas:a}\r\nz\r\n",
                "cas a 0 0 1 {cas:a}\r\ny\r\n",
                "gets a\r\n",
                "cas nokey 0 0 1 1\r\nx\r\n",
                "cas a 0 0 1\r\ny\r\n",
                "cas a 0 0 1 abc\r\ny\r\n",
                "cas a 0 0 1 -1\r\ny\r\n",
                "cas a 0 0 1 {cas:a} noreply\r\nw\r\n",
                "get a\r\n",
                // delete
                "delete a\r\n",
                "delete a\r\n",
                "delete b 0\r\n",
                "set b 0 0 1\r\nb\r\n",
                "delete b 1\r\n",
                "delete b 0 1\r\n",
                "delete b 0 noreply\r\n",
                "delete b noreply\r\n",
                "delete x y z w\r\n",
                "delete\r\n",
                // incr and decr
                "set n 0 0 2\r\n10\r\n",
                "incr n 5\r\n",
                "decr n 100\r\n",
                "get n\r\n",
                "set n 3 0 20\r\n18446744073709551615\r\n",
                "incr n 1\r\n",
                "gets n\r\n",
                "incr n 18446744073709551615\r\n",
                "incr n 7\r\n",
                "decr n 5\r\n",
                "get n\r\n",
                "set n 0 0 3\r\n 12\r\n",
                "incr n 1\r\n",
                "set n 0 0 4\r\n12 x\r\n",
                "incr n 1\r\n",
                "set n 0 0 3\r\n12x\r\n",
                "incr n 1\r\n",
                "set n 0 0 2\r\n-1\r\n",
                "incr n 1\r\n",
                "set n 0 0 2\r\n99\r\n",
                "incr nokey 1\r\n",
                "decr nokey 1\r\n",
                "incr n -1\r\n",
                "incr n abc\r\n",
                "incr n 18446744073709551616\r\n",
                "incr n\r\n",
                "incr n 1 2 3\r\n",
                "incr empty 1\r\n",
                "incr n 1 noreply\r\n",
                "decr n 1 noreply\r\n",
                "get n\r\n",
                // noreply on every storage command
                "set q 0 0 1 noreply\r\nq\r\n",
                "add q 0 0 1 noreply\r\nq\r\n",
                "replace q 3 0 1 noreply\r\nr\r\n",
                "append q 0 0 1 noreply\r\ns\r\n",
                "prepend q 0 0 1 noreply\r\np\r\n",
                "get q\r\n",
                "set q 0 0 1 extra\r\nq\r\n",
                // touch, gat
                "touch q 100\r\n",
                "touch nokey 100\r\n",
                "touch q abc\r\n",
                "touch q 100 noreply\r\n",
                "touch q\r\n",
                "gat 100 q nokey\r\n",
                "gats 100 q\r\n",
                "gat abc q\r\n",
                "gat 100\r\n",
                // expiry: negative, absolute past, absolute future
                "set neg 0 -1 1\r\nx\r\n",
                "get neg\r\n",
                "add neg 0 0 1\r\ny\r\n",
                "get neg\r\n",
                "set past 0 1000000000 1\r\nx\r\n",
                "get past\r\n",
                "set future 0 " + inAnHour + " 1\r\nx\r\n",
                "get future\r\n",
                "set wrapped 0 99999999999 1\r\nx\r\n",
                "get wrapped\r\n",
                "set thirty 0 2592000 1\r\nx\r\n",
                "get thirty\r\n",
                "touch thirty -1\r\n",
                "get thirty\r\n",
                // malformed lines and unknown commands
                "\r\n",
                "\n",
                "x\r\n",
                "xx\r\n",
                "foo bar\r\n",
                "GET a\r\n",
                "get\r\n",
                "get \r\n",
                "gets\r\n",
                "\tversion\r\n",
                "shutdown\r\n",
                "set a 0 0\r\nabc\r\n",
                "set a 0 0 abc\r\nabc\r\n",
                "set a 0 0 noreply\r\nabc\r\n",
                "set a -1 0 1\r\nx\r\n",
                "set a 0 0 -1\r\n",
                "set a 0 0 2147483648\r\n",
                "set a 0 99999999999999999999 1\r\nx\r\n",
                "set a 0 0 3\r\nabcde\r\n",
                "set a 0 0 3 noreply\r\nabcde\r\n",
                "set a 0 0 3\r\nabcd\r\n",
                "set a 4294967296 0 1\r\nx\r\n",
                "get a\r\n",
                "set a +5 +0 +1\r\nx\r\n",
                "get a\r\n",
                // key length limits
                "set " + K251 + " 0 0 1\r\nx\r\n",
                "set " + K251 + " 0 0 1 noreply\r\nx\r\n",
                "get " + K251 + "\r\n",
                "get a " + K251 + " b\r\n",
                "delete " + K251 + "\r\n",
                "incr " + K251 + " 1\r\n",
                "touch " + K251 + " 1\r\n",
                "set " + K250 + " 0 0 1\r\nx\r\n",
                "get " + K250 + " a\r\n",
                // values too large for the cache: refused, their data swallowed; set drops the old value
                "set big 0 0 1\r\nx\r\n",
                "set big 0 0 2000000\r\n" + TWO_MB + "\r\n",
                "get big\r\n",
                "set big 0 0 1\r\nx\r\n",
                "add big 0 0 2000000\r\n" + TWO_MB + "\r\n",
                "get big\r\n",
                "set big 0 0 2000000 noreply\r\n" + TWO_MB + "\r\n",
                "get big\r\n",
                // odds and ends
                "verbosity 1\r\n",
                "verbosity\r\n",
                "verbosity x\r\n",
                "verbosity 1 noreply\r\n",
                "verbosity 1 2 3\r\n",
                "version\r\n",
                "stats nosuchgroup\r\n",
                "flush_all x\r\n",
                "flush_all 1 2 3\r\n",
                "set f 0 0 1\r\nx\r\n",
                "flush_all 0\r\n",
                "get f\r\n",
                "set f 0 0 1\r\nx\r\n",
                "flush_all noreply\r\n",
                "get f\r\n",
                // relative expiry and a delayed flush (memcached's clock ticks in whole seconds, so leave margins)
                "set ttl 0 2 1\r\nx\r\n",
                "set ttl2 0 0 1\r\nx\r\n",
                "touch ttl2 2\r\n",
                "set q2 0 0 1\r\nx\r\n",
                "gat 2 q2\r\n",
                "get ttl ttl2 q2\r\n",
                "#sleep 2600",
                "get ttl ttl2 q2\r\n",
                "touch ttl 10\r\n",
                "set f 0 0 1\r\nx\r\n",
                "flush_all 2\r\n",
                "#sleep 2600",
                "get f\r\n"));
        return s;
    }

    private static String printable(String step) {
        String s = step.length() > 120 ? step.substring(0, 120) + "…(" + step.length() + " bytes)" : step;
        return "'" + s.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t") + "'";
    }

    /** One server's connection, the cas uniques it has shown, and how its transcript is normalized. */
    private static final class Side implements AutoCloseable {
        private final String name;
        private final int port;
        private TextSession session;
        private final Map<String, String> lastCasByKey = new HashMap<>();
        private final Map<String, String> casPlaceholders = new HashMap<>();

        Side(String name, int port) {
            this.name = name;
            this.port = port;
            this.session = new TextSession(port);
        }

        /**
         * Sends a step followed by {@code version}, and returns the reply lines before the VERSION
         * line: a lock step that works for commands with no reply (noreply) and with several.
         */
        List<String> exchange(String step) {
            String command = step.replace("{cas:a}", lastCasByKey.getOrDefault("a", "0"));
            boolean isVersion = step.equals("version\r\n");
            session.send(command + "version\r\n");
            List<String> lines = new ArrayList<>();
            int versionsToSee = isVersion ? 2 : 1;
            while (true) {
                List<String> reply = session.readReply();
                String first = reply.get(0);
                if (first.equals("<EOF>")) {
                    throw new AssertionError(name + " closed the connection after " + printable(step) + "; got " + lines);
                }
                if (first.startsWith("VERSION ")) {
                    if (--versionsToSee == 0) {
                        return lines;
                    }
                    lines.add("VERSION <version>");
                    continue;
                }
                for (int i = 0; i < reply.size(); i++) {
                    String line = reply.get(i);
                    Matcher m = VALUE_WITH_CAS.matcher(line);
                    if (m.matches()) {
                        lastCasByKey.put(m.group(1), m.group(4));
                        String placeholder = casPlaceholders.computeIfAbsent(m.group(4), c -> "<cas" + casPlaceholders.size() + ">");
                        line = "VALUE " + m.group(1) + " " + m.group(2) + " " + m.group(3) + " " + placeholder;
                        lines.add(line);
                        lines.add(reply.get(++i));
                    } else {
                        lines.add(line);
                    }
                }
            }
        }

        /** Sends bytes that make the server hang up; true if it did. Reconnects for what follows. */
        boolean closesAfter(String bytes) {
            session.send(bytes);
            boolean closed = session.closedByServer();
            session.close();
            session = new TextSession(port);
            return closed;
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

        @Override
        public void close() {
            session.close();
        }
    }
}
