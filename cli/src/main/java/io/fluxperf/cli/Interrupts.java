package io.fluxperf.cli;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) and SIGTERM during a run: the first one stops the run gracefully (the report of
 * what ran is printed, traces are closed); a second one exits at once. Restores the previous
 * handlers when closed.
 */
final class Interrupts implements AutoCloseable {
    private static final String[] SIGNALS = {"INT", "TERM"};

    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    private volatile String received;

    private Interrupts() {
    }

    static Interrupts install(Runnable stop) {
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

    private void on(Signal signal, Runnable stop) {
        if (received != null) {
            Runtime.getRuntime().halt(exitCode(signal.getName()));
        }
        received = signal.getName();
        System.err.println("fluxperf: SIG" + signal.getName() + ": stopping; waiting for replies in flight (again to quit at once)");
        stop.run();
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
