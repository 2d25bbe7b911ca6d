package io.fluxperf.engine.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.ConfigResolver;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.RunSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** [[slo]] tables in a config file, with --slo and --slo-abort over them, and their mistakes named with the line. */
class SloConfigTest {
    private static final String WORKLOADS = """
            [[workload]]
            method = "get"
            rate = 1000

            [[workload]]
            method = "set"
            rate = 100
            """;

    @TempDir
    Path dir;

    private RunConfig resolve(String toml, Consumer<RunSettings> flags) throws IOException {
        Path file = dir.resolve("ci.toml");
        Files.writeString(file, toml, StandardCharsets.UTF_8);
        RunSettings s = new RunSettings();
        s.config = file;
        flags.accept(s);
        return ConfigResolver.resolve(s.toFlags());
    }

    private String error(String toml) {
        return assertThrows(UserError.class, () -> resolve(toml, s -> { })).getMessage()
                .replace(dir.resolve("ci.toml").toString(), "ci.toml");
    }

    @Test
    void tablesAndFlagsMakeTheObjectives() throws IOException {
        RunConfig c = resolve(WORKLOADS + """

                [[slo]]
                objective = "p99<2ms"

                [[slo]]
                objective = "p999 <= 10ms"
                workload = "get"
                abort = true
                """, s -> s.slo = List.of("success>=99.9%"));
        List<Objective> o = c.objectives();
        assertEquals(List.of("p99<2ms", "get.p999<=10ms", "success>=99.9%"), o.stream().map(Objective::text).toList());
        assertEquals(List.of(false, true, false), o.stream().map(Objective::abort).toList());
        assertEquals(dir.resolve("ci.toml") + ": slo[1].workload (line 14)", o.get(1).origin());
        assertEquals("--slo 'success>=99.9%'", o.get(2).origin());

        RunConfig aborting = resolve(WORKLOADS + "\n[[slo]]\nobjective = \"rate>=900\"\n", s -> s.sloAbort = true);
        assertTrue(aborting.objectives().get(0).abort(), "--slo-abort: every objective stops the run");
        assertTrue(resolve(WORKLOADS, s -> { }).objectives().isEmpty());
    }

    @Test
    void mistakesInTablesNameTheKeyAndLine() {
        assertEquals("ci.toml: slo[0].objectiv (line 10): unknown key; did you mean objective?",
                error(WORKLOADS + "\n[[slo]]\nobjectiv = \"p99<2ms\"\n"));
        assertEquals("ci.toml: slo[0].limit (line 11): unknown key; expected one of objective, workload, abort, strict",
                error(WORKLOADS + "\n[[slo]]\nobjective = \"p99<2ms\"\nlimit = 3\n"));
        assertEquals("ci.toml: slo[1].objective (line 12): 'p99<<2ms': expected a number after '<', as in p99<2ms,"
                        + " success>=99.9% or rate>=49500",
                error(WORKLOADS + "\n[[slo]]\nobjective = \"p99<2ms\"\n[[slo]]\nobjective = \"p99<<2ms\"\n"));
        assertEquals("ci.toml: slo[0] (line 9): missing objective; write objective = \"p99<2ms\"",
                error(WORKLOADS + "\n[[slo]]\nworkload = \"get\"\n"));
        assertEquals("ci.toml: slo (line 9): expected an array of tables; write [[slo]] (double brackets), not [slo]",
                error(WORKLOADS + "\n[slo]\nobjective = \"p99<2ms\"\n"));
        assertTrue(error(WORKLOADS + "\n[[slo]]\nobjective = \"p99<2ms\"\nabort = \"yes\"\n")
                .startsWith("ci.toml: slo[0].abort (line 11): "));
        assertEquals("ci.toml: slo[0].objective (line 10): 'get.p99<2ms' names workload 'get' and the table names 'set';"
                        + " give it once",
                error(WORKLOADS + "\n[[slo]]\nobjective = \"get.p99<2ms\"\nworkload = \"set\"\n"));
    }

    @Test
    void anObjectiveOfAWorkloadTheRunDoesNotHaveIsNamedWithItsLine() {
        assertEquals("ci.toml: slo[0].workload (line 11): the run has no workload 'gets'; its workloads are get, set",
                error(WORKLOADS + "\n[[slo]]\nobjective = \"p99<2ms\"\nworkload = \"gets\"\n"));
        assertEquals("--slo 'sets.rate>=1': the run has no workload 'sets'; its workloads are get, set",
                assertThrows(UserError.class, () -> resolve(WORKLOADS, s -> s.slo = List.of("sets.rate>=1"))).getMessage());
    }

    @Test
    void abortWithoutObjectivesIsAMistake() {
        UserError e = assertThrows(UserError.class, () -> resolve(WORKLOADS, s -> s.sloAbort = true));
        assertEquals("--slo-abort: stops the run when an objective fails, and there is no --slo or [[slo]]", e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
