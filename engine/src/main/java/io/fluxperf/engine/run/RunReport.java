package io.fluxperf.engine.run;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.load.RunErrors;
import io.fluxperf.engine.load.RunListener;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.report.JsonResult;
import io.fluxperf.engine.trace.RunTrace;

/**
 * What a command shows of its run: the lines before the load, as the load goes
 * ({@link RunListener}) and after it, and the JSON result. {@code run}'s is {@link TextRunReport};
 * {@code replay} and {@code mcb} add their own blocks.
 */
public interface RunReport extends RunListener {
    /**
     * The latency floor, measured before the load ({@link io.fluxperf.engine.trust.FloorProbe}); comes
     * before {@link #starting}, whose config echo reports it.
     */
    default void floor(io.fluxperf.engine.trust.LatencyFloor floor) {
    }

    /** A window's trust (its intervals, client pauses, limits, drifts), right after {@link #window}. */
    default void windowTrust(io.fluxperf.engine.trust.WindowTrust trust) {
    }

    /** The whole run's trust, after the load and before {@link #finished}, whose total it is shown with. */
    default void trust(io.fluxperf.engine.trust.RunTrust trust) {
    }

    /** The run's verdict on itself, the report's last line ({@code Trust: good}). */
    default void trustVerdict(io.fluxperf.engine.trust.TrustVerdict verdict) {
    }

    /** Before anything is sent: what is measured, against what. */
    default void starting(RunConfig config, String target) {
    }

    /** The admin endpoint listens at {@code url} ({@code http://HOST:PORT/}). */
    default void adminListening(String url) {
    }

    /** The in-process warm-up could not run ({@link RunOrchestrator#warmUp}): the run goes on, on a cold JVM. */
    default void warmupSkipped(String reason) {
    }

    /**
     * After the load: the run's end, with its errors that are not outcomes and its trace (closed
     * by now), if it had one.
     */
    default void finished(RunResult result, RunErrors errors, RunTrace trace) {
    }

    /** The latency heatmap of the run ({@link RunConfig#waterfall()}) was drawn, with {@code requests} in it. */
    default void waterfallWritten(java.nio.file.Path png, long requests) {
    }

    /** The verdicts on the run's objectives (--slo, [[slo]]), after {@link #finished}; only a run that has objectives. */
    default void objectives(io.fluxperf.engine.slo.SloVerdicts verdicts) {
    }

    /**
     * The command's JSON result ({@code --json}, and the heart of a run directory's result.json):
     * the run's figures, to which a command adds its own sections (replay: its fidelity). Each call
     * makes a new one: the caller adds its sections ("slo", a run directory's fields) to it.
     */
    default JsonResult jsonResult(RunResult result) {
        return JsonResult.of(result);
    }
}
