package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code merge OUT/RUN_ID} refuses a set of shards that is not one whole run, in one sentence with
 * exit 2 (a missing shard, another config, another run id), and {@code --partial} merges what is
 * there, naming what is missing. The agents run at the same time, in this JVM.
 */
@ExtendWith(RealServers.class)
class ShardedMergeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    static Path dir;
    private static Path runs;

    /** Three agents of run "full", one of run "other", and two of run "mixed" with different rates, all at once. */
    @BeforeAll
    static void agents(MemcachedProcess memcached) {
        runs = dir.resolve("runs");
        List<String[]> agents = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            agents.add(args(memcached, "3000", i + "/3", "full"));
        }
        agents.add(args(memcached, "3000", "2/3", "other"));
        agents.add(args(memcached, "2000", "0/2", "mixed"));
        agents.add(args(memcached, "3000", "1/2", "mixed"));
        List<CompletableFuture<CliRun>> runs = agents.stream().map(a -> CompletableFuture.supplyAsync(() -> CliRun.of(a),
                java.util.concurrent.Executors.newSingleThreadExecutor())).toList();
        for (CompletableFuture<CliRun> r : runs) {
            CliRun run = r.join();
            assertEquals(0, run.exitCode(), run.out() + run.err());
        }
    }

    private static String[] args(MemcachedProcess memcached, String rate, String shard, String runId) {
        return new String[] {"run", "-s", memcached.address(), "--method", "set", "--rate", rate, "-d", "2",
                "--shard", shard, "--run-id", runId, "--out", dir.resolve("runs").toString(), "--no-live"};
    }

    @Test
    void aWholeRunMergesAndItsCountsAddUp() throws IOException {
        CliRun merge = CliRun.of("merge", runs.resolve("full").toString(), "--out", dir.resolve("full-merged").toString());
        assertEquals(0, merge.exitCode(), merge.out() + merge.err());
        long sum = 0;
        for (int i = 0; i < 3; i++) {
            sum += JSON.readTree(runs.resolve("full/shard-" + i + "/result.json").toFile()).get("total").get("requests").asLong();
        }
        JsonNode merged = JSON.readTree(dir.resolve("full-merged/result.json").toFile());
        assertEquals(sum, merged.get("total").get("requests").asLong());
        assertEquals(3, merged.get("shards").get("count").asInt());
        assertTrue(merge.out().contains("Shard 2: no server clock reading"), merge.out());
        // the run's rate, not one agent's share, in the report and in the config that runs it again
        CliRun report = CliRun.of("report", dir.resolve("full-merged").toString());
        assertTrue(report.out().contains("Workload 0: Name: set Method: set Bytes: 64 Rate: 3000 "), report.out());
        String config = Files.readString(dir.resolve("full-merged/config.toml"));
        assertTrue(config.contains("\nrate = 3000\n"), config);
    }

    @Test
    void aMissingShardIsRefusedAndPartialMergesTheOthersNamingIt() throws IOException {
        Path holes = copy("full", "holes", 0, 2);
        CliRun refused = CliRun.of("merge", holes.toString());
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertEquals("fluxperf: merge: " + holes + " is missing shard 1 of 3; merge the others with --partial",
                refused.err().strip());

        CliRun partial = CliRun.of("merge", holes.toString(), "--partial");
        assertEquals(0, partial.exitCode(), partial.out() + partial.err());
        assertTrue(partial.out().contains("Run full: 2 of 3 shards merged; missing: shard 1"), partial.out());
        assertTrue(partial.err().contains("is missing shard-1; the merged figures are of 2 of 3 shards"), partial.err());
        JsonNode merged = JSON.readTree(holes.resolve("merged/result.json").toFile());
        assertEquals("[1]", merged.get("shards").get("missing").toString());
        long sum = 0;
        for (int i : new int[] {0, 2}) {
            sum += JSON.readTree(holes.resolve("shard-" + i + "/result.json").toFile()).get("total").get("requests").asLong();
        }
        assertEquals(sum, merged.get("total").get("requests").asLong());
    }

    @Test
    void anotherConfigIsRefused() {
        CliRun refused = CliRun.of("merge", runs.resolve("mixed").toString());
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertTrue(refused.err().strip().matches("fluxperf: merge: shard-1 ran another config than shard-0 \\(config hash"
                + " [0-9a-f]{12}, not [0-9a-f]{12}\\)"), refused.err());
    }

    @Test
    void anotherRunIdIsRefused() throws IOException {
        Path mixed = copy("full", "ids", 0, 1);
        copyTree(runs.resolve("other/shard-2"), mixed.resolve("shard-2"));
        CliRun refused = CliRun.of("merge", mixed.toString());
        assertEquals(2, refused.exitCode(), refused.out() + refused.err());
        assertEquals("fluxperf: merge: shard-2's run id is 'other', shard-0's 'full'; they are not one run",
                refused.err().strip());
    }

    /** A copy of run {@code from}'s directory with only the given shards. */
    private static Path copy(String from, String to, int... shards) throws IOException {
        Path target = dir.resolve("copies").resolve(to);
        for (int i : shards) {
            copyTree(runs.resolve(from).resolve("shard-" + i), target.resolve("shard-" + i));
        }
        return target;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }
}
