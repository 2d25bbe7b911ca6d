package io.fluxperf.engine.workload;

import io.fluxperf.engine.config.Arrivals;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.config.WorkloadShape;
import io.fluxperf.engine.load.RequestSource;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.engine.shard.Shard;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import reactor.core.publisher.Flux;

/**
 * The requests of {@code run}'s workloads, one {@link Flux} per thread.
 *
 * <p>Open loop: workload w sends request n (counted over all threads) at
 * {@code start + n / rate_w}; thread t of T takes n = t, t + T, t + 2T, …, so the threads
 * interleave evenly (with --arrivals other than smooth, each thread's gaps are drawn at random
 * with the same mean, {@link ArrivalSchedule}), and each thread emits its requests in
 * intended-time order (the workload with the earliest next time goes first). Closed loop: workloads are picked at random by weight and
 * carry no intended time. Paced workloads beside unpaced ones ({@link RunConfig#isMixed()}): the
 * last thread sends the paced ones alone, on its schedule of their whole rates, and the other
 * threads pick among the unpaced ones by weight.
 */
public final class GeneratedLoad implements RequestSource {
    private final List<WorkloadConfig> workloads;
    private final boolean openLoop;
    /** Paced workloads beside unpaced ones: the last thread paces, the others send as fast as answered. */
    private final boolean mixed;
    /** How the gaps between an open-loop workload's intended times are drawn ({@link ArrivalSchedule}). */
    private final Arrivals arrivals;
    private final long seed;
    private final long requestLimit;
    private final ValuePattern pattern;
    /**
     * Open loop with {@code --start-at}: the schedule's length in ns (warm-up and windows), after
     * which no request is due; {@link Long#MAX_VALUE} otherwise. An agent that starts late then
     * still sends every request of its schedule, the late ones at once.
     */
    private final long scheduleEndNanos;
    /** This agent's share of a sharded run, or null. */
    private final Shard shard;
    /** Per workload: its reads check the values they get (the values the preload wrote, see {@link #checksValues}). */
    private final boolean[] checkValues;
    /** Rates that may change while the run goes (admin endpoint, ramps); null: the configured rates throughout. */
    private RateControl rateControl;
    /** Each thread's generator of its latest flux, for {@link #takeBack} (each used on its own thread's loop only). */
    private final Map<Integer, ThreadState> generators = new ConcurrentHashMap<>();

    public GeneratedLoad(RunConfig config) {
        this.workloads = config.workloads();
        this.openLoop = config.isOpenLoop();
        this.mixed = config.isMixed();
        this.arrivals = config.arrivals();
        this.seed = config.seed();
        this.requestLimit = config.requests();
        this.pattern = patternFor(config);
        this.shard = config.shard();
        this.scheduleEndNanos = scheduleEnd(config);
        this.checkValues = new boolean[workloads.size()];
        for (int w = 0; w < workloads.size(); w++) {
            checkValues[w] = checksValues(workloads, workloads.get(w));
        }
        if (!openLoop && workloads.stream().mapToInt(WorkloadConfig::weight).sum() == 0
                || mixed && workloads.stream().filter(w -> !w.isRated()).mapToInt(WorkloadConfig::weight).sum() == 0) {
            throw new IllegalArgumentException("at least one workload needs a weight above 0");
        }
    }

    /**
     * Reads of a --hit workload check every value against its key: the preload wrote each key's
     * value, and every write of the run writes a slice of the same pattern, so a value that differs
     * is another run's (another seed) or corrupted. Not when a workload of the run changes values
     * in other ways (append, prepend, incr, decr, command templates, MSET: one value for all its keys).
     */
    static boolean checksValues(List<WorkloadConfig> workloads, WorkloadConfig w) {
        boolean valuesIntact = workloads.stream().noneMatch(o -> o.template() != null || switch (o.method()) {
            case APPEND, PREPEND, INCR, DECR, COMMAND, EVAL, EVALSHA, MSET -> true;
            default -> !o.shape().keepsPatternValues();
        });
        return valuesIntact && w.hit() && w.method().isRead();
    }

    /** Open loop: the workloads' rates come from {@code control}, which may change them while the run goes. */
    public GeneratedLoad rateControl(RateControl control) {
        this.rateControl = control;
        return this;
    }

    /**
     * How long a run's schedule is, from its start, when it has a fixed start ({@code --start-at}),
     * is paced, and its windows have a known length; {@link Long#MAX_VALUE} otherwise.
     */
    public static long scheduleEnd(RunConfig config) {
        if (config.startAt() == null || !config.isOpenLoop() || config.warmupHitrate() > 0
                || config.windows() > 1_000_000) {
            return Long.MAX_VALUE;
        }
        return config.warmup().toNanos() + config.windows() * config.duration().toNanos();
    }

    /** The value pattern of a run: the same seed gives the same values. */
    public static ValuePattern patternFor(RunConfig config) {
        int max = config.workloads().stream().mapToInt(w -> w.bytes().max()).max().orElse(0);
        return new ValuePattern(config.seed(), max);
    }

    public ValuePattern pattern() {
        return pattern;
    }

    @Override
    public long size(int thread, int threads) {
        return requestLimit == 0 ? -1 : requestLimit / threads + (thread < requestLimit % threads ? 1 : 0);
    }

    @Override
    public Flux<Request> requests(int thread, int threads, RequestPool pool, long startNanos) {
        long limit = requestLimit == 0 ? Long.MAX_VALUE : size(thread, threads);
        return Flux.generate(() -> {
            ThreadState state = new ThreadState(thread, threads, startNanos, limit);
            generators.put(thread, state);
            return state;
        }, (state, sink) -> {
            if (state.emitted == state.limit || state.pastScheduleEnd()) {
                state.ended = true;
                sink.complete();
                return state;
            }
            Request r = pool.acquire();
            if (r == null) {
                sink.error(new IllegalStateException("request pool exhausted: more requested than in-flight capacity"));
                return state;
            }
            state.fill(r);
            sink.next(r);
            if (state.emitted == state.limit) {
                state.ended = true;
                sink.complete(); // with the last request: a connection per request then opens no spare one
            }
            return state;
        });
    }

    /**
     * Open loop: puts back the request thread {@code thread} emitted last, so that the next one is
     * timed by the rates in force now (a rate changed while it waited for its time). Called again,
     * it puts back the one before, newest first, up to {@link ArrivalSchedule#HISTORY}, and not
     * past a change of the schedule it was timed by. Its keys and value were drawn and stay drawn:
     * the thread's random keys go on from there, and a sequential read skips the key. Not once the
     * flux has ended (its last request keeps its time).
     */
    @Override
    public boolean takeBack(Request request, int thread) {
        ThreadState state = openLoop ? generators.get(thread) : null;
        return state != null && state.paced && state.takeBack(request);
    }

    /**
     * A sequential read's start over all agents' threads: thread t of agent i is thread i + N·t of
     * N·T, so that the agents' sequential reads together walk the key space as one machine's would.
     */
    private long shardThread(int thread, int threads) {
        return shard == null ? thread : shard.index() + (long) shard.count() * thread;
    }

    private long shardThreads(int threads) {
        return shard == null ? threads : (long) shard.count() * threads;
    }

    /** Per-thread generator state: random sources, choosers and the pacing schedule. */
    private final class ThreadState {
        private final int thread;
        private final int threads;
        /** This thread paces its workloads (open loop): every thread of a paced run, the last of a mixed one. */
        private final boolean paced;
        private final long startNanos;
        private final long limit;
        private final UniformRandomProvider rng;
        private final KeyChooser[] keys;
        private final ValueSizeChooser[] sizes;
        private final ValueSource[] values;
        /** Per workload: its script's bytes (eval, evalsha), else null. */
        private final byte[][] scripts;
        /** Per workload: the member indexes of the request being filled (distinct draws), or null. */
        private final long[][] members;
        /** Per workload: where its range reads start and end (see {@link Request#range}). */
        private final long[] rangeStarts;
        private final long[] rangeEnds;
        private final long[] sequence;
        /** Per workload with a ttl mix: its ttls and the running sums of their weights; null otherwise. */
        private final int[][] ttls;
        private final int[][] ttlSums;
        /** Per workload, open loop only: when its next request is due. */
        private final ArrivalSchedule[] schedules;
        /**
         * Per workload, open loop only: where its schedule's zero lies after {@link #startNanos}
         * (ns): 0 until its rate changes, then the change's time, as the schedule starts again there.
         */
        private final long[] origins;
        /** Per workload, open loop only: the rate its schedule keeps, and its last request's intended time (ns). */
        private final double[] scheduledRates;
        private final long[] lastIntended;
        /**
         * The latest paced fills, for {@link #takeBack} (a ring, newest at {@code undoTop - 1}):
         * each one's workload and that workload's {@link #lastIntended} before it. Emptied when a
         * schedule starts again, as what it timed cannot be put back into the new one.
         */
        private final int[] undoWorkload = new int[ArrivalSchedule.HISTORY];
        private final long[] undoIntended = new long[ArrivalSchedule.HISTORY];
        private int undoTop;
        private int undoCount;
        /** The flux has completed: nothing is taken back any more. */
        private boolean ended;
        /** The {@link RateControl#generation()} the schedules follow. */
        private long seenGeneration;
        private final int[] cumulativeWeights;
        private final int totalWeight;
        private long emitted;

        ThreadState(int thread, int threads, long startNanos, long limit) {
            this.thread = thread;
            this.threads = threads;
            this.paced = mixed ? thread == threads - 1 : openLoop;
            this.startNanos = startNanos;
            this.limit = limit;
            // a shard draws from a seed of its own (the values stay the run's: reads check them)
            long drawSeed = shard == null ? seed : shard.seed(seed);
            this.rng = RandomSource.XO_RO_SHI_RO_128_PP.create(drawSeed * 1_000_003L + thread);
            int n = workloads.size();
            keys = new KeyChooser[n];
            sizes = new ValueSizeChooser[n];
            values = new ValueSource[n];
            scripts = new byte[n][];
            members = new long[n][];
            rangeStarts = new long[n];
            rangeEnds = new long[n];
            sequence = new long[n];
            ttls = new int[n][];
            ttlSums = new int[n][];
            schedules = new ArrivalSchedule[n];
            origins = new long[n];
            scheduledRates = new double[n];
            lastIntended = new long[n];
            cumulativeWeights = new int[n];
            int total = 0;
            for (int w = 0; w < n; w++) {
                WorkloadConfig config = workloads.get(w);
                keys[w] = shard != null && !config.method().isRead()
                        ? KeyChooser.sliced(config.keyspace(), rng, thread, threads, shard)
                        : KeyChooser.of(config.keyspace(), rng, shardThread(thread, threads), shardThreads(threads));
                sizes[w] = ValueSizeChooser.of(config.bytes(), rng);
                values[w] = ValueSource.of(config, pattern, seed);
                WorkloadShape shape = config.shape();
                scripts[w] = shape.script() == null ? null : shape.script().getBytes(StandardCharsets.UTF_8);
                Long start = shape.rangeStart();
                Long end = shape.rangeEnd();
                rangeStarts[w] = start != null ? start : shape.byScore() ? Request.UNBOUNDED : Request.DEFAULT_RANGE_START;
                rangeEnds[w] = end != null ? end : shape.byScore() ? Request.UNBOUNDED : Request.DEFAULT_RANGE_END;
                if (config.method().takesMembers() || config.method().takesCardinality()) {
                    members[w] = new long[shape.cardinality()];
                }
                if (shape.ttls() != null) {
                    ttls[w] = shape.ttls().seconds();
                    ttlSums[w] = new int[ttls[w].length];
                    int sum = 0;
                    for (int i = 0; i < ttls[w].length; i++) {
                        sum += shape.ttls().weights()[i];
                        ttlSums[w][i] = sum;
                    }
                }
                if (paced && config.isRated()) {
                    schedules[w] = new ArrivalSchedule(arrivals, config.rate(), scheduleThread(), scheduleThreads(),
                            shard == null ? 0 : shard.phase(), rng);
                    scheduledRates[w] = config.rate();
                    lastIntended[w] = startNanos;
                }
                // a mixed run's other threads pick among the unpaced workloads alone
                total += mixed && config.isRated() ? 0 : config.weight();
                cumulativeWeights[w] = total;
            }
            totalWeight = total;
        }

        void fill(Request r) {
            if (rateControl != null && paced && rateControl.generation() != seenGeneration) {
                followRates();
            }
            int w = paced ? earliestWorkload() : weightedWorkload();
            WorkloadConfig config = workloads.get(w);
            if (paced) {
                long at = startNanos + origins[w] + schedules[w].take();
                undoWorkload[undoTop] = w;
                undoIntended[undoTop] = lastIntended[w];
                undoTop = (undoTop + 1) % undoWorkload.length;
                undoCount = Math.min(undoWorkload.length, undoCount + 1);
                lastIntended[w] = at;
                r.intendedNanos(at);
            }
            sequence[w]++;
            emitted++;
            Command command = config.method();
            r.command(command, w);
            WorkloadShape shape = config.shape();
            int keyLength = config.keyspace().keyLength();
            long offset = shape.keyOffset();
            long first = offset + keys[w].next();
            r.addKey(first, keyLength);
            for (int k = 1; k < config.keysPerRequest(); k++) {
                r.addKey(offset + keys[w].next(), keyLength);
            }
            if (members[w] != null) {
                addMembers(r, config, first, members[w]);
            }
            if (command.takesValue() || config.template() != null && config.template().usesData()) {
                values[w].fill(r, first, sizes[w].next(), rng);
            }
            r.script(scripts[w]);
            r.template(config.template());
            if (checkValues[w]) {
                r.valueCheck(pattern);
            }
            switch (command) {
                case COMMAND -> r.numeric(sequence[w] * threads + thread);
                case INCR, DECR, HINCRBY, ZINCRBY -> r.numeric(1);
                case CAS -> r.numeric(rng.nextLong() & Long.MAX_VALUE);
                default -> {
                }
            }
            r.ttlSeconds(ttls[w] == null ? config.ttlSeconds() : drawTtl(w));
            if (command.takesRange()) {
                r.range(rangeStarts[w], rangeEnds[w], shape.byScore());
            }
            r.truncate(shape.truncate());
        }

        /** A ttl of workload {@code w}'s mix, drawn by weight. */
        private int drawTtl(int w) {
            int[] sums = ttlSums[w];
            int pick = rng.nextInt(sums[sums.length - 1]);
            int i = 0;
            while (pick >= sums[i]) {
                i++;
            }
            return ttls[w][i];
        }

        /**
         * The fields or members of a request ({@link WorkloadShape#cardinality()} of them, all
         * different): drawn from the inner keyspace when the workload has one; else the key itself
         * and, for more, other keys of its keyspace. List elements are values, not names: a push
         * of several names its key as often as it sends the value.
         */
        private void addMembers(Request r, WorkloadConfig config, long key, long[] chosen) {
            WorkloadShape shape = config.shape();
            int n = chosen.length;
            if (!config.method().takesMembers()) {
                for (int i = 0; i < n; i++) {
                    r.addMember(key, config.keyspace().keyLength());
                }
                return;
            }
            long inner = shape.innerKeys();
            long space = inner > 0 ? inner : config.keyspace().count();
            int length = inner > 0 ? shape.innerKeyLength() : config.keyspace().keyLength();
            long base = inner > 0 ? 0 : shape.keyOffset();
            int filled = 0;
            if (inner == 0) {
                chosen[filled++] = key - base;
            }
            while (filled < n) {
                long m = rng.nextLong(space);
                boolean seen = false;
                for (int i = 0; i < filled && !seen; i++) {
                    seen = chosen[i] == m;
                }
                if (!seen) {
                    chosen[filled++] = m;
                }
            }
            for (int i = 0; i < n; i++) {
                r.addMember(base + chosen[i], length);
            }
        }

        /**
         * A rate changed: each changed workload's schedule starts again at the new rate from the
         * change, or from its last request when that was later (so none is sent twice as fast to
         * catch up). Rare: it may allocate.
         */
        private void followRates() {
            seenGeneration = rateControl.generation();
            for (int w = 0; w < schedules.length; w++) {
                if (schedules[w] == null) {
                    continue; // an unpaced workload of a mixed run
                }
                double rate = rateControl.rate(w);
                if (rate == scheduledRates[w] && rateControl.changedAtNanos(w) == 0) {
                    continue;
                }
                long changed = rateControl.changedAtNanos(w);
                if (rate == scheduledRates[w] && changed - startNanos <= origins[w]) {
                    continue; // this change is already followed
                }
                long from = Math.max(changed, lastIntended[w]);
                undoCount = 0; // what the old schedule timed cannot go back into the new one
                origins[w] = from - startNanos;
                scheduledRates[w] = rate;
                schedules[w] = new ArrivalSchedule(arrivals, rate, scheduleThread(), scheduleThreads(),
                        shard == null ? 0 : shard.phase(), rng);
            }
        }

        /** This thread's place among the threads that share the paced workloads' schedules: a mixed run's last is alone. */
        private int scheduleThread() {
            return mixed ? 0 : thread;
        }

        private int scheduleThreads() {
            return mixed ? 1 : threads;
        }

        /** Undoes the latest {@link #fill} not undone yet when {@code r} is what it filled (see {@link GeneratedLoad#takeBack}). */
        boolean takeBack(Request r) {
            int w = r.workload();
            int top = (undoTop + undoWorkload.length - 1) % undoWorkload.length;
            if (ended || emitted == 0 || undoCount == 0 || w < 0 || w >= schedules.length || !r.isScheduled()
                    || undoWorkload[top] != w || r.intendedNanos() != lastIntended[w] || sequence[w] == 0) {
                return false;
            }
            schedules[w].untake();
            undoTop = top;
            undoCount--;
            lastIntended[w] = undoIntended[top];
            sequence[w]--;
            emitted--;
            return true;
        }

        /** A schedule with an end has no request due at or after it. */
        boolean pastScheduleEnd() {
            return paced && scheduleEndNanos != Long.MAX_VALUE && nextNanos(earliestWorkload()) >= scheduleEndNanos;
        }

        /** When workload {@code w}'s next request is due, ns after the start. */
        private double nextNanos(int w) {
            return origins[w] + schedules[w].nextSeconds() * 1e9;
        }

        private int earliestWorkload() {
            int best = 0;
            double bestTime = Double.MAX_VALUE;
            for (int w = 0; w < schedules.length; w++) {
                if (schedules[w] == null) {
                    continue;
                }
                double t = origins[w] / 1e9 + schedules[w].nextSeconds();
                if (t < bestTime) {
                    bestTime = t;
                    best = w;
                }
            }
            return best;
        }

        private int weightedWorkload() {
            if (cumulativeWeights.length == 1) {
                return 0;
            }
            int pick = rng.nextInt(totalWeight);
            for (int w = 0; w < cumulativeWeights.length; w++) {
                if (pick < cumulativeWeights[w]) {
                    return w;
                }
            }
            return cumulativeWeights.length - 1;
        }
    }
}
