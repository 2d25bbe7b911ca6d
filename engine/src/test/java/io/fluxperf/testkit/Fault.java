package io.fluxperf.testkit;

import java.time.Duration;

/**
 * One fault a {@link FaultProxy} applies, for schedules ({@link FaultProxy#every},
 * {@link FaultProxy#rotate}). Faults that last (stop reading, corruption, delay) undo themselves
 * after their time.
 */
@FunctionalInterface
public interface Fault {
    void apply(FaultProxy proxy);

    static Fault stall(Duration duration) {
        return named("stall " + duration.toMillis() + "ms", p -> p.stall(duration));
    }

    static Fault drop() {
        return named("drop", FaultProxy::drop);
    }

    static Fault reset() {
        return named("reset", FaultProxy::reset);
    }

    static Fault truncate(int bytes) {
        return named("truncate after " + bytes + " bytes", p -> p.truncateNextReply(bytes));
    }

    static Fault swap() {
        return named("swap replies", FaultProxy::swapNextReplies);
    }

    static Fault stopReading(Duration duration) {
        return named("stop reading " + duration.toMillis() + "ms", p -> {
            p.stopReading();
            p.after(duration, FaultProxy::resumeReading);
        });
    }

    static Fault corrupt(double rate, long seed, Duration duration) {
        return named("corrupt " + rate + " for " + duration.toMillis() + "ms", p -> {
            p.corrupt(rate, FaultProxy.Corruption.FLIP, seed);
            p.after(duration, q -> q.corrupt(0, FaultProxy.Corruption.FLIP, seed));
        });
    }

    static Fault delay(FaultProxy.Direction direction, Duration delay, Duration duration) {
        return named("delay " + direction + " " + delay.toMillis() + "ms for " + duration.toMillis() + "ms", p -> {
            p.delay(direction, delay);
            p.after(duration, q -> q.delay(direction, Duration.ZERO));
        });
    }

    /** A fault with a name for logs ({@code toString}). */
    static Fault named(String name, Fault fault) {
        return new Fault() {
            @Override
            public void apply(FaultProxy proxy) {
                fault.apply(proxy);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
