package io.fluxperf.engine.run;

import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.load.RunErrors;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.TextReport;
import io.fluxperf.engine.trace.RunTrace;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code run}'s report in rpc-perf's layout ({@link TextReport}): the config echo, connections,
 * flush and preload lines, the warm-up's end, each window, the statistics blocks, the total, the
 * trace's line and the errors; the live line goes to the error stream.
 */
public class TextRunReport implements RunReport {
    protected final PrintStream out;
    protected final PrintStream err;
    protected final TextReport text;
    private final boolean live;
    /** The window text the host policy's rehearsal runs through, and discards. */
    private final TextReport rehearsal = new TextReport(new PrintStream(OutputStream.nullOutputStream()));
    private RunConfig config;
    /** The run's trust, once given: its total's lines follow the total. */
    private io.fluxperf.engine.trust.RunTrust trust;

    /** @param live print the live line every second on {@code err} */
    public TextRunReport(PrintStream out, PrintStream err, boolean live) {
        this.out = out;
        this.err = err;
        this.text = new TextReport(out);
        this.live = live;
    }

    @Override
    public void adminListening(String url) {
        err.println("fluxperf: admin endpoint on " + url + " (GET /, /metrics, /metrics.json, /vars; PUT /ratelimit/RATE;"
                + " POST /quitquitquit)");
    }

    @Override
    public void rateChanged(io.fluxperf.engine.workload.RateControl.Change change, String workloadName) {
        out.println("Rate: workload " + workloadName + " now " + TextReport.group(Math.round(change.rate()))
                + " requests/s (" + change.cause() + ")");
    }

    /** The report is of a merge of {@code runs} runs (see {@link TextReport#mergedFrom}). */
    public TextRunReport mergedFrom(int runs) {
        text.mergedFrom(runs);
        return this;
    }

    /** The run's config, once {@link #starting} has been called. */
    protected RunConfig config() {
        return config;
    }

    @Override
    public void starting(RunConfig runConfig, String target) {
        this.config = runConfig;
        echoConfig(runConfig, target);
    }

    /** The config echo before the load: rpc-perf's, unless a command has its own. */
    protected void echoConfig(RunConfig runConfig, String target) {
        text.configEcho(runConfig, target);
    }

    @Override
    public void floor(io.fluxperf.engine.trust.LatencyFloor floor) {
        text.floor(floor);
    }

    @Override
    public void windowTrust(io.fluxperf.engine.trust.WindowTrust windowTrust) {
        io.fluxperf.engine.trust.TrustLines.window(windowTrust).forEach(out::println);
    }

    @Override
    public void trust(io.fluxperf.engine.trust.RunTrust runTrust) {
        this.trust = runTrust;
    }

    @Override
    public void trustVerdict(io.fluxperf.engine.trust.TrustVerdict verdict) {
        out.println(verdict.line());
        out.flush();
    }

    /** The total's lines of trust (its intervals, the run's pauses, what the checks found), when the run's trust is known. */
    protected void totalTrust() {
        if (trust != null) {
            io.fluxperf.engine.trust.TrustLines.total(trust).forEach(out::println);
        }
    }

    @Override
    public void warmupSkipped(String reason) {
        err.println("fluxperf: warm-up skipped (" + reason + "); the first requests run on a cold JVM");
    }

    @Override
    public void startedLate(long lateNanos) {
        err.printf(java.util.Locale.ROOT, "fluxperf: late: the load was ready %.3f s after --start-at; the requests due"
                + " since then leave at once and count that lateness as send lag%n", lateNanos / 1e9);
    }

    @Override
    public void connected(long open, long failures) {
        text.connections(open, failures);
    }

    @Override
    public void flushed() {
        out.println("Flushed: flush_all sent before the run");
    }

    @Override
    public void preloaded(long keys, long failed, double seconds) {
        out.printf(Locale.ROOT, "Preloaded: %d keys in %.1f s%s%n", keys, seconds,
                failed > 0 ? " (" + failed + " writes failed: reads of those keys will miss)" : "");
    }

    @Override
    public void warmupComplete() {
        text.warmupComplete();
    }

    @Override
    public void warmupEnded(HitrateWarmup warmup) {
        text.warmupEnded(warmup);
    }

    @Override
    public void live(LiveSample sample) {
        if (live && config != null) {
            err.println(TextReport.liveLine(sample, config));
        }
    }

    @Override
    public void stats(IntervalSample sample) {
        text.statsBlock(sample);
    }

    @Override
    public void rehearseWindow(WindowResult window) {
        rehearsal.window(window, config);
    }

    @Override
    public void window(WindowResult window) {
        text.window(window, config);
    }

    @Override
    public void waterfallWritten(java.nio.file.Path png, long requests) {
        out.println("Waterfall: " + png + " (" + requests + " requests, latency heatmap of the measured run)");
        out.flush();
    }

    @Override
    public void objectives(io.fluxperf.engine.slo.SloVerdicts verdicts) {
        verdicts.print(out);
    }

    @Override
    public void finished(RunResult result, RunErrors errors, RunTrace trace) {
        finished(result, trace != null ? trace.statusLine() : null, errors.any() ? errors.summary() : null);
    }

    /**
     * The lines after the load from what they say: the total, the trace's line and the errors'
     * line (each null when absent); also what a run directory's report is made again with.
     */
    public void finished(RunResult result, String traceLine, String errorsLine) {
        text.summary(result);
        totalTrust();
        if (traceLine != null) {
            out.println(traceLine);
        }
        if (errorsLine != null) {
            out.println(errorsLine);
        }
        out.flush();
    }
}
