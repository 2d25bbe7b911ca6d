package io.fluxperf.engine.sweep;

import java.util.List;

/**
 * One step of a sweep: its target and what it achieved, its latency (ns, from the intended send
 * time in open loop), its errors, and whether it met every objective and was reached.
 *
 * @param number     from 1, in the order the steps ran
 * @param refinement a bisection step (after the first bad rate)
 * @param again      the first rate tried once more, after the first step was not good
 * @param requests   requests that ended in the step's window
 * @param errors     of which error, timeout or closed
 * @param lateShare  the share of paced requests that left more than 1 ms after their intended time (0 to 1)
 * @param reached    the client and the server held the target (see {@link #unreachedBecause()})
 * @param unreachedBecause why the rate was not reached; null when it was
 * @param judged     each objective's judgement, in the order given
 */
public record SweepStep(int number, boolean refinement, boolean again, double target, double achieved, long p50, long p99, long p999,
                        long requests, long errors, double lateShare, boolean reached, String unreachedBecause,
                        List<Judgement> judged) {
    public SweepStep {
        judged = List.copyOf(judged);
    }

    /** One objective's judgement in this step. */
    public record Judgement(String objective, boolean met, String measured) {
    }

    /** Reached and every objective met: a rate the knee may be. */
    public boolean good() {
        return reached && judged.stream().allMatch(Judgement::met);
    }

    /** The step's name in tables: its number, with an r after a refinement's and an a after a rate tried again. */
    public String label() {
        return number + (refinement ? "r" : again ? "a" : "");
    }

    /** Why the step is not good, in a few words; null when it is. */
    public String failure() {
        if (good()) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        for (Judgement j : judged) {
            if (!j.met()) {
                b.append(b.length() > 0 ? "; " : "").append(j.objective()).append(" broken (").append(j.measured()).append(')');
            }
        }
        if (!reached) {
            b.append(b.length() > 0 ? "; " : "").append(unreachedBecause);
        }
        return b.toString();
    }
}
