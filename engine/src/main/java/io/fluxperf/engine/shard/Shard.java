package io.fluxperf.engine.shard;

import io.fluxperf.engine.UserError;
import java.util.Map;

/**
 * Agent {@code index} of {@code count}: the share of a run that this process sends, so that the
 * {@code count} agents together send what one machine would have sent.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>Every agent runs the same config (the same threads, rates, key spaces and seed); the merge
 *       checks this by the config hash.</li>
 *   <li>Rates: each agent sends {@code 1/count} of every workload's rate, its intended times
 *       interleaved with the others' ({@link #phase()}), so that the union is the one-machine schedule.</li>
 *   <li>Keys: the write slice of agent i is the keys {@code k ≡ i (mod count)}; the slices are
 *       disjoint and together are the whole key space ({@link #sliceSize}, {@link #sliceKey}).</li>
 *   <li>Replay: a client belongs to exactly one agent ({@link #ownsClient}), so its order is kept.</li>
 * </ul>
 */
public record Shard(int index, int count) {
    /** Set by Kubernetes in every pod of an Indexed Job: the pod's completion index. */
    public static final String INDEX_ENV = "JOB_COMPLETION_INDEX";
    /** The shard count when the index comes from {@link #INDEX_ENV}. */
    public static final String COUNT_ENV = "FLUXPERF_SHARDS";
    /** More agents than this is a typo, not a plan. */
    public static final int MAX_SHARDS = 10_000;

    public Shard {
        if (count < 1 || count > MAX_SHARDS) {
            throw new IllegalArgumentException("shard count must be between 1 and " + MAX_SHARDS + ", not " + count);
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException("shard index must be between 0 and " + (count - 1) + ", not " + index);
        }
    }

    /**
     * The shard of this process: {@code --shard I/N} when given, else {@code JOB_COMPLETION_INDEX}
     * with N from {@code --shards} or {@code FLUXPERF_SHARDS}; null for an unsharded run.
     *
     * @param shardFlag  {@code --shard}'s value, or null
     * @param shardsFlag {@code --shards}' value, or null
     * @throws UserError naming the flag or variable when a value is bad or one is missing
     */
    public static Shard resolve(String shardFlag, Integer shardsFlag, Map<String, String> env) {
        if (shardFlag != null) {
            Shard s = parse(shardFlag);
            if (shardsFlag != null && shardsFlag != s.count()) {
                throw new UserError("--shards " + shardsFlag + " contradicts --shard " + shardFlag + "; give one of them");
            }
            return s;
        }
        String indexText = env.get(INDEX_ENV);
        if (indexText == null || indexText.isBlank()) {
            if (shardsFlag != null) {
                throw new UserError("--shards " + shardsFlag + " needs this agent's index: give --shard I/" + shardsFlag
                        + " or set " + INDEX_ENV);
            }
            return null;
        }
        int count;
        String countPlace;
        if (shardsFlag != null) {
            count = shardsFlag;
            countPlace = "--shards";
        } else {
            String countText = env.get(COUNT_ENV);
            if (countText == null || countText.isBlank()) {
                throw new UserError(INDEX_ENV + " is set (" + indexText.strip() + ") but the shard count is not: give --shards N"
                        + " or set " + COUNT_ENV);
            }
            count = number(countText, COUNT_ENV);
            countPlace = COUNT_ENV;
        }
        if (count < 1 || count > MAX_SHARDS) {
            throw new UserError(countPlace + ": the shard count must be between 1 and " + MAX_SHARDS + ", not " + count);
        }
        int index = number(indexText, INDEX_ENV);
        if (index < 0 || index >= count) {
            throw new UserError(INDEX_ENV + ": the shard index must be between 0 and " + (count - 1) + " for "
                    + count + " shards, not " + index);
        }
        return new Shard(index, count);
    }

    /** {@code I/N}, as {@code --shard} takes it. */
    public static Shard parse(String text) {
        String t = text.strip();
        int slash = t.indexOf('/');
        if (slash < 0) {
            throw new UserError("--shard: expected INDEX/COUNT such as 0/4, not '" + text + "'");
        }
        int index = number(t.substring(0, slash), "--shard");
        int count = number(t.substring(slash + 1), "--shard");
        if (count < 1 || count > MAX_SHARDS) {
            throw new UserError("--shard: the shard count must be between 1 and " + MAX_SHARDS + ", not " + count);
        }
        if (index < 0 || index >= count) {
            throw new UserError("--shard: the index must be between 0 and " + (count - 1) + " for " + count
                    + " shards, not " + index);
        }
        return new Shard(index, count);
    }

    private static int number(String text, String place) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new UserError(place + ": expected a whole number, not '" + text.strip() + "'");
        }
    }

    /** This agent's share of a rate given for all agents together. */
    public double rate(double total) {
        return total / count;
    }

    /** This agent's share of a request count given for all agents together (a multiple of the count). */
    public long requests(long total) {
        return total / count;
    }

    /**
     * Where this agent's intended times fall between its own, as a fraction of one of its gaps:
     * agent i of N sends the one-machine schedule's requests i, i + N, …, so with its rate divided
     * by N its first request is i/N of a gap late.
     */
    public double phase() {
        return (double) index / count;
    }

    /** How many keys of a key space of {@code keys} are in this agent's write slice. */
    public long sliceSize(long keys) {
        return keys > index ? (keys - index + count - 1) / count : 0;
    }

    /** The {@code i}-th key of this agent's write slice (a key index of the whole key space). */
    public long sliceKey(long i) {
        return index + count * i;
    }

    /** Whether key index {@code key} is in this agent's write slice. */
    public boolean ownsKey(long key) {
        return key % count == index;
    }

    /**
     * Whether the original client {@code client} (a replayed log's client number) is replayed by this
     * agent: by a hash of the number, so that the clients of a log that numbers its clients in
     * some pattern still spread evenly.
     */
    public boolean ownsClient(long client) {
        return Math.floorMod(mix(client), count) == index;
    }

    /**
     * A seed of this agent from the run's: agent 0's is the run's own, so that one shard of one is
     * the unsharded run; the others' differ, so that agents do not repeat each other's draws.
     */
    public long seed(long runSeed) {
        return index == 0 ? runSeed : runSeed ^ mix(0x5eed_0000L + index);
    }

    /** A 64-bit finalizer (the one of SplitMix64), so that neighbouring numbers land far apart. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** {@code I/N}, as the flag takes it. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
