package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.slo.Objectives;
import io.fluxperf.engine.sweep.SloStepObjective;
import io.fluxperf.engine.sweep.SweepFiles;
import io.fluxperf.engine.sweep.SweepResult;
import io.fluxperf.engine.sweep.SweepStep;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.testkit.Chromium;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServer;
import io.fluxperf.testkit.RealServers;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code fluxperf sweep} end to end: against a real memcached, against a delayed embedded server, and bad options. */
@ExtendWith(RealServers.class)
class SweepCommandTest {
    @RealServer
    private static MemcachedProcess memcached;

    @TempDir
    Path tmp;

    @Test
    void badOptionsAreOneSentenceAndExitTwo() {
        assertBad("--from 50,000 is above --to 10,000", "--from", "50000", "--to", "10000", "--factor", "2", "--slo", "p99<1ms");
        assertBad("--step and --factor: give one of them, not both", "--from", "1000", "--to", "10000", "--factor", "2",
                "--step", "1000", "--slo", "p99<1ms");
        assertBad("--slo: a sweep needs at least one objective", "--from", "1000", "--to", "10000", "--factor", "2");
        assertBad("--rate: a sweep sets each step's rate", "--from", "1000", "--to", "10000", "--factor", "2",
                "--slo", "p99<1ms", "--rate", "5000");
        assertBad("--step or --factor: give one", "--from", "1000", "--to", "10000", "--slo", "p99<1ms");
        // each of these once changed or was dropped from every step without a word
        assertBad("--ramp: a sweep sets each step's rate", "--from", "1000", "--to", "10000", "--factor", "2",
                "--slo", "p99<1ms", "--ramp", "1:2:1:1s");
        for (String[] flag : new String[][] {{"--shard", "0/2"}, {"--shards", "2"}, {"--start-at", "0"}, {"--run-id", "r1"}}) {
            assertBad(flag[0] + ": a sweep runs its steps on this machine", "--from", "1000", "--to", "10000", "--factor",
                    "2", "--slo", "p99<1ms", flag[0], flag[1]);
        }
    }

    @Test
    void aConfigsRampIsRefused() throws Exception {
        Path config = tmp.resolve("ramp.toml");
        Files.writeString(config, """
                [[workload]]
                name = "get"
                method = "get"
                [workload.ratelimit]
                start = 1000
                end = 5000
                step = 1000
                interval = 1
                """);
        assertBad("--config: a workload's [workload.ratelimit] ramps its rate", "--config", config.toString(),
                "--from", "1000", "--to", "10000", "--factor", "2", "--slo", "p99<1ms");
    }

    private static void assertBad(String message, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "sweep";
        System.arraycopy(args, 0, all, 1, args.length);
        CliRun run = CliRun.of(all);
        assertEquals(2, run.exitCode(), run.out() + run.err());
        String err = run.err().strip();
        assertTrue(err.startsWith("fluxperf: " + message), err);
        assertFalse(err.contains("\n"), "one sentence: " + err);
        assertFalse(err.contains("Exception") || err.contains("io.fluxperf"), err);
    }

    /**
     * A sweep whose every step holds, against the embedded server: the first step warms up by default
     * and says so, each step shows a live line on stderr while it runs, and with no failed step the
     * knee lies above --to, which is not called the knee (issue 46).
     */
    @Tag("timing")
    @Test
    void withNoFailedStepTheKneeLiesAboveToAndEachStepShowsItsProgress() {
        CliRun run = CliRun.of("sweep", "--keyspace", "100", "-c", "2", "--from", "200", "--factor", "2", "--to", "400",
                "--window", "1500ms", "--slo", "p50<100ms");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        assertTrue(run.out().contains("\nWarm-up: 2 s at 200/s before step 1, unreported (without --warmup;"), run.out());
        assertTrue(run.out().contains("Stopped: reached --to 400/s with every objective met (the knee lies above it)\n"),
                run.out());
        assertTrue(run.out().contains("\nKnee: above 400/s, the --to bound: every rate tried met p50<100ms, the highest"),
                run.out());
        assertFalse(run.out().contains("Knee: 400/s"), run.out());
        // a shared machine's stall may break the first step: it is then tried once more (step 2a), and
        // the knee still lies above --to; every step that ran, whatever its number, showed its progress
        List<String> rows = run.out().lines().filter(l -> l.matches("[0-9]+a? +[0-9,]+ .*")).toList();
        assertTrue(rows.size() >= 2, run.out());
        for (String row : rows) {
            String[] cells = row.split(" +");
            String step = "[step " + cells[0].replace("a", "") + " at " + cells[1] + "/s, 1 s of 1.5 s] ";
            assertTrue(run.err().lines().anyMatch(l -> l.startsWith(step)
                            && l.substring(step.length()).matches("[0-9,]+ rps, errors [0-9,]+, p99 so far [0-9.]+ (ns|us|ms|s)")),
                    "a live line while the step runs: " + step + "\n" + run.err());
        }
    }

    /**
     * The embedded memcache server with 2 ms per reply, on 10 connections of one request each,
     * holds at most 5,000/s: 250 and 1,500/s are good, 9,000/s is not, nor is the bisection's 5,250.
     * The rates tried are far from the capacity on both sides, so a shared machine's stalls do not
     * decide the test. This is the one sweep of this scenario: its steps are checked here from the
     * sweep's files, as the engine's SweepTest once checked them on a sweep of its own. It is also
     * the sweep without a warm-up or live lines (--warmup 0 --no-live: each says so, or says
     * nothing).
     */
    @Tag("timing")
    @Test
    void aDelayedServersKneeAndTheSweepDirectory() throws Exception {
        try (MemcacheTargetServer target = MemcacheTargetServer.start(
                TargetOptions.builder().responseDelay(Duration.ofMillis(2)).build())) {
            Path out = tmp.resolve("sweep");
            CliRun run = CliRun.of("sweep", "-s", "127.0.0.1:" + target.address().getPort(), "-c", "10", "--keyspace", "100",
                    "--from", "250", "--factor", "6", "--to", "50000", "--window", "2s", "--warmup", "0", "--no-live",
                    "--slo", "p50<20ms", "--refine", "1", "--out", out.toString());
            assertEquals(0, run.exitCode(), run.out() + run.err());
            assertTrue(run.out().contains("\nWarm-up: none (--warmup 0)\n"), run.out());
            assertFalse(run.err().contains("[step "), run.err());
            assertTrue(run.out().contains("Knee: 1,500/s"), run.out());
            assertTrue(run.out().contains("Stopped: at 9,000/s: "), run.out());
            assertTrue(run.out().contains("By rate:"), "the bisection's 5,250 ran after 9,000: the table again by rate");
            for (String f : List.of("sweep.txt", "sweep.json", "sweep.png", "sweep.html")) {
                assertTrue(Files.size(out.resolve(f)) > 0, f);
            }
            JsonNode json = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
            assertEquals(1500, json.get("knee").asInt());
            assertEquals(4, json.get("steps").size());
            JsonNode steps = json.get("steps");
            List<Double> targets = new ArrayList<>();
            steps.forEach(step -> targets.add(step.get("target").asDouble()));
            assertEquals(List.of(250.0, 1500.0, 9000.0, 5250.0), targets, steps.toString());
            // 250 and 1,500 held (5 % and 30 % of 5,000/s); 9,000 not, capped by the server; the bisection's 5,250 not either
            assertTrue(steps.get(0).get("met").asBoolean() && steps.get(1).get("met").asBoolean(), steps.toString());
            JsonNode bad = steps.get(2);
            assertFalse(bad.get("met").asBoolean(), bad.toString());
            assertFalse(bad.get("reached").asBoolean(), bad.toString());
            assertTrue(bad.get("achieved").asDouble() < 5100, "the server's capacity caps what a step achieves: " + bad);
            assertTrue(steps.get(3).get("refinement").asBoolean() && !steps.get(3).get("met").asBoolean(), steps.get(3).toString());
            assertTrue(json.get("stoppedBecause").asText().startsWith("at 9,000/s: "), json.toString());
            JsonNode good = steps.get(1);
            assertTrue(good.get("p50").asLong() >= 2_000_000, "the delay is in the latency: " + good);
            assertTrue(Math.abs(good.get("achieved").asDouble() - 1500) < 15, "achieved: " + good);
            assertEquals(0, good.get("errors").asLong(), good.toString());
            String table = Files.readString(out.resolve("sweep.txt"));
            assertTrue(table.contains("Knee: 1,500/s"), table);
            assertTrue(table.lines().anyMatch(l -> l.startsWith("3 ") && l.contains("9,000") && l.contains("no: ")), table);
            BufferedImage png = ImageIO.read(out.resolve("sweep.png").toFile());
            assertNotNull(png, "the PNG decodes");
            assertEquals(960, png.getWidth(), "the plot's frame width (PlotFrame.WIDTH)");
            String html = Files.readString(out.resolve("sweep.html"));
            assertEquals(4 * 3, count(html, "class=\"point\""), "a point per step and series");
            assertTrue(html.contains("<g id=\"knee\" data-target=\"1500\""), "the knee is marked");
            assertTrue(html.contains("data-objective=\"p50&lt;20ms\" data-bound-ms=\"20\""), "the objective's line");
            // each step is a run directory that report reads back
            for (String step : List.of("step-01-250", "step-02-1500", "step-03-9000", "step-04-5250")) {
                Path dir = out.resolve(step);
                assertTrue(Files.isRegularFile(dir.resolve("result.json")), step);
                CliRun report = CliRun.of("report", dir.toString());
                assertEquals(0, report.exitCode(), report.err());
                assertEquals(Files.readString(dir.resolve("report.txt")), report.out(), step + ": report made again");
            }
            JsonNode second = new ObjectMapper().readTree(out.resolve("step-02-1500/result.json").toFile());
            assertTrue(second.toString().contains("1500"), "the step's config has its rate");
        }
    }

    /**
     * A sweep's HTML plot in headless Chromium: its script draws a point per step and series, the
     * knee's mark and the objective's line, and the p99 series' orange is on screen. The steps are
     * the delayed server's sweep's as it measured them (written by the sweep's own SweepFiles): the
     * page's drawing does not depend on how the figures were measured, so this needs no timed sweep,
     * and a sweep's own sweep.html is checked above.
     */
    @Test
    void theSweepPlotRendersInHeadlessChromium() throws Exception {
        assumeTrue(Chromium.installed(), "chromium is not installed");
        List<SweepStep> steps = List.of(
                step(1, false, 250, 250, 2_363_000, 4_375_000, true, "2.363 ms"),
                step(2, false, 1500, 1491, 2_179_000, 17_744_000, true, "2.179 ms"),
                step(3, false, 9000, 3858, 673_710_000, 1_315_963_000, false, "673.71 ms"),
                step(4, true, 5250, 4130, 264_765_000, 486_277_000, false, "264.765 ms"));
        SweepResult result = new SweepResult(steps, List.of("p50<20ms"), "at 9,000/s: p50<20ms broken (673.71 ms)",
                false, false);
        Path out = tmp.resolve("plot");
        SweepFiles.write(out, result, SloStepObjective.of(Objectives.parse(List.of("p50<20ms"))), "fluxperf sweep: plot");
        Chromium chromium = new Chromium(tmp);
        Path html = out.resolve("sweep.html");
        String dom = chromium.dumpDom(html);
        assertEquals(steps.size() * 3, count(dom, "class=\"point\""), "a point per step and series in the rendered DOM");
        assertTrue(dom.contains("<g id=\"knee\" data-target=\"1500\""), "the knee is marked");
        assertTrue(dom.contains("data-objective=\"p50&lt;20ms\""), "the objective's line");
        // left for a person to look at
        BufferedImage img = chromium.screenshot(html, Path.of("target", "sweep-chromium.png"), 1000, 800);
        int p99 = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y) & 0xffffff;
                if (Math.abs(((rgb >> 16) & 255) - 0xff) <= 8 && Math.abs(((rgb >> 8) & 255) - 0x7f) <= 8
                        && Math.abs((rgb & 255) - 0x0e) <= 8) {
                    p99++; // the p99 series' orange
                }
            }
        }
        assertTrue(p99 > 30, "the p99 points (and line) are on screen: " + p99 + " pixels");
    }

    private static SweepStep step(int number, boolean refinement, double target, double achieved, long p50, long p99,
                                  boolean met, String measured) {
        return new SweepStep(number, refinement, false, target, achieved, p50, p99, p99 + p99 / 10, Math.round(achieved * 2), 0,
                0, met, met ? null : "achieved below the target",
                List.of(new SweepStep.Judgement("p50<20ms", met, measured)));
    }

    /**
     * The sweep: real memcached from 10,000/s with p99 < 1 ms, windows of 2 s (in 1 s, one
     * 10 ms stall of a shared machine is 1 % of the requests: the p99 of a stall, not of the server),
     * bounded by --to; by a factor of 2 rather than the 1.5, and a warm-up of 0.5 s before each
     * step rather than 1 s, so that it takes a few steps fewer (the bisection still refines the knee).
     * It stops by itself and names a knee. (A plot's rendering in Chromium is checked apart, on
     * figures that always have a knee to mark.)
     */
    @Tag("timing")
    @Test
    void aSweepAgainstMemcachedStopsByItselfAndNamesAKnee() throws Exception {
        Path out = tmp.resolve("mc");
        CliRun run = CliRun.of("sweep", "-s", memcached.address(), "--hit", "--keyspace", "1000", "-c", "8",
                "--from", "10000", "--factor", "2", "--to", "400000", "--window", "2s", "--warmup", "500ms",
                "--slo", "p99<1ms", "--refine", "2", "--out", out.toString());
        assertEquals(0, run.exitCode(), run.out() + run.err());
        String text = run.out();
        assertTrue(text.contains("Stopped: at "), "stopped by itself below --to: " + text);
        BufferedImage png = ImageIO.read(out.resolve("sweep.png").toFile());
        assertNotNull(png, "the PNG decodes");
        // a shared host's stall of tens of ms breaks p99<1ms at any rate: the sweep then tries its first
        // rate once more (step 2a) and, broken again, ends without a knee; the test then gives up on this
        // host (a second sweep cost the loaded suite 8 s and in CI never found a knee where one had not)
        if (text.contains("Knee: none")) {
            assertTrue(text.contains("Stopped: at 10,000/s: p99<1ms broken"), "no knee only when the first rate broke it: " + text);
            assertFalse(Files.readString(out.resolve("sweep.html")).contains("<g id=\"knee\""), "no knee, none marked");
            abort("this host did not hold p99<1ms even at 10,000/s, tried twice: " + text);
        }
        Matcher knee = Pattern.compile("Knee: ([0-9,]+)/s").matcher(text);
        assertTrue(knee.find(), "a knee is named: " + text);
        JsonNode json = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertTrue(json.get("steps").size() >= 2, text);
        assertEquals(Long.parseLong(knee.group(1).replace(",", "")), json.get("knee").asLong(), text);
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
