package io.fluxperf.engine.workload;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.load.RequestSource;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.shard.Shard;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import reactor.core.publisher.Flux;

/**
 * {@code --hit}: a write of every key of every workload that asks for hits, before measuring, so
 * that its reads find their keys ({@link #writeFor}: SET for strings, HSET, RPUSH, SADD, ZADD for
 * redis' other types). Thread t of T sets keys t, t + T, …; key spaces that several
 * workloads share are set once; a workload's key offset moves its keys. Agent i of a sharded run
 * writes only its slice, the keys i, i + N, … ({@link Shard}). Values are those the load
 * itself would write for the key (its value kind included).
 */
public final class Preload implements RequestSource {
    private final List<WorkloadConfig> targets = new ArrayList<>();
    private final ValuePattern pattern;
    private final long seed;
    /** A sharded run's agent writes its slice only ({@link Shard#sliceKey}); null: every key. */
    private final Shard shard;

    public Preload(RunConfig config, ValuePattern pattern) {
        this.pattern = pattern;
        this.seed = config.seed();
        this.shard = config.shard();
        for (WorkloadConfig w : config.workloads()) {
            boolean seen = targets.stream().anyMatch(t -> t.keyspace().count() == w.keyspace().count()
                    && t.keyspace().keyLength() == w.keyspace().keyLength()
                    && t.shape().keyOffset() == w.shape().keyOffset());
            if (w.hit() && !seen) {
                targets.add(w);
            }
        }
    }

    /**
     * The write that makes a read of this kind find its key: a hash field for HGET, a list element
     * for LPOP/LRANGE, a set member for SMEMBERS, a sorted-set member for ZRANGE, a string otherwise.
     */
    static Command writeFor(Command read) {
        return switch (read) {
            case HGET, HGETALL -> Command.HSET;
            case LPOP, RPOP, LRANGE -> Command.RPUSH;
            case SMEMBERS -> Command.SADD;
            case ZRANGE -> Command.ZADD;
            default -> Command.SET;
        };
    }

    /** Keys to be written in all (by this agent, of a sharded run). */
    public long keys() {
        return targets.stream().mapToLong(w -> slice(w.keyspace().count())).sum();
    }

    /** How many of a key space's keys this agent writes. */
    private long slice(long count) {
        return shard == null ? count : shard.sliceSize(count);
    }

    /** The key index of the {@code i}-th key this agent writes. */
    private long key(long i) {
        return shard == null ? i : shard.sliceKey(i);
    }

    /** Each thread writes the keys {@code thread, thread + threads, …} of every preloaded workload. */
    @Override
    public long size(int thread, int threads) {
        long n = 0;
        for (WorkloadConfig w : targets) {
            long count = slice(w.keyspace().count());
            n += count > thread ? (count - thread + threads - 1) / threads : 0;
        }
        return n;
    }

    @Override
    public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
        long drawSeed = shard == null ? seed : shard.seed(seed);
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(drawSeed ^ 0x5eed_10adL ^ thread);
        return Flux.fromIterable(targets).concatMap(w -> {
            ValueSizeChooser sizes = ValueSizeChooser.of(w.bytes(), rng);
            ValueSource values = ValueSource.of(w, pattern, seed);
            long offset = w.shape().keyOffset();
            long count = slice(w.keyspace().count());
            int keyLength = w.keyspace().keyLength();
            int index = targets.indexOf(w);
            return Flux.<Request, long[]>generate(() -> new long[] {thread}, (next, sink) -> {
                if (next[0] >= count) {
                    sink.complete();
                    return next;
                }
                Request r = pool.acquire();
                if (r == null) {
                    sink.error(new IllegalStateException("request pool exhausted during preload"));
                    return next;
                }
                long key = offset + key(next[0]);
                next[0] += threads;
                r.command(writeFor(w.method()), index).template(w.template()).addKey(key, keyLength).ttlSeconds(0);
                values.fill(r, key, sizes.next(), rng);
                sink.next(r);
                if (next[0] >= count) {
                    sink.complete(); // with the last write (see GeneratedLoad)
                }
                return next;
            });
        }, 1);
    }
}
