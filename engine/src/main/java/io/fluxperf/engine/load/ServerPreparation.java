package io.fluxperf.engine.load;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.metrics.WorkloadStats;
import io.fluxperf.engine.pool.ServerPool;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.workload.Preload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import reactor.core.publisher.Flux;

/**
 * The phases that set the servers' state before the load, when asked: a flush, and a preload of
 * every key the reads will ask for. Their figures are not the run's: each ends by a swap whose
 * figures are dropped.
 */
final class ServerPreparation {
    private final RunConfig config;
    private final RunListener listener;
    private final RunErrors errors;
    /** The run's servers when it has several; null with one. */
    private final ServerPool servers;
    private final BooleanSupplier stopRequested;
    private final LongConsumer sleep;

    /** @param sleep sleeps up to its argument in nanoseconds, less when a stop is asked for */
    ServerPreparation(RunConfig config, RunListener listener, RunErrors errors, ServerPool servers,
                      BooleanSupplier stopRequested, LongConsumer sleep) {
        this.config = config;
        this.listener = listener;
        this.errors = errors;
        this.servers = servers;
        this.stopRequested = stopRequested;
        this.sleep = sleep;
    }

    /** One flush to the server, or to each writable server of a pool (every server; a cluster's masters). */
    void flush(LoadDriver driver, String targetDescription) {
        int[] to = servers == null ? new int[] {-1} : servers.writableMembers();
        RequestSource flushAll = (thread, threads, pool, start) ->
                Flux.range(0, to.length).map(i -> pool.acquire().command(Command.FLUSH, 0).addKey(0, 1).server(to[i]));
        LoopTasks.await(driver.start(flushAll, System.nanoTime(), false, false), config.timeout().plusSeconds(5));
        ThreadFigures f = LoopTasks.await(driver.swap(driver.newFigures(), false), Duration.ofSeconds(5));
        if (f.workloads[0].outcomes().ok() != to.length) {
            throw new UserError("--flush: " + targetDescription + " did not accept flush_all");
        }
        listener.flushed();
    }

    /** Writes every key of {@code preload} (Ctrl-C ends it early); returns how many keys it holds. */
    long preload(List<LoadDriver> drivers, Preload preload) {
        long started = System.nanoTime();
        List<CompletableFuture<Void>> phases = new ArrayList<>();
        for (LoadDriver d : drivers) {
            phases.add(d.start(preload, started, false, false));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(phases.toArray(CompletableFuture[]::new));
        List<ThreadFigures> spares = new ArrayList<>();
        drivers.forEach(d -> spares.add(d.newFigures()));
        long failed = 0;
        long swapAt = started + ThreadFigures.MAX_INTERVAL_NANOS;
        while (!all.isDone() && !stopRequested.getAsBoolean()) {
            sleep.accept(TimeUnit.MILLISECONDS.toNanos(100));
            if (System.nanoTime() - swapAt >= 0) { // a long preload: the threads' int counts must not overflow
                failed += failedWrites(drivers, spares);
                swapAt = System.nanoTime() + ThreadFigures.MAX_INTERVAL_NANOS;
            }
        }
        if (stopRequested.getAsBoolean()) {
            drivers.forEach(LoadDriver::stop);
        }
        LoopTasks.await(all, config.timeout().plusSeconds(10));
        failed += failedWrites(drivers, spares);
        if (failed == preload.keys() && failed > 0 && !stopRequested.getAsBoolean()) {
            // not one write took: the server refuses them (full, read-only, another protocol)
            throw new UserError("--hit: " + errors.summaryOrNone() + "; the server accepted none of the "
                    + preload.keys() + " preload writes");
        }
        // some failed (a stall, a reset): say so, and the reads of those keys will miss
        listener.preloaded(preload.keys(), failed, (System.nanoTime() - started) / 1e9);
        return preload.keys();
    }

    /** Swaps every thread's interval out for its spare, and returns the writes in it that failed. */
    private static long failedWrites(List<LoadDriver> drivers, List<ThreadFigures> spares) {
        long failed = 0;
        for (int t = 0; t < drivers.size(); t++) {
            ThreadFigures f = LoopTasks.await(drivers.get(t).swap(spares.get(t), false), Duration.ofSeconds(10));
            for (WorkloadStats w : f.workloads) {
                failed += w.outcomes().requests() - w.outcomes().ok();
            }
            f.reset();
            spares.set(t, f);
        }
        return failed;
    }
}
