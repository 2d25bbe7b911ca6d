package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The list and sorted-set keys of a workload (range-start, range-end, by-score, truncate) in
 * fluxperf's TOML, and rpc-perf 5's verbs and command keys that map onto them (list_fetch, llen,
 * zrank, zrange's start, end and by_score, a push's truncate).
 */
class ListVerbsConfigTest {
    @TempDir
    Path dir;

    private Path write(String name, String toml) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, toml, StandardCharsets.UTF_8);
        return p;
    }

    private RunConfig resolve(Path file, String format) {
        RunSettings s = new RunSettings();
        s.config = file;
        s.server = "127.0.0.1:6379";
        s.configFormat = format;
        return ConfigResolver.resolve(s.toFlags(), note -> { });
    }

    private static WorkloadConfig workload(RunConfig c, String name) {
        return c.workloads().stream().filter(w -> w.name().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError("no workload " + name + " in " + c.workloads().stream().map(WorkloadConfig::name).toList()));
    }

    @Test
    void fluxperfKeys() throws IOException {
        RunConfig c = resolve(write("run.toml", """
                [general]
                protocol = "redis"

                [[workload]]
                name = "all"
                method = "lrange"
                range-start = 0
                range-end = -1

                [[workload]]
                name = "scores"
                method = "zrange"
                range-start = -1
                range-end = 1
                by-score = true

                [[workload]]
                name = "above"
                method = "zrange"
                range-start = 3
                by-score = true

                [[workload]]
                name = "push"
                method = "rpush"
                truncate = 10

                [[workload]]
                name = "len"
                method = "llen"

                [[workload]]
                name = "rank"
                method = "zrank"
                inner-keyspace = 100
                """), null);
        WorkloadShape all = workload(c, "all").shape();
        assertEquals(0L, all.rangeStart());
        assertEquals(-1L, all.rangeEnd());
        assertFalse(all.byScore());
        assertEquals(" Range: 0..-1", all.describe());
        WorkloadShape scores = workload(c, "scores").shape();
        assertTrue(scores.byScore());
        assertEquals(" Range: -1..1 by score", scores.describe());
        assertEquals(" Range: 3..+inf by score", workload(c, "above").shape().describe());
        assertNull(workload(c, "above").shape().rangeEnd());
        assertEquals(10, workload(c, "push").shape().truncate());
        assertEquals(" Truncate: 10", workload(c, "push").shape().describe());
        assertEquals(Command.LLEN, workload(c, "len").method());
        assertEquals(Command.ZRANK, workload(c, "rank").method());
        assertEquals(100, workload(c, "rank").shape().innerKeys(), "zrank names a member");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "method = \"get\"\\nrange-start = 1 | workload[0].range-start (line 5): only lrange and zrange read a range, and this workload's method is get",
        "method = \"llen\"\\nrange-end = 1 | workload[0].range-end (line 5): only lrange and zrange read a range, and this workload's method is llen",
        "method = \"lrange\"\\nby-score = true | workload[0].by-score (line 5): only zrange reads by score, and this workload's method is lrange",
        "method = \"set\"\\ntruncate = 5 | workload[0].truncate (line 5): only lpush and rpush keep a list at most so long, and this workload's method is set",
        "method = \"lpush\"\\ntruncate = 0 | workload[0].truncate (line 5): ",
        "method = \"zrange\"\\nrange-start = 3000000000 | workload[0].range-start (line 5): ",
        "method = \"zrange\"\\nby-score = \"yes\" | workload[0].by-score (line 5): ",
    })
    void mistakesNameTheirKey(String lines, String message) throws IOException {
        Path f = write("run.toml", "[general]\nprotocol = \"redis\"\n[[workload]]\n" + lines.replace("\\n", "\n") + "\n");
        String e = assertThrows(UserError.class, () -> resolve(f, null)).getMessage();
        assertTrue(e.startsWith(f + ": " + message.strip()), e);
        assertFalse(e.contains("Exception") || e.contains("io.fluxperf"), e);
    }

    /** rpc-perf 5's list and sorted-set keyspaces, written for this test in the shape of its redis sample. */
    static final String V5 = """
            [general]
            protocol = "resp"
            interval = 1
            duration = 1

            [target]
            endpoints = ["127.0.0.1:6379"]

            [workload.ratelimit]
            start = 1000

            [[workload.keyspace]]
            klen = 8
            nkeys = 100
            inner_keys_klen = 3
            inner_keys_nkeys = 100
            commands = [
                { verb = "list_fetch", weight = 1 },
                { verb = "llen", weight = 1 },
                { verb = "list_length", weight = 1 },
                { verb = "rpush", weight = 1, truncate = 10 },
                { verb = "lpush", weight = 1, cardinality = 3, truncate = 10 },
                { verb = "list_push_back", weight = 1 },
            ]

            [[workload.keyspace]]
            klen = 7
            nkeys = 100
            inner_keys_klen = 3
            inner_keys_nkeys = 100
            commands = [
                { verb = "zrange", weight = 1 },
                { verb = "zrange", weight = 1, end = 5 },
                { verb = "zrange", weight = 1, start = 5, end = 10 },
                { verb = "zrange", weight = 1, start = -1, end = 1, by_score = true },
                { verb = "sorted_set_range", weight = 1, by_score = true },
                { verb = "zrank", weight = 1 },
                { verb = "sorted_set_get_rank", weight = 1 },
            ]

            [[workload.keyspace]]
            klen = 6
            nkeys = 100
            inner_keys_klen = 3
            inner_keys_nkeys = 100
            commands = [
                { verb = "hexists", weight = 1 },
                { verb = "hash_exists", weight = 1 },
                { verb = "get_batch", weight = 1, cardinality = 5 },
                { verb = "get", weight = 1, cardinality = 3 },
            ]
            """;

    @Test
    void rpcPerf5VerbsMapOntoTheWorkloadKeys() throws IOException {
        RunConfig c = resolve(write("v5.toml", V5), null);
        WorkloadConfig fetch = workload(c, "ks0-lrange");
        assertEquals(Command.LRANGE, fetch.method());
        assertEquals(0L, fetch.shape().rangeStart(), "list_fetch is LRANGE k 0 -1");
        assertEquals(-1L, fetch.shape().rangeEnd());
        assertEquals(Command.LLEN, workload(c, "ks0-llen").method());
        assertEquals(Command.LLEN, workload(c, "ks0-llen-2").method(), "list_length");
        assertEquals(10, workload(c, "ks0-rpush").shape().truncate());
        WorkloadConfig lpush = workload(c, "ks0-lpush-x3");
        assertEquals(10, lpush.shape().truncate());
        assertEquals(3, lpush.shape().cardinality());
        assertEquals(0, workload(c, "ks0-rpush-2").shape().truncate(), "list_push_back without truncate");

        WorkloadShape whole = workload(c, "ks1-zrange").shape();
        assertEquals(0L, whole.rangeStart(), "rpc-perf's zrange reads the whole set unless told");
        assertEquals(-1L, whole.rangeEnd());
        WorkloadShape head = workload(c, "ks1-zrange-2").shape();
        assertEquals(0L, head.rangeStart());
        assertEquals(5L, head.rangeEnd());
        WorkloadShape middle = workload(c, "ks1-zrange-3").shape();
        assertEquals(5L, middle.rangeStart());
        assertEquals(10L, middle.rangeEnd());
        WorkloadShape byScore = workload(c, "ks1-zrange-4").shape();
        assertTrue(byScore.byScore());
        assertEquals(-1L, byScore.rangeStart());
        assertEquals(1L, byScore.rangeEnd());
        WorkloadShape everyScore = workload(c, "ks1-zrange-5").shape();
        assertTrue(everyScore.byScore());
        assertNull(everyScore.rangeStart(), "by score without start: -inf");
        assertNull(everyScore.rangeEnd(), "by score without end: +inf");
        assertEquals(Command.ZRANK, workload(c, "ks1-zrank").method());
        assertEquals(100, workload(c, "ks1-zrank").shape().innerKeys(), "zrank's member from the inner keys");
        assertEquals(Command.ZRANK, workload(c, "ks1-zrank-2").method(), "sorted_set_get_rank");
        assertEquals(Command.HEXISTS, workload(c, "ks2-hexists").method());
        assertEquals(100, workload(c, "ks2-hexists").shape().innerKeys(), "hexists's field from the inner keys");
        assertEquals(Command.HEXISTS, workload(c, "ks2-hexists-2").method(), "hash_exists");
        WorkloadConfig batch = workload(c, "ks2-get-x5");
        assertEquals(Command.GET, batch.method());
        assertEquals(5, batch.keysPerRequest(), "get_batch's cardinality: keys per get");
        assertEquals(3, workload(c, "ks2-get-x3").keysPerRequest(), "get's cardinality too");
        assertEquals(1000, c.workloads().stream().mapToDouble(WorkloadConfig::rate).sum(), 1e-6);
    }

    @Test
    void convertPrintsTheNewKeysAndRunsTheSame() throws IOException {
        Path original = write("v5.toml", V5);
        String converted = ConfigResolver.convert(original, null);
        for (String line : List.of("method = \"llen\"", "method = \"zrank\"", "range-start = 0", "range-end = -1",
                "range-start = 5", "range-end = 10", "by-score = true", "truncate = 10")) {
            assertTrue(converted.lines().anyMatch(l -> l.startsWith(line)), line + " in:\n" + converted);
        }
        Path again = write("converted.toml", converted);
        assertEquals(RpcPerfConfigTest.withoutPlaces(resolve(original, null)),
                RpcPerfConfigTest.withoutPlaces(resolve(again, "fluxperf")), converted);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{ verb = \"get\", truncate = 5 } | workload.keyspace[0].commands[0].truncate (line 9): truncate is for lpush and rpush (list_push_front, list_push_back) alone, as in rpc-perf; leave it out of get",
        "{ verb = \"zadd\", start = 1 } | workload.keyspace[0].commands[0].start (line 9): start is for zrange (sorted_set_range) alone, as in rpc-perf; leave it out of zadd",
        "{ verb = \"list_fetch\", end = 3 } | workload.keyspace[0].commands[0].end (line 9): end is for zrange (sorted_set_range) alone, as in rpc-perf; leave it out of list_fetch",
        "{ verb = \"lrange\", by_score = true } | workload.keyspace[0].commands[0].by_score (line 9): by_score is for zrange (sorted_set_range) alone, as in rpc-perf; leave it out of lrange",
        "{ verb = \"rpush\", truncate = 0 } | workload.keyspace[0].commands[0].truncate (line 9): ",
        "{ verb = \"lrem\" } | workload.keyspace[0].commands[0].verb (line 9): 'lrem' is not a command fluxperf sends",
        "{ verb = \"list_remove\" } | workload.keyspace[0].commands[0].verb (line 9): 'list_remove' is not a command fluxperf sends",
        "{ verb = \"get_batch\", cardinality = 2000 } | workload.keyspace[0].commands[0].cardinality (line 9): ",
        "{ verb = \"zrank\", cardinality = 2 } | workload.keyspace[0].commands[0].cardinality (line 9): zrank takes one field or member; cardinality above 1 is for get, get_batch, hget",
        "{ verb = \"get_bach\" } | workload.keyspace[0].commands[0].verb (line 9): 'get_bach' is not a command fluxperf sends",
    })
    void rpcPerf5MistakesAndVerbsFluxperfCannotSendNameTheirPlace(String command, String message) throws IOException {
        Path f = write("bad.toml", """
                [general]
                protocol = "resp"
                interval = 1
                [target]
                endpoints = ["127.0.0.1:6379"]
                [[workload.keyspace]]
                klen = 4
                nkeys = 5
                commands = [COMMAND]
                """.replace("COMMAND", command));
        String e = assertThrows(UserError.class, () -> resolve(f, null)).getMessage();
        assertTrue(e.startsWith(f + ": " + message.strip()), e);
        assertFalse(e.contains("Exception") || e.contains("io.fluxperf"), e);
        assertEquals(1, e.lines().count(), e);
    }

    @Test
    void aWorkloadBuiltInCodeIsCheckedToo() {
        KeyspaceConfig keys = KeyspaceConfig.defaults();
        assertThrows(IllegalArgumentException.class, () -> new WorkloadConfig("w", Command.GET, 0, 1, null, keys, false,
                false, 1, 0, null, WorkloadShape.DEFAULT.withTruncate(3)));
        assertThrows(IllegalArgumentException.class, () -> new WorkloadConfig("w", Command.LRANGE, 0, 1, null, keys, false,
                false, 1, 0, null, WorkloadShape.DEFAULT.withByScore(true)));
        assertThrows(IllegalArgumentException.class, () -> WorkloadShape.DEFAULT.withTruncate(-1));
        assertEquals(5, new WorkloadConfig("w", Command.RPUSH, 0, 1, null, keys, false, false, 1, 0, null,
                WorkloadShape.DEFAULT.withTruncate(5)).shape().truncate());
    }
}
