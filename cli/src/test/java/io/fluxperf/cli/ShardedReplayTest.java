package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MONITOR log replayed by three agents ({@code --shard 0/3}, {@code 1/3}, {@code 2/3}): redis
 * counts each of the log's commands once, and each original client's commands arrive on one
 * connection of one agent, in the log's order.
 */
@ExtendWith(RealServers.class)
class ShardedReplayTest {
    private static final int SHARDS = 3;
    private static final int CLIENTS = 24;
    private static final int PER_CLIENT = 40;
    /** A MONITOR line as redis prints it: time, [db address], the quoted words. */
    private static final Pattern LINE = Pattern.compile("^[0-9.]+ \\[\\d+ ([^\\]]+)\\] \"(\\w+)\" \"([^\"]*)\"(?: \"([^\"]*)\")?");

    @Test
    void threeAgentsReplayEveryCommandOnceAndEachClientInOrderOnOneConnection(RedisProcess target, @TempDir Path dir)
            throws Exception {
        // the log: 24 clients, each setting, appending to and reading its own keys; "c7#12" is client 7's 12th command
        StringBuilder log = new StringBuilder("OK\n");
        Map<String, Long> expected = new HashMap<>();
        double time = 1796526000.0;
        for (int n = 0; n < PER_CLIENT; n++) {
            for (int c = 0; c < CLIENTS; c++) {
                String verb = switch (n % 3) {
                    case 0 -> "SET";
                    case 1 -> "APPEND";
                    default -> "GET";
                };
                String key = "c" + c + "#" + n;
                String args = verb.equals("GET") ? "\"" + key + "\"" : "\"" + key + "\" \"v" + n + "\"";
                log.append(String.format(java.util.Locale.ROOT, "%.6f [0 10.1.0.%d:%d] \"%s\" %s%n",
                        time, c, 40000 + c, verb, args));
                time += 0.0001;
                expected.merge(verb.toLowerCase(java.util.Locale.ROOT), 1L, Long::sum);
            }
        }
        Path file = dir.resolve("monitor.log");
        Files.writeString(file, log, StandardCharsets.ISO_8859_1);

        ObjectMapper json = new ObjectMapper();
        long replayed = 0;
        List<String> lines;
        try (RedisProcess.Monitor monitor = target.monitor()) {
            for (int i = 0; i < SHARDS; i++) {
                Path result = dir.resolve("shard-" + i + ".json");
                CliRun run = CliRun.of("replay", "-s", target.address(), "-l", file.toString(), "--speed", "max",
                        "--shard", i + "/" + SHARDS, "--no-live", "--json", result.toString());
                assertEquals(0, run.exitCode(), run.out() + run.err());
                long mine = json.readTree(result.toFile()).get("total").get("requests").asLong();
                assertTrue(mine > 0 && mine < CLIENTS * PER_CLIENT, "agent " + i + " replayed " + mine);
                replayed += mine;
            }
            assertEquals(CLIENTS * PER_CLIENT, replayed, "the agents together replay the log once");
            lines = monitor.await(CLIENTS * PER_CLIENT, Duration.ofSeconds(10));
        }

        // redis' own count of each command equals the log's
        Map<String, Long> stats = target.commandstats();
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            assertEquals(e.getValue(), stats.get(e.getKey()), "cmdstat_" + e.getKey() + " of " + stats);
        }

        // each original client's commands: one connection (so one agent), in the log's order
        Map<Integer, String> connectionOf = new HashMap<>();
        Map<Integer, List<Integer>> order = new LinkedHashMap<>();
        for (String l : lines) {
            Matcher m = LINE.matcher(l);
            if (!m.find() || !m.group(3).startsWith("c")) {
                continue;
            }
            String[] id = m.group(3).substring(1).split("#");
            int client = Integer.parseInt(id[0]);
            String before = connectionOf.putIfAbsent(client, m.group(1));
            assertEquals(before == null ? m.group(1) : before, m.group(1), "client " + client + " on two connections");
            order.computeIfAbsent(client, c -> new ArrayList<>()).add(Integer.parseInt(id[1]));
        }
        assertEquals(CLIENTS, order.size());
        for (Map.Entry<Integer, List<Integer>> e : order.entrySet()) {
            List<Integer> seen = e.getValue();
            assertEquals(PER_CLIENT, seen.size(), "client " + e.getKey());
            for (int n = 0; n < PER_CLIENT; n++) {
                assertEquals(n, seen.get(n), "client " + e.getKey() + "'s commands out of order: " + seen);
            }
        }

        // a replay's schedule starts at --start-at as run's does; a late one says so and still replays its share
        long started = System.nanoTime();
        CliRun waited = CliRun.of("replay", "-s", target.address(), "-l", file.toString(), "--speed", "max", "--shard", "0/3",
                "--start-at", java.time.Instant.now().plusSeconds(2).toString(), "--no-live");
        assertEquals(0, waited.exitCode(), waited.out() + waited.err());
        assertTrue((System.nanoTime() - started) / 1e9 >= 2, "waited for the start");
        CliRun late = CliRun.of("replay", "-s", target.address(), "-l", file.toString(), "--speed", "max", "--shard", "0/3",
                "--start-at", java.time.Instant.now().minusSeconds(3).toString(), "--no-live");
        assertEquals(0, late.exitCode(), late.out() + late.err());
        assertTrue(late.err().contains("fluxperf: late: the load was ready 3."), late.err());
    }
}
