package io.fluxperf.engine.pause;

/** Why the client stood still. */
public enum PauseCause {
    /** A stop-the-world garbage collection, as the JVM's collectors report it. */
    GC("GC"),
    /** Runnable but not running: the threads waited for a CPU (the kernel's run-queue delay). */
    RUN_QUEUE("run queue"),
    /** Neither: the whole process stood still (a stop signal, a safepoint other than a collection, the hypervisor). */
    STOPPED("stopped");

    private final String label;

    PauseCause(String label) {
        this.label = label;
    }

    /** As the report writes it: GC, run queue, stopped. */
    public String label() {
        return label;
    }

    /** The cause with this label; null for none. */
    public static PauseCause ofLabel(String label) {
        for (PauseCause c : values()) {
            if (c.label.equals(label)) {
                return c;
            }
        }
        return null;
    }
}
