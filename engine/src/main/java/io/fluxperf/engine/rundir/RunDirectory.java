package io.fluxperf.engine.rundir;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.Flags;
import io.fluxperf.engine.config.Settings;
import io.fluxperf.trace.FileErrors;
import io.fluxperf.trace.ParseErrors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * A finished run directory, read: what every later view ({@code report}, {@code compare}, the HTML
 * page, SLO checks, {@code merge}) is made from, without sending any load. {@link #open} checks that
 * the directory is one (result.json present, whole, of a format this fluxperf reads, and its
 * config.toml beside it) and says in one sentence, naming the file, when it is not.
 *
 * <p>Views read the result as JSON ({@link #result()}, laid out as docs/results.md says), the
 * effective config ({@link #config()}), and the histograms of the interval logs
 * ({@link #windowIntervals()}, {@link #secondIntervals()}), decoded losslessly.
 */
public final class RunDirectory {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path dir;
    private final byte[] resultBytes;
    private final JsonNode result;
    private final String configToml;
    private RunConfig config;

    private RunDirectory(Path dir, byte[] resultBytes, JsonNode result, String configToml) {
        this.dir = dir;
        this.resultBytes = resultBytes;
        this.result = result;
        this.configToml = configToml;
    }

    /**
     * Opens {@code dir}.
     *
     * @throws UserError (exit 2) when it is not a run directory, its result.json is cut short or
     *                   not JSON, or of a format this fluxperf does not read, or one of its interval
     *                   logs (windows.hlog, seconds.hlog) is damaged
     */
    public static RunDirectory open(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new UserError(dir + " is not a run directory: " + (Files.exists(dir) ? "it is a file" : "it does not exist"));
        }
        Path file = dir.resolve(RunFiles.RESULT);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException | FileNotFoundException e) {
            throw new UserError(dir + " is not a run directory: it has no " + RunFiles.RESULT
                    + " (write one with 'fluxperf run --out DIR')");
        } catch (IOException e) {
            throw new UserError(file + ": cannot read: " + FileErrors.describe(e), e);
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new UserError(file + " is truncated or not JSON (" + ParseErrors.describe(e)
                    + "); the run may have been killed before it finished writing it", e);
        } catch (IOException e) {
            throw new UserError(file + ": cannot read: " + FileErrors.describe(e), e);
        }
        if (root == null || !root.isObject()) {
            throw new UserError(file + " is empty or not a JSON object, so " + dir + " is not a run directory");
        }
        JsonNode format = root.get("format");
        if (format == null || !format.isInt()) {
            throw new UserError(file + " has no \"format\" number, so it is not a run directory's result"
                    + " (a --json file is not one: write a run directory with --out DIR)");
        }
        if (format.asInt() != RunFiles.FORMAT) {
            throw new UserError(file + " is in format " + format.asInt() + ", and this fluxperf reads format "
                    + RunFiles.FORMAT + " only");
        }
        ResultLayout.check(file, root);
        String toml;
        try {
            toml = Files.readString(dir.resolve(RunFiles.CONFIG), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UserError(dir + " is not a whole run directory: it has no " + RunFiles.CONFIG);
        } catch (IOException e) {
            throw new UserError(dir.resolve(RunFiles.CONFIG) + ": cannot read: " + FileErrors.describe(e), e);
        }
        RunDirectory run = new RunDirectory(dir, bytes, root, toml);
        // now, so that every view (the text report too, which reads no second) refuses a damaged log alike
        run.checkWindowLog();
        if (Files.exists(dir.resolve(RunFiles.SECONDS))) {
            run.walkIntervals(RunFiles.SECONDS, i -> { }); // decoded one at a time and let go: a long run has many seconds
        }
        return run;
    }

    /**
     * windows.hlog read and held against result.json: as many windows, and in each, each
     * workload's histogram counts that workload's requests (every request is timed whatever its
     * outcome), so a histogram damaged into other counts is found too.
     */
    private void checkWindowLog() {
        List<Interval> logged = windowIntervals();
        List<String> names = new ArrayList<>();
        result.path("total").path("workloads").forEach(w -> names.add(w.path("name").asText()));
        List<String> tags = RunFiles.tagsOfNames(names);
        JsonNode windows = result.path("windows");
        for (int i = 0; i < logged.size(); i++) {
            JsonNode w = windows.get(i);
            for (int k = 0; k < tags.size(); k++) {
                String tag = RunFiles.tag(tags.get(k), RunFiles.INTENDED);
                Histogram h = logged.get(i).get(tag);
                long counted = h == null ? 0 : h.getTotalCount();
                long requests = w.path("workloads").path(k).path("requests").asLong();
                if (counted != requests) {
                    throw new UserError(dir.resolve(RunFiles.WINDOWS) + ": window " + (i + 1) + "'s " + tag
                            + " histogram counts " + counted + " requests, and " + dir.resolve(RunFiles.RESULT)
                            + " windows[" + i + "].workloads[" + k + "].requests is " + requests
                            + "; the directory is damaged");
                }
            }
        }
    }

    public Path directory() {
        return dir;
    }

    /** result.json as it is on disk, byte for byte ({@code report --json}). */
    public byte[] resultBytes() {
        return resultBytes.clone();
    }

    /** result.json, parsed (docs/results.md lays it out field by field). */
    public JsonNode result() {
        return result;
    }

    /** The command that made the directory: run, replay or merge (a merge of runs says run). */
    public String command() {
        return result.path("command").asText("run");
    }

    /** The hash of config.toml's text ({@link #hash}): runs of the same config have the same one. */
    public String configHash() {
        return result.path("configHash").asText(hash(configToml));
    }

    /** config.toml's text. */
    public String configToml() {
        return configToml;
    }

    /** The effective config, read from config.toml as {@code run --config} reads it. */
    public RunConfig config() {
        if (config == null) {
            config = ConfigResolver.resolve(Flags.builder().set(Settings.CONFIG, dir.resolve(RunFiles.CONFIG)).build());
        }
        return config;
    }

    /** The report's line about the trace (records written, lost), or null when the run wrote none. */
    public String traceLine() {
        return ReportRebuild.traceLine(result.path("trace"));
    }

    /** The report's line about the run's errors, or null when it had none. */
    public String errorsLine() {
        return ReportRebuild.errorsLine(result.path("errors"));
    }

    /** The text report, made again from result.json, config.toml and windows.hlog: what the run printed. */
    public String reportText() {
        return ReportRebuild.text(this);
    }

    /**
     * {@code objectives} judged against this directory's windows and its whole run, by the same
     * evaluator a run uses (its figures read back: counts from result.json, histograms from
     * windows.hlog).
     *
     * @throws UserError when an objective names a workload the run did not have
     */
    public io.fluxperf.engine.slo.SloVerdicts verdicts(List<io.fluxperf.engine.slo.Objective> objectives) {
        return ReportRebuild.verdicts(ReportRebuild.restore(this), objectives);
    }

    /**
     * The intervals of windows.hlog: one group per window, in order, each with its histograms by tag.
     *
     * @throws UserError when the log is damaged or holds another number of windows than result.json
     */
    public List<Interval> windowIntervals() {
        // decoded on each call: views add into the histograms they are given
        List<Interval> logged = intervals(RunFiles.WINDOWS);
        int windows = result.path("windows").size();
        if (logged.size() != windows) {
            throw new UserError(dir.resolve(RunFiles.WINDOWS) + " holds " + logged.size() + " windows and "
                    + dir.resolve(RunFiles.RESULT) + " " + windows + "; the directory is not whole");
        }
        return logged;
    }

    /** The intervals of seconds.hlog: one group per second of the measured windows; empty when the directory has none. */
    public List<Interval> secondIntervals() {
        if (!Files.exists(dir.resolve(RunFiles.SECONDS))) {
            return List.of();
        }
        return intervals(RunFiles.SECONDS);
    }

    /**
     * One interval of a log: its wall-clock bounds and each tag's histogram; the untagged one
     * (every workload's latency) under the key "".
     */
    public record Interval(long startEpochMs, long endEpochMs, Map<String, Histogram> histograms) {
        public Histogram get(String tag) {
            return histograms.get(tag);
        }
    }

    /**
     * The log's intervals grouped: an untagged histogram starts each group, the tagged ones after it
     * belong to it. Every line is checked first (a comment, the legend or an interval), and a
     * histogram HdrHistogram's reader cannot decode is named by its line.
     */
    private List<Interval> intervals(String name) {
        List<Interval> out = new ArrayList<>();
        walkIntervals(name, out::add);
        return out;
    }

    /** {@link #intervals}, each group handed to {@code each} as it is read, none kept. */
    private void walkIntervals(String name, java.util.function.Consumer<Interval> each) {
        Path file = dir.resolve(name);
        int lines = HdrLogLines.check(file, dir, name);
        int read = 0;
        try {
            HistogramLogReader reader = new HistogramLogReader(file.toFile());
            Map<String, Histogram> current = null;
            long start = 0;
            long end = 0;
            EncodableHistogram e;
            while ((e = reader.nextIntervalHistogram()) != null) {
                read++;
                if (!(e instanceof Histogram h)) {
                    throw new UserError(file + ": interval " + read + " holds a histogram of doubles; fluxperf writes"
                            + " whole nanoseconds");
                }
                String tag = h.getTag() == null ? "" : h.getTag();
                if (tag.isEmpty()) {
                    if (current != null) {
                        each.accept(new Interval(start, end, current));
                    }
                    current = new LinkedHashMap<>();
                    start = h.getStartTimeStamp();
                    end = h.getEndTimeStamp();
                } else if (current == null) {
                    throw new UserError(file + ": interval " + read + " (tag " + tag + ") comes before any untagged"
                            + " interval, so it belongs to no " + (name.equals(RunFiles.WINDOWS) ? "window" : "second"));
                }
                current.put(tag, h);
            }
            if (current != null) {
                each.accept(new Interval(start, end, current));
            }
        } catch (FileNotFoundException e) {
            throw new UserError(dir + " is not a whole run directory: it has no " + name);
        } catch (UserError e) {
            throw e;
        } catch (RuntimeException e) {
            throw HdrLogLines.undecodable(file, e);
        }
        if (read != lines) {
            // HdrHistogram's reader stops quietly at a histogram it cannot decode: name that line
            throw HdrLogLines.undecodable(file, null);
        }
    }

    /** A config's fingerprint: SHA-256 of config.toml's text, in hex, prefixed "sha256:". */
    public static String hash(String configToml) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(configToml.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
