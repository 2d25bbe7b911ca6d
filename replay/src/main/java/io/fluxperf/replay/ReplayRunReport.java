package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.load.RunErrors;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.JsonResult;
import io.fluxperf.engine.run.TextRunReport;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.engine.trust.RunTrust;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A replay's report: {@code run}'s ({@link TextRunReport}) with the replay's config echo, a
 * progress line through the log instead of the live line, statistics blocks that also say the
 * interval's send lag and the place in the log, the open-loop lines of the requests that had a
 * send time, and the fidelity block at the end; its JSON result carries a {@code replay} object.
 */
final class ReplayRunReport extends TextRunReport {
    private final ReplayReport replayReport;
    private final Replay.Finisher finisher;
    private final ReplaySource source;
    private final ReplayPlan plan;
    private final boolean progress;
    private long connectedNanos = System.nanoTime();
    private ReplayResult result;
    /** The run's trust, once given (before {@link #finished}); null when it was not checked. */
    private RunTrust trust;
    /** Where each statistics block ended in the log, for the JSON result. */
    private final List<LogPosition> positions = new ArrayList<>();

    ReplayRunReport(PrintStream out, PrintStream err, ReplayPlan plan, ReplaySource source, Replay.Finisher finisher) {
        super(out, err, false);
        this.replayReport = new ReplayReport(out);
        this.plan = plan;
        this.source = source;
        this.finisher = finisher;
        this.progress = plan.options.live();
    }

    /** The replay's result, once the report is finished. */
    ReplayResult result() {
        return result;
    }

    @Override
    protected void echoConfig(RunConfig config, String target) {
        replayReport.configEcho(config, target, plan, text.floorLine());
    }

    @Override
    public void connected(long open, long failures) {
        super.connected(open, failures);
        connectedNanos = System.nanoTime();
    }

    @Override
    public void trust(RunTrust runTrust) {
        super.trust(runTrust);
        this.trust = runTrust; // what held the replay back is decided on the same evidence as the windows' Client: lines
    }

    @Override
    public void live(LiveSample sample) {
        if (progress) {
            long now = System.nanoTime();
            ScheduleProgress.At schedule = source.schedule().at(now, finisher.stats().size, plan.options.loops());
            err.println(ReplayReport.progressLine(sample, now - connectedNanos, position(), plan.options.loops(),
                    ReplayReport.placeUnit(plan.format), schedule, plan.options.speedText(), plan.options.maxWait() != null));
        }
    }

    @Override
    public void stats(IntervalSample sample) {
        LogPosition at = position();
        positions.add(at);
        text.statsLines(sample);
        boolean paced = plan.options.speed() > 0 || plan.options.rateCap() > 0;
        for (String line : ReplayReport.statsLines(sample, at, paced, plan.options.loops(), ReplayReport.placeUnit(plan.format))) {
            out.println(line);
        }
        out.println();
    }

    private LogPosition position() {
        return LogPosition.of(source.progress(), finisher.stats().size, plan.options.loops());
    }

    @Override
    public void window(WindowResult window) {
        super.window(window);
        replayReport.scheduleLines(window, true);
    }

    @Override
    public void finished(RunResult run, RunErrors errors, RunTrace trace) {
        source.close(); // its reader's figures are final once it has stopped
        Throwable failure = source.failure();
        RunResult shown = finisher.shown(run, failure);
        text.summary(shown);
        replayReport.scheduleLines(shown.total(), false);
        totalTrust();
        if (trace != null) {
            out.println(trace.statusLine());
        }
        if (errors.any()) {
            out.println(errors.summary());
        }
        result = finisher.result(shown, failure, positions, trust == null ? List.of() : trust.windows());
        replayReport.fidelity(result, plan.notes);
        out.flush();
    }

    @Override
    public JsonResult jsonResult(RunResult run) {
        if (result == null) {
            throw new UserError("--json: the replay ended before its result was made");
        }
        return ReplayReport.jsonResult(result);
    }
}
