package io.fluxperf.engine.load;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The run's thread waiting for a task it queued on an event loop. */
final class LoopTasks {
    private LoopTasks() {
    }

    /**
     * The task's result, waited for at most {@code timeout}.
     *
     * @throws IllegalStateException when the task failed, the wait timed out or was interrupted
     */
    static <T> T await(CompletableFuture<T> future, Duration timeout) {
        try {
            return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the event loops", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("an event loop task failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the event loops did not answer within " + timeout.toMillis() + " ms", e);
        }
    }
}
