package io.fluxperf.cli;

import io.fluxperf.engine.metrics.StopReason;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM during a run: the first one stops the run gracefully (the report of
 * what ran is printed, traces are closed) and the report names the signal; a second one exits at
 * once. Restores the previous handlers when closed.
 */
final class Interrupts implements AutoCloseable {
    private static final String[] SIGNALS = {"INT", "TERM"};

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile String received;

    private Interrupts() {
    }

    /** @param stop stops the run, with the reason the signal gives (SIGTERM: terminated; SIGINT: interrupted) */
    static Interrupts install(Consumer<StopReason> stop) {
        Interrupts interrupts = new Interrupts();
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            try {
                interrupts.previous.add(Signal.handle(signal, s -> interrupts.on(s, stop)));
                interrupts.signals.add(signal);
            } catch (IllegalArgumentException unavailable) {
                // the JVM reserves it (e.g. with -Xrs): fall back to the default behaviour
            }
        }
        return interrupts;
    }

    /** Stops a command that has no reason of its own to report: the signal's name is printed only. */
    static Interrupts install(Runnable stop) {
        return install(reason -> stop.run());
    }

    private void on(Signal signal, Consumer<StopReason> stop) {
        if (received != null) {
            Runtime.getRuntime().halt(exitCode(signal.getName()));
        }
        received = signal.getName();
        System.err.println("fluxperf: SIG" + signal.getName() + ": stopping; waiting for replies in flight (again to quit at once)");
        stop.accept(reason(signal.getName()));
    }

    /** The stop reason a signal gives: SIGTERM is no Ctrl-C. */
    static StopReason reason(String signal) {
        return "TERM".equals(signal) ? StopReason.TERMINATED : StopReason.INTERRUPTED;
    }

    /** The conventional exit code for the signal received (128 + its number), or 0 when none came. */
    int exitCode() {
        return received == null ? 0 : exitCode(received);
    }

    private static int exitCode(String name) {
        return "TERM".equals(name) ? 143 : 130;
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
