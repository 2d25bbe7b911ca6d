package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Rate ramps and the admin address in a config: [workload.ratelimit], --ramp, [general] admin, --admin. */
class RampConfigTest {
    @TempDir
    Path dir;

    private RunConfig file(String toml, Consumer<RunSettings> flags) throws IOException {
        Path p = dir.resolve("c.toml");
        Files.writeString(p, toml);
        RunSettings s = new RunSettings();
        s.config = p;
        flags.accept(s);
        return ConfigResolver.resolve(s.toFlags());
    }

    private String error(String toml) {
        return assertThrows(UserError.class, () -> file(toml, s -> { })).getMessage();
    }

    @Test
    void aRampInAWorkloadGivesItsRateAndOneWindowPerStep() throws IOException {
        RunConfig c = file("""
                [[workload]]
                method = "get"
                [workload.ratelimit]
                start = 10000
                end = 40000
                step = 10000
                interval = "2s"
                on_ramp_completion = "mirror"
                """, s -> { });
        assertEquals(10_000, c.workloads().get(0).rate());
        RateRamp r = c.ramps().get(0);
        assertEquals(List.of(10_000.0, 20_000.0, 30_000.0, 40_000.0), r.steps(1));
        assertEquals(RateRamp.Completion.MIRROR, r.completion());
        assertEquals(Duration.ofSeconds(2), c.duration(), "one window per step");
        assertEquals(7, c.windows(), "up four steps and down three");
        RunConfig given = file("""
                [general]
                duration = 10
                [[workload]]
                method = "get"
                [workload.ratelimit]
                start = 100
                end = 300
                step = 100
                interval = 1
                """, s -> { });
        assertEquals(Duration.ofSeconds(10), given.duration(), "a duration given stays");
        assertEquals(1, given.windows());
    }

    @Test
    void aStartAloneIsARate() throws IOException {
        RunConfig c = file("[[workload]]\nmethod = \"get\"\n[workload.ratelimit]\nstart = 700\n", s -> { });
        assertEquals(700, c.workloads().get(0).rate());
        assertTrue(c.ramps().isEmpty() || c.ramps().get(0) == null);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "start = 10\\nend = 20                              | workload[0].ratelimit (line 3): missing step: a ramp needs end, step and interval together",
        "start = 10\\ninterval = 2                          | workload[0].ratelimit (line 3): missing end: a ramp needs end, step and interval together",
        "start = 30\\nend = 20\\nstep = 5\\ninterval = 1     | workload[0].ratelimit.start (line 4): is above end (30 > 20)",
        "end = 20\\nstep = 5\\ninterval = 1                 | workload[0].ratelimit (line 3): missing start: the rate (requests/s) to begin with",
        "start = 1\\nend = 2\\nstep = 1\\ninterval = 1\\nramp = \"zigzag\" | workload[0].ratelimit.ramp (line 8): expected one of [linear, shuffled], not 'zigzag'",
        "start = 1\\nend = 2\\nstep = 1\\ninterval = 1\\non_ramp_completion = \"bounce\" | workload[0].ratelimit.on_ramp_completion (line 8): expected one of [stable, loop, mirror], not 'bounce'",
        "start = 1\\nramp = \"linear\"                      | workload[0].ratelimit.ramp (line 5): a ramp needs end, step and interval too",
        "start = 1\\nstep_size = 1                        | workload[0].ratelimit.step_size (line 5): unknown key; expected one of start, end, step, interval, ramp, on_ramp_completion",
    })
    void rpcPerfsRulesWithTheLine(String table, String message) {
        String e = error("[[workload]]\nmethod = \"get\"\n[workload.ratelimit]\n" + table.replace("\\n", "\n") + "\n");
        assertTrue(e.endsWith(message), e);
        assertEquals(1, e.lines().count(), e);
    }

    @Test
    void rateAndRatelimitTogetherAreOneSentence() {
        String e = error("[[workload]]\nmethod = \"get\"\nrate = 5\n[workload.ratelimit]\nstart = 10\n");
        assertTrue(e.contains("workload[0].rate (line 3): and ratelimit.start both set the rate; keep one"), e);
    }

    @Test
    void theRampFlagStepsTheRunsRate() {
        RunSettings s = new RunSettings();
        s.ramp = "1000:3000:1000:500ms";
        RunConfig c = ConfigResolver.resolve(s.toFlags());
        assertEquals(1000, c.workloads().get(0).rate());
        assertEquals(List.of(1000.0, 2000.0, 3000.0), c.ramps().get(0).steps(0));
        assertEquals(Duration.ofMillis(500), c.duration());
        assertEquals(3, c.windows());
        for (String[] bad : new String[][] {
            {"1000:3000:1000", "--ramp: expected START:END:STEP:INTERVAL"},
            {"3000:1000:1000:1", "--ramp: start (3000) is above end (1000)"},
            {"a:3000:1000:1", "--ramp: START must be a number of requests per second, not 'a'"},
            {"1000:3000:0:1", "--ramp: step must be above 0, not 0"},
            {"1000:3000:1000:0", "--ramp: interval must be above 0"},
        }) {
            RunSettings b = new RunSettings();
            b.ramp = bad[0];
            String e = assertThrows(UserError.class, () -> ConfigResolver.resolve(b.toFlags())).getMessage();
            assertTrue(e.startsWith(bad[1]), bad[0] + ": " + e);
        }
        RunSettings both = new RunSettings();
        both.ramp = "1:2:1:1";
        both.rate = "5";
        assertTrue(assertThrows(UserError.class, () -> ConfigResolver.resolve(both.toFlags())).getMessage()
                .startsWith("--ramp: sets the rate from its START; drop --rate"));
    }

    @Test
    void theRampFlagSharesTheRunsRateAmongFileWorkloads() throws IOException {
        RunConfig c = file("[[workload]]\nmethod = \"get\"\nrate = 300\n[[workload]]\nmethod = \"set\"\nrate = 100\n",
                s -> s.ramp = "4000:8000:4000:1s");
        assertEquals(3000, c.ramps().get(0).start(), 1e-9);
        assertEquals(1000, c.ramps().get(1).start(), 1e-9);
        assertEquals(6000, c.ramps().get(0).end(), 1e-9);
    }

    @Test
    void adminIsLoopbackPortOrAddressAndPort() throws IOException {
        assertEquals("9090", file("[general]\nadmin = \"9090\"\n", s -> { }).admin());
        assertEquals("0.0.0.0:0", file("[general]\nadmin = \"127.0.0.1:1\"\n", s -> s.admin = "0.0.0.0:0").admin());
        assertNull(ConfigResolver.resolve(new RunSettings().toFlags()).admin());
        assertTrue(error("[general]\nadmin = \"localhost:http\"\n")
                .endsWith("general.admin (line 2): the port must be a number from 0 to 65535, not 'http'"));
        RunSettings bad = new RunSettings();
        bad.admin = "99999";
        assertEquals("--admin: the port must be a number from 0 to 65535, not 99999",
                assertThrows(UserError.class, () -> ConfigResolver.resolve(bad.toFlags())).getMessage());
        assertEquals(new AdminAddress("127.0.0.1", 9), AdminAddress.parse("9"));
        assertEquals(new AdminAddress("::1", 9), AdminAddress.parse("[::1]:9"));
    }

    @Test
    void stepsOfEachEnding() {
        RateRamp r = new RateRamp(1, 3, 1, Duration.ofSeconds(1), RateRamp.Ramp.LINEAR, RateRamp.Completion.MIRROR);
        List<Double> pass = r.steps(0);
        double[] mirror = {1, 2, 3, 2, 1, 2, 3, 2};
        for (int k = 0; k < mirror.length; k++) {
            assertEquals(mirror[k], r.rateOfStep(pass, k), "mirror step " + k);
        }
        RateRamp loop = r.with(RateRamp.Ramp.LINEAR, RateRamp.Completion.LOOP);
        double[] looped = {1, 2, 3, 1, 2, 3};
        for (int k = 0; k < looped.length; k++) {
            assertEquals(looped[k], loop.rateOfStep(pass, k));
        }
        RateRamp stable = r.with(RateRamp.Ramp.SHUFFLED, RateRamp.Completion.STABLE);
        List<Double> shuffled = stable.steps(7);
        assertEquals(List.of(1.0, 2.0, 3.0), shuffled.stream().sorted().toList());
        assertEquals(shuffled, stable.steps(7), "the same seed, the same order");
        assertEquals(shuffled.get(2), stable.rateOfStep(shuffled, 10));
    }

    @Test
    void rpcPerf5sRampIsSharedByTheTranslatedWorkloads() throws IOException {
        String v5 = RpcPerfConfigTest.V5.replace("[workload.ratelimit]\nstart = 5000\n", """
                [workload.ratelimit]
                start = 10000
                end = 20000
                step = 5000
                interval = 3
                ramp = "shuffled"
                on_ramp_completion = "loop"
                """);
        Path p = dir.resolve("v5.toml");
        Files.writeString(p, v5);
        RunSettings s = new RunSettings();
        s.config = p;
        RunConfig c = ConfigResolver.resolve(s.toFlags());
        assertEquals(c.workloads().size(), c.ramps().size());
        double starts = 0;
        double ends = 0;
        List<Double> firstOrder = null;
        for (int w = 0; w < c.workloads().size(); w++) {
            RateRamp r = c.ramps().get(w);
            assertEquals(r.start(), c.workloads().get(w).rate(), 1e-9, "the ramp's start is the rate");
            assertEquals(RateRamp.Ramp.SHUFFLED, r.ramp());
            assertEquals(RateRamp.Completion.LOOP, r.completion());
            assertEquals(Duration.ofSeconds(3), r.interval());
            List<Double> order = r.steps(c.seed()).stream().map(v -> v / r.start()).toList();
            if (firstOrder == null) {
                firstOrder = order;
            }
            assertEquals(firstOrder, order, "every workload steps in the same order");
            starts += r.start();
            ends += r.end();
        }
        assertEquals(10_000, starts, 1e-6);
        assertEquals(20_000, ends, 1e-6);
        assertEquals("127.0.0.1:9090", c.admin());
        String converted = ConfigResolver.convert(p, null);
        assertTrue(converted.contains("ratelimit = { start = "), converted);
        assertTrue(converted.contains("admin = \"127.0.0.1:9090\""), converted);
    }
}
