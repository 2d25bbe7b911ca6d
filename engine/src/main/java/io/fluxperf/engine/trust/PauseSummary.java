package io.fluxperf.engine.trust;

import io.fluxperf.engine.pause.PauseCause;
import io.fluxperf.engine.pause.PauseDetector;
import io.fluxperf.engine.report.HumanUnits;
import java.util.List;
import java.util.Locale;

/**
 * The client pauses of a window or of the whole run, as one line:
 * {@code Client pauses: 2, longest 212 ms at 2.31 s (GC 0, run queue 1, stopped 1)}.
 */
public final class PauseSummary {
    private PauseSummary() {
    }

    /** The report's line for {@code pauses}. */
    public static String line(List<NamedPause> pauses) {
        if (pauses.isEmpty()) {
            return "Client pauses: 0 (none of " + HumanUnits.latency(PauseDetector.THRESHOLD_NANOS) + " or more)";
        }
        NamedPause longest = pauses.get(0);
        for (NamedPause p : pauses) {
            if (p.durationNanos() > longest.durationNanos()) {
                longest = p;
            }
        }
        return String.format(Locale.ROOT, "Client pauses: %d, longest %s at %.2f s (GC %d, run queue %d, stopped %d)",
                pauses.size(), HumanUnits.latency(longest.durationNanos()), longest.atNanos() / 1e9,
                count(pauses, PauseCause.GC), count(pauses, PauseCause.RUN_QUEUE), count(pauses, PauseCause.STOPPED));
    }

    static long count(List<NamedPause> pauses, PauseCause cause) {
        return pauses.stream().filter(p -> p.cause() == cause).count();
    }
}
