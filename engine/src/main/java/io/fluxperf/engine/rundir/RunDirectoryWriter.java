package io.fluxperf.engine.rundir;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.load.RunErrors;
import io.fluxperf.engine.metrics.HitrateWarmup;
import io.fluxperf.engine.metrics.IntervalSample;
import io.fluxperf.engine.metrics.LiveSample;
import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SecondFigures;
import io.fluxperf.engine.metrics.WorkloadStats;
import org.HdrHistogram.Histogram;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.StopReason;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.IntervalLog;
import io.fluxperf.engine.report.JsonReport;
import io.fluxperf.engine.report.JsonResult;
import io.fluxperf.engine.run.RunReport;
import io.fluxperf.engine.trace.RunTrace;
import io.fluxperf.trace.FileErrors;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;

/**
 * Writes a run directory ({@code run --out DIR}) as the run goes: {@code config.toml} and
 * {@code environment.json} when it is opened (before the load starts), each window's histograms
 * into {@code windows.hlog} as the window ends, the printed report into {@code report.txt} as it is
 * printed, and {@code result.json} at the end. A run that ends with an error still leaves a
 * complete directory ({@link #close()} writes what ran, with the error); Ctrl-C and SIGTERM end a
 * run normally, so their directories are complete too. The layout is in docs/results.md.
 *
 * <p>Assumptions and guarantees: the run's listener calls ({@link #recording}) come on the run's
 * thread, never on a load loop, so every file is written from that one thread; the figures the
 * report prints and the ones the files hold are the same objects, so {@code fluxperf report}
 * made from the files prints what the run printed.
 */
public final class RunDirectoryWriter implements AutoCloseable {
    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Path dir;
    private final String command;
    private final RunConfig config;
    private final String configHash;
    private final String place;
    /** The epoch and nanoTime clocks read together, to give a window's nanoTime bounds a wall-clock time. */
    private final long epochMillisAtOpen;
    private final long nanosAtOpen;
    private final List<String> tags;
    private IntervalLog windows;
    private IntervalLog seconds;
    /** A second's latency over every workload (the untagged interval), reused. */
    private final Histogram allLatency = WorkloadStats.newHistogram();
    private OutputStream report;
    private final ArrayNode events = mapper.createArrayNode();
    /** The windows reported so far, kept small: the result of a run that ended in an error is made from them. */
    private final List<WindowResult> kept = new ArrayList<>();
    private final List<IntervalSample> intervals = new ArrayList<>();
    private String target;
    /** The command's report, whose JSON result result.json carries. */
    private RunReport recorded;
    private ObjectNode errors;
    private ObjectNode trace;
    private String failure;
    private boolean done;
    /** The run's trust (result.json's "trust"): each window's as it ends, the whole once the run has ended. */
    private final ArrayNode trustWindows = mapper.createArrayNode();
    private ObjectNode trust;
    private ObjectNode floor;

    private RunDirectoryWriter(Path dir, String command, RunConfig config, String configToml, String place) {
        this.dir = dir;
        this.command = command;
        this.config = config;
        this.configHash = RunDirectory.hash(configToml);
        this.place = place;
        this.epochMillisAtOpen = System.currentTimeMillis();
        this.nanosAtOpen = System.nanoTime();
        this.tags = RunFiles.workloadTags(config.workloads());
    }

    /**
     * Makes the directory (refusing one that holds anything unless {@code overwrite}) and writes
     * the config, the environment and the logs' headers.
     *
     * @param command     the command that runs: run or replay
     * @param commandLine the exact command line, for environment.json
     * @param place       where the directory was named, for messages: "--out" or "general.out"
     * @throws UserError naming {@code place} and the directory when it cannot be used
     */
    public static RunDirectoryWriter open(Path dir, boolean overwrite, RunConfig config, String command,
                                          List<String> commandLine, String place) {
        prepareDirectory(dir, overwrite, place);
        String toml = EffectiveConfig.toml(config);
        RunDirectoryWriter w = new RunDirectoryWriter(dir, command, config, toml, place);
        try {
            Files.writeString(dir.resolve(RunFiles.CONFIG), toml, StandardCharsets.UTF_8);
            w.mapper.writeValue(dir.resolve(RunFiles.ENVIRONMENT).toFile(),
                    RunEnvironment.describe(w.mapper, commandLine, w.epochMillisAtOpen));
            w.windows = IntervalLog.create(dir.resolve(RunFiles.WINDOWS), w.epochMillisAtOpen,
                    "fluxperf: one interval per window, ns; Tag=WORKLOAD/KIND (intended, service; */send-lag, */connect; */tcp-rtt in us), untagged: every workload's intended");
            w.seconds = IntervalLog.create(dir.resolve(RunFiles.SECONDS), w.epochMillisAtOpen,
                    "fluxperf: one interval per second of the measured windows, ns; tags as in windows.hlog");
            w.report = new BufferedOutputStream(Files.newOutputStream(dir.resolve(RunFiles.REPORT)));
            return w;
        } catch (IOException e) {
            w.closeQuietly();
            throw new UserError(place + ": cannot write the run directory " + dir + ": " + FileErrors.describe(e), e);
        }
    }

    /** An empty directory, made if missing; a non-empty one only with {@code overwrite}, emptied of a run directory's files. */
    static void prepareDirectory(Path dir, boolean overwrite, String place) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new UserError(place + ": " + dir + " is a file, not a directory");
        }
        try {
            if (Files.isDirectory(dir)) {
                boolean empty;
                try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                    empty = !entries.iterator().hasNext();
                }
                if (!empty && !overwrite) {
                    throw new UserError(place + ": " + dir + " exists and is not empty; name a new directory, or add --overwrite");
                }
                for (String name : RunFiles.ALL) {
                    deleteTree(dir.resolve(name));
                }
            }
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserError(place + ": cannot make the run directory " + dir + ": " + FileErrors.describe(e), e);
        }
    }

    /** A sharded run's agent (issue 31): result.json's "shard", asked for when it is written, after the load. */
    private java.util.function.Supplier<?> shard;

    /** Makes result.json's "shard" section what {@code info} gives when the result is written (a record Jackson writes). */
    public void shard(java.util.function.Supplier<?> info) {
        this.shard = info;
    }

    /** The directory. */
    public Path directory() {
        return dir;
    }

    /** Where the run's trace goes when {@code --trace} is given without a directory. */
    public Path traceDirectory() {
        return dir.resolve(RunFiles.TRACE);
    }

    /** A stream that prints to {@code out} and into report.txt: the report as printed. */
    public PrintStream tee(PrintStream out) {
        OutputStream both = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
                fileWrite(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                fileWrite(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
                OutputStream r = report;
                if (r != null) {
                    r.flush();
                }
            }
        };
        return new PrintStream(both, true, StandardCharsets.UTF_8);
    }

    private void fileWrite(byte[] b, int off, int len) throws IOException {
        OutputStream r = report;
        if (r != null) {
            r.write(b, off, len);
        }
    }

    /**
     * Bytes of histograms and encoding buffers the directory holds through the run: the seconds'
     * all-workloads latency, and each interval log's ({@link IntervalLog#histogramBytes()}).
     */
    public long histogramBytes() {
        return allLatency.getEstimatedFootprintInBytes() + (windows == null ? 0 : windows.histogramBytes())
                + (seconds == null ? 0 : seconds.histogramBytes());
    }

    /** {@code report} with every step also kept for the directory. */
    public RunReport recording(RunReport report) {
        recorded = report;
        return new Recorder(report);
    }

    /** The run failed with {@code message} (a user's error, or a fatal one): {@link #close()} writes what ran, with it. */
    public void failed(String message) {
        if (failure == null) {
            failure = message == null ? "failed" : message;
        }
    }

    /**
     * The run is over: writes result.json, and closes the report and the logs.
     *
     * @throws UserError when a file cannot be written
     */
    public void complete(RunResult result) {
        if (done) {
            return;
        }
        done = true;
        try {
            closeFiles();
            writeResult(result, null);
        } catch (IOException e) {
            throw new UserError(place + ": cannot write the run directory " + dir + ": " + FileErrors.describe(e), e);
        }
    }

    /** Completes the directory if {@link #complete} was not reached: the result of the windows that ran, with the failure. */
    @Override
    public void close() {
        if (done) {
            return;
        }
        done = true;
        try {
            closeFiles();
            WindowResult total = kept.isEmpty() ? WindowResult.empty(0, nanosAtOpen, config.workloads()) : sum(kept);
            RunResult ran = new RunResult(config, target, List.copyOf(kept), total, StopReason.COMPLETED, 0,
                    List.copyOf(intervals), List.of(), SendLateness.NONE);
            writeResult(ran, failure != null ? failure : "the run ended without a result");
        } catch (IOException | RuntimeException e) {
            // the run's own error is what the user sees; the directory keeps what could be written
        }
    }

    private static WindowResult sum(List<WindowResult> windows) {
        WindowResult total = WindowResult.empty(0, windows.get(0).startNanos(), windows.get(0).workloadConfigs());
        for (WindowResult w : windows) {
            total = total.merge(0, w);
        }
        return total;
    }

    private void closeFiles() throws IOException {
        IOException first = null;
        try {
            if (report != null) {
                report.close();
            }
        } catch (IOException e) {
            first = e;
        } finally {
            report = null;
        }
        try {
            if (windows != null) {
                windows.close();
            }
        } catch (IOException e) {
            first = first == null ? e : first;
        } finally {
            windows = null;
        }
        try {
            if (seconds != null) {
                seconds.close();
            }
        } catch (IOException e) {
            first = first == null ? e : first;
        } finally {
            seconds = null;
        }
        if (first != null) {
            throw first;
        }
    }

    private void closeQuietly() {
        try {
            closeFiles();
        } catch (IOException ignored) {
            // opening failed already; that error is the one reported
        }
    }

    /** result.json: the JSON result's figures, with what the directory adds (docs/results.md), written whole or not at all. */
    private void writeResult(RunResult result, String error) throws IOException {
        // the command's own JSON result (replay's carries its fidelity block), unless the run failed before it had one
        JsonResult figures = recorded != null && error == null ? recorded.jsonResult(result) : JsonResult.of(result);
        JsonResult json = result(figures, command, configHash, this::epochNanos, events, errors, trace, error);
        if (shard != null) {
            json.section("shard", shard.get());
        }
        if (slo != null) {
            json.section("slo", slo);
        }
        if (trust != null) {
            json.section("trust", trust);
        } else if (floor != null || !trustWindows.isEmpty()) {
            // a run that ended without a result: what it judged of its windows
            ObjectNode partial = mapper.createObjectNode();
            partial.set("floor", floor);
            partial.set("windows", trustWindows);
            json.section("trust", partial);
        }
        writeResult(dir, json);
    }

    /**
     * result.json's model: the command's JSON result ({@code figures}, of {@link JsonResult#run()})
     * between the directory's own sections, each window with its load threads' CPU time.
     *
     * @param toEpochNanos the result's nanoTime values as ns since the epoch
     * @param error        why the run failed, or null
     */
    static JsonResult result(JsonResult figures, String command, String configHash, LongUnaryOperator toEpochNanos,
                             ArrayNode events, ObjectNode errors, ObjectNode trace, String error) {
        RunResult result = figures.run();
        long origin = !result.windows().isEmpty() ? result.windows().get(0).startNanos() : result.total().startNanos();
        JsonResult json = JsonResult.around(figures)
                .section("format", RunFiles.FORMAT)
                .section("command", command)
                .section("configHash", configHash)
                .section("startEpochMs", Math.floorDiv(toEpochNanos.applyAsLong(origin), 1_000_000L))
                .section("endEpochMs", Math.floorDiv(toEpochNanos.applyAsLong(result.total().endNanos()), 1_000_000L))
                .sections(figures)
                .withLoopCpu();
        if (error != null) {
            json.section("stopReason", "failed");
        }
        return json.section("events", events)
                .section("errors", errors)
                .section("trace", trace)
                .section("error", error)
                .section("shard", null)
                .section("mergedFrom", null);
    }

    /** Writes result.json beside a temporary file and renames it into place: a reader never sees half of it. */
    static void writeResult(Path dir, JsonResult json) throws IOException {
        Path file = dir.resolve(RunFiles.RESULT);
        Path partial = dir.resolve(RunFiles.RESULT + ".partial");
        try (OutputStream out = Files.newOutputStream(partial)) {
            new JsonReport().write(json, out);
        }
        Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private long epochNanos(long nanoTime) {
        return epochMillisAtOpen * 1_000_000L + (nanoTime - nanosAtOpen);
    }


    /** The verdicts on the run's objectives (result.json's "slo"), or null when it had none. */
    private ObjectNode slo;

    private ObjectNode event(String name) {
        ObjectNode e = events.addObject();
        e.put("event", name);
        return e;
    }

    /** Each window's histograms into windows.hlog, every workload's and kind's under its tag. */
    private void writeWindow(WindowResult w) throws IOException {
        if (windows == null) {
            return;
        }
        writeWindow(windows, w, tags, epochNanos(w.startNanos()), epochNanos(w.endNanos()));
        windows.flush();
    }

    /** One window's intervals: the untagged latency of every workload, each workload's kinds, and the window's own. */
    static void writeWindow(IntervalLog log, WindowResult w, List<String> tags, long start, long end) {
        log.interval(start, end, null, w.total().latency());
        for (int i = 0; i < w.workloads().size() && i < tags.size(); i++) {
            log.interval(start, end, RunFiles.tag(tags.get(i), RunFiles.INTENDED), w.workloads().get(i).latency());
            log.interval(start, end, RunFiles.tag(tags.get(i), RunFiles.SERVICE), w.workloads().get(i).service());
        }
        log.interval(start, end, RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.SEND_LAG), w.sendLag());
        log.interval(start, end, RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.CONNECT), w.connectLatency());
        log.interval(start, end, RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.TCP_RTT), w.tcp().rttMicros());
        if (w.pool() != null) {
            for (io.fluxperf.engine.metrics.ServerStats s : w.pool().servers()) {
                if (s.shown()) {
                    log.interval(start, end, RunFiles.serverTag(s.name()), s.latency());
                }
            }
        }
    }

    /** One second's histograms into seconds.hlog, tagged as the windows' are. */
    private void writeSecond(SecondFigures s) throws IOException {
        if (seconds == null) {
            return;
        }
        long start = epochNanos(s.startNanos());
        long end = epochNanos(s.endNanos());
        Histogram all = allLatency;
        all.reset();
        for (WorkloadStats w : s.workloads()) {
            all.add(w.latency());
        }
        seconds.interval(start, end, null, all);
        for (int i = 0; i < s.workloads().size() && i < tags.size(); i++) {
            seconds.interval(start, end, RunFiles.tag(tags.get(i), RunFiles.INTENDED), s.workloads().get(i).latency());
            seconds.interval(start, end, RunFiles.tag(tags.get(i), RunFiles.SERVICE), s.workloads().get(i).service());
        }
        seconds.interval(start, end, RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.SEND_LAG), s.sendLag());
        seconds.interval(start, end, RunFiles.tag(RunFiles.ALL_WORKLOADS, RunFiles.CONNECT), s.connect());
        seconds.flush();
    }

    /** The run's report, with each step also kept for the directory (on the run's thread). */
    private final class Recorder implements RunReport {
        private final RunReport report;

        Recorder(RunReport report) {
            this.report = report;
        }

        @Override
        public void floor(io.fluxperf.engine.trust.LatencyFloor f) {
            report.floor(f);
            floor = io.fluxperf.engine.trust.TrustJson.floor(f);
            event("floor").set("floor", floor.deepCopy());
        }

        @Override
        public void windowTrust(io.fluxperf.engine.trust.WindowTrust t) {
            report.windowTrust(t);
            trustWindows.add(io.fluxperf.engine.trust.TrustJson.window(t));
            event("windowTrust").put("window", t.window());
        }

        @Override
        public void trust(io.fluxperf.engine.trust.RunTrust t) {
            report.trust(t);
            trust = io.fluxperf.engine.trust.TrustJson.of(t);
            event("trust");
        }

        @Override
        public void trustVerdict(io.fluxperf.engine.trust.TrustVerdict v) {
            report.trustVerdict(v);
            event("trustVerdict").put("verdict", v.text());
        }

        @Override
        public void starting(RunConfig runConfig, String description) {
            target = description;
            report.starting(runConfig, description);
            event("starting");
        }

        @Override
        public void warmupSkipped(String reason) {
            report.warmupSkipped(reason);
        }

        @Override
        public void adminListening(String url) {
            report.adminListening(url); // stderr only: the report made again has no such line either
        }

        @Override
        public void rateChanged(io.fluxperf.engine.workload.RateControl.Change change, String workloadName) {
            report.rateChanged(change, workloadName);
            ObjectNode e = event("rateChanged");
            e.put("atNanos", change.atNanos());
            e.put("unixMillis", change.unixMillis());
            e.put("workload", change.workload());
            e.put("rate", change.rate());
            e.put("cause", change.cause());
            e.put("name", workloadName);
        }

        @Override
        public void startedLate(long lateNanos) {
            report.startedLate(lateNanos);
            event("startedLate").put("lateNanos", lateNanos);
        }

        @Override
        public void connected(long open, long failures) {
            report.connected(open, failures);
            ObjectNode e = event("connected");
            e.put("open", open);
            e.put("failures", failures);
        }

        @Override
        public void flushed() {
            report.flushed();
            event("flushed");
        }

        @Override
        public void preloaded(long keys, long failed, double seconds) {
            report.preloaded(keys, failed, seconds);
            ObjectNode e = event("preloaded");
            e.put("keys", keys);
            e.put("failed", failed);
            e.put("seconds", seconds);
        }

        @Override
        public void warmupComplete() {
            report.warmupComplete();
            event("warmupComplete");
        }

        @Override
        public void warmupEnded(HitrateWarmup warmup) {
            report.warmupEnded(warmup);
            ObjectNode e = event("warmupEnded");
            e.put("targetPercent", warmup.targetPercent());
            if (warmup.hitratePercent() == null) {
                e.putNull("hitratePercent");
            } else {
                e.put("hitratePercent", warmup.hitratePercent());
            }
            e.put("seconds", warmup.seconds());
            e.put("boundSeconds", warmup.boundSeconds());
            e.put("reached", warmup.reached());
        }

        @Override
        public void live(LiveSample sample) {
            report.live(sample);
        }

        @Override
        public void rehearseWindow(WindowResult window) {
            report.rehearseWindow(window);
        }

        @Override
        public void stats(IntervalSample sample) {
            report.stats(sample);
            event("stats").put("interval", intervals.size());
            intervals.add(sample);
        }

        @Override
        public void second(SecondFigures second) {
            report.second(second);
            try {
                writeSecond(second);
            } catch (IOException e) {
                throw new UserError(place + ": cannot write " + dir.resolve(RunFiles.SECONDS) + ": " + FileErrors.describe(e), e);
            }
        }

        @Override
        public void window(WindowResult window) {
            report.window(window);
            event("window").put("number", window.number());
            try {
                writeWindow(window);
            } catch (IOException e) {
                throw new UserError(place + ": cannot write " + dir.resolve(RunFiles.WINDOWS) + ": " + FileErrors.describe(e), e);
            }
            kept.add(window.compact());
        }

        @Override
        public void finished(RunResult result, RunErrors runErrors, RunTrace runTrace) {
            report.finished(result, runErrors, runTrace);
            ObjectNode e = event("finished");
            if (runErrors.any()) {
                errors = mapper.createObjectNode();
                errors.put("protocol", runErrors.protocolErrors());
                errors.put("connection", runErrors.connectionErrors());
                errors.put("request", runErrors.requestErrors());
                ObjectNode messages = errors.putObject("messages");
                for (Map.Entry<String, Long> m : runErrors.messages().entrySet()) {
                    messages.put(m.getKey(), m.getValue());
                }
                if (runErrors.wrongServerHint() != null) {
                    errors.put("hint", runErrors.wrongServerHint());
                }
            }
            if (runTrace != null) {
                trace = mapper.createObjectNode();
                trace.put("directory", runTrace.directory().toString());
                trace.put("records", runTrace.recordsWritten());
                trace.put("lost", runTrace.recordsLost());
                trace.put("failed", runTrace.failed());
                trace.put("failure", runTrace.failure().orElse(null));
            }
            e.put("errors", errors != null);
            e.put("trace", trace != null);
        }

        @Override
        public void objectives(io.fluxperf.engine.slo.SloVerdicts verdicts) {
            report.objectives(verdicts);
            // made again by report DIR from config.toml's [[slo]] and the windows; the verdicts are kept for readers
            event("objectives");
            slo = verdicts.json();
        }

        @Override
        public void waterfallWritten(Path png, long requests) {
            report.waterfallWritten(png, requests);
            ObjectNode e = event("waterfall");
            e.put("file", png.toString());
            e.put("requests", requests);
        }

        @Override
        public JsonResult jsonResult(RunResult result) {
            return report.jsonResult(result);
        }
    }

    static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
