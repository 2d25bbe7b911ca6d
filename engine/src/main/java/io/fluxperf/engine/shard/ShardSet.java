package io.fluxperf.engine.shard;

import com.fasterxml.jackson.databind.JsonNode;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.rundir.RunDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A sharded run's directory ({@code OUT/RUN_ID}) as {@code merge} finds it: its {@code shard-I}
 * run directories, checked to be one run (one shard count, one run id, one config hash, no shard
 * missing unless the merge is partial), and the agents' clocks compared.
 *
 * <p>Clock offsets: each agent read the server's clock when its load started and ended
 * ({@link ShardRecord.ClockReading}); an agent's offset is the server's time minus its own, and
 * the offsets' differences are the agents' clocks against each other, each to within half its
 * reading's round trip. Without server readings (memcache, HTTP), only the agents' first sends are
 * compared with the common start ({@code --start-at}): that shows lateness, not clock error.
 */
public final class ShardSet {
    private static final Pattern SHARD_DIR = Pattern.compile("shard-(\\d+)");

    private final Path directory;
    private final String runId;
    private final int count;
    private final List<RunDirectory> shards;
    private final List<Integer> indexes;
    private final List<Integer> missing;

    private ShardSet(Path directory, String runId, int count, List<RunDirectory> shards, List<Integer> indexes,
                     List<Integer> missing) {
        this.directory = directory;
        this.runId = runId;
        this.count = count;
        this.shards = shards;
        this.indexes = indexes;
        this.missing = missing;
    }

    /** Whether {@code dir} holds shard directories (a sharded run's directory, not a run directory). */
    public static boolean isShardedRun(Path dir) {
        if (!Files.isDirectory(dir) || Files.exists(dir.resolve("result.json"))) {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.anyMatch(p -> Files.isDirectory(p) && SHARD_DIR.matcher(p.getFileName().toString()).matches());
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Finds and checks the shards of {@code dir}.
     *
     * @param partial merge what is there: missing shards are named, not refused
     * @throws UserError one sentence naming what is wrong: a missing shard, another config, another run id
     */
    public static ShardSet find(Path dir, boolean partial) {
        TreeMap<Integer, Path> found = new TreeMap<>();
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.toList()) {
                Matcher m = SHARD_DIR.matcher(p.getFileName().toString());
                if (Files.isDirectory(p) && m.matches()) {
                    found.put(Integer.parseInt(m.group(1)), p);
                }
            }
        } catch (IOException | NumberFormatException e) {
            throw new UserError("merge: cannot list " + dir + ": " + e.getMessage(), e);
        }
        if (found.isEmpty()) {
            throw new UserError("merge: " + dir + " holds no shard-I directories of a sharded run");
        }
        List<RunDirectory> shards = new ArrayList<>();
        List<Integer> indexes = new ArrayList<>();
        RunDirectory first = null;
        JsonNode firstShard = null;
        for (var e : found.entrySet()) {
            Path p = e.getValue();
            if (!Files.exists(p.resolve("result.json"))) {
                if (partial) {
                    continue; // an agent that never finished: missing, as its absence would be
                }
                throw new UserError("merge: " + p + " has no result.json (its agent did not finish); merge the others"
                        + " with --partial");
            }
            RunDirectory run = RunDirectory.open(p);
            JsonNode shard = run.result().path("shard");
            if (!shard.isObject()) {
                throw new UserError("merge: " + p + " is not a shard's run directory (its result.json names no shard)");
            }
            if (shard.path("index").asInt() != e.getKey()) {
                throw new UserError("merge: " + p + " holds shard " + shard.path("index").asInt() + ", not shard " + e.getKey());
            }
            if (first == null) {
                first = run;
                firstShard = shard;
            } else {
                String name = p.getFileName().toString();
                String firstName = first.directory().getFileName().toString();
                if (shard.path("count").asInt() != firstShard.path("count").asInt()) {
                    throw new UserError("merge: " + name + " is one of " + shard.path("count").asInt() + " shards, "
                            + firstName + " one of " + firstShard.path("count").asInt() + "; they are not one run");
                }
                if (!shard.path("runId").asText().equals(firstShard.path("runId").asText())) {
                    throw new UserError("merge: " + name + "'s run id is '" + shard.path("runId").asText() + "', "
                            + firstName + "'s '" + firstShard.path("runId").asText() + "'; they are not one run");
                }
                if (!run.configHash().equals(first.configHash())) {
                    throw new UserError("merge: " + name + " ran another config than " + firstName + " (config hash "
                            + shortHash(run.configHash()) + ", not " + shortHash(first.configHash()) + ")");
                }
            }
            shards.add(run);
            indexes.add(e.getKey());
        }
        if (first == null) {
            throw new UserError("merge: no shard of " + dir + " finished (none has a result.json)");
        }
        int count = firstShard.path("count").asInt();
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (!indexes.contains(i)) {
                missing.add(i);
            }
        }
        if (indexes.get(indexes.size() - 1) >= count) {
            throw new UserError("merge: " + dir + " holds shard-" + indexes.get(indexes.size() - 1) + " of a run of "
                    + count + " shards");
        }
        if (!missing.isEmpty() && !partial) {
            throw new UserError("merge: " + dir + " is missing " + names(missing) + " of " + count
                    + "; merge the others with --partial");
        }
        return new ShardSet(dir, firstShard.path("runId").asText(), count, shards, indexes, missing);
    }

    private static String shortHash(String hash) {
        int colon = hash.indexOf(':');
        return hash.substring(colon + 1, Math.min(hash.length(), colon + 13));
    }

    /** "shard 2" or "shards 1, 3". */
    static String names(List<Integer> shards) {
        return (shards.size() == 1 ? "shard " : "shards ")
                + String.join(", ", shards.stream().map(String::valueOf).toList());
    }

    public Path directory() {
        return directory;
    }

    public String runId() {
        return runId;
    }

    public int count() {
        return count;
    }

    /** The shards found, by index. */
    public List<Path> shardDirectories() {
        return shards.stream().map(RunDirectory::directory).toList();
    }

    public List<Integer> missing() {
        return missing;
    }

    /** One agent's clock as the merge estimates it. */
    public record AgentClock(int index, Long offsetMicros, Long uncertaintyMicros, Long driftMicros,
                             Long firstSendAfterStartMs) {
    }

    /**
     * Each agent's clock: its offset against the first agent with a server reading (µs, from the
     * readings at the load's start; null without one), the reading's uncertainty, how far its
     * offset moved by the end (drift), and its first window's start after {@code --start-at} by
     * its own clock.
     */
    public List<AgentClock> clocks() {
        Long base = null;
        List<AgentClock> out = new ArrayList<>();
        for (int k = 0; k < shards.size(); k++) {
            JsonNode result = shards.get(k).result();
            JsonNode shard = result.path("shard");
            JsonNode start = shard.path("serverClock").path("start");
            JsonNode end = shard.path("serverClock").path("end");
            Long offset = null;
            Long uncertainty = null;
            Long drift = null;
            if (start.isObject()) {
                long own = start.path("serverEpochMicros").asLong() - start.path("localEpochMicros").asLong();
                if (base == null) {
                    base = own;
                }
                // the agent's clock against the first one's: its offset from the server's, less the first's
                offset = base - own;
                uncertainty = start.path("roundTripMicros").asLong() / 2;
                if (end.isObject()) {
                    drift = own - (end.path("serverEpochMicros").asLong() - end.path("localEpochMicros").asLong());
                }
            }
            Long late = null;
            String at = shard.path("startAt").asText(null);
            if (at != null && !shard.path("startAt").isNull()) {
                late = result.path("startEpochMs").asLong() - java.time.Instant.parse(at).toEpochMilli();
            }
            out.add(new AgentClock(indexes.get(k), offset, uncertainty, drift, late));
        }
        return out;
    }

    /**
     * result.json's {@code "shards"} of a merge: the run id, the shard count, the shards merged and
     * missing (indexes), and each agent's clock ({@link #clocks()}).
     */
    public record Merged(String runId, int count, List<Integer> merged, List<Integer> missing, List<AgentClock> clocks) {
    }

    /** What merge adds to the merged result.json: its {@code "shards"} section. */
    public java.util.Map<String, Object> resultSections() {
        return java.util.Map.of("shards", new Merged(runId, count, List.copyOf(indexes), List.copyOf(missing), clocks()));
    }

    /** The lines merge prints about the shards: what was merged, what is missing, each agent's clock. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        lines.add("Run " + runId + ": " + shards.size() + " of " + count + " shards merged"
                + (missing.isEmpty() ? "" : "; missing: " + names(missing)));
        List<AgentClock> clocks = clocks();
        int base = clocks.stream().filter(c -> c.offsetMicros() != null).mapToInt(AgentClock::index).findFirst().orElse(-1);
        for (AgentClock c : clocks) {
            StringBuilder b = new StringBuilder("Shard " + c.index() + ":");
            if (c.offsetMicros() != null) {
                b.append(String.format(Locale.ROOT, " clock %+.3f ms against shard %d (±%.3f ms, by the server's clock)",
                        c.offsetMicros() / 1e3, base, c.uncertaintyMicros() / 1e3));
                if (c.driftMicros() != null) {
                    b.append(String.format(Locale.ROOT, ", drift %+.3f ms over the run", c.driftMicros() / 1e3));
                }
            } else {
                b.append(" no server clock reading");
            }
            if (c.firstSendAfterStartMs() != null) {
                b.append(String.format(Locale.ROOT, "; first window %+d ms after --start-at", c.firstSendAfterStartMs()));
            }
            lines.add(b.toString());
        }
        return lines;
    }
}
