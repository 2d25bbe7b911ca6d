package io.fluxperf.engine.slo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.slo.Objective.Comparison;
import io.fluxperf.engine.slo.Objective.Measure;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The objectives' grammar: what parses into what, and one sentence naming the expression for what does not. */
class ObjectivesTest {
    private static Objective one(String expression) {
        return Objectives.parse(List.of(expression)).get(0);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // expression        | workload | measure    | percentile | comparison | threshold   | canonical
        "p99<2ms             |          | PERCENTILE | 99         | LESS       | 2000000     | p99<2ms",
        "p999<=10ms          |          | PERCENTILE | 99.9       | AT_MOST    | 10000000    | p999<=10ms",
        "p50<500us           |          | PERCENTILE | 50         | LESS       | 500000      | p50<500us",
        "p9999 < 1.5 s       |          | PERCENTILE | 99.99      | LESS       | 1500000000  | p9999<1.5s",
        "p99.5<750µs         |          | PERCENTILE | 99.5       | LESS       | 750000      | p99.5<750µs",
        "p90>=100ns          |          | PERCENTILE | 90         | AT_LEAST   | 100         | p90>=100ns",
        "p100<1s             |          | PERCENTILE | 100        | LESS       | 1000000000  | p100<1s",
        "max<=20ms           |          | MAX        | 0          | AT_MOST    | 20000000    | max<=20ms",
        "mean<1ms            |          | MEAN       | 0          | LESS       | 1000000     | mean<1ms",
        "success>=99.9%      |          | SUCCESS    | 0          | AT_LEAST   | 99.9        | success>=99.9%",
        "errors<=0.1%        |          | ERRORS     | 0          | AT_MOST    | 0.1         | errors<=0.1%",
        "hitrate>90%         |          | HITRATE    | 0          | MORE       | 90          | hitrate>90%",
        "rate>=49500         |          | RATE       | 0          | AT_LEAST   | 49500       | rate>=49500",
        "rate>=49500/s       |          | RATE       | 0          | AT_LEAST   | 49500       | rate>=49500/s",
        "get.p99<1ms         | get      | PERCENTILE | 99         | LESS       | 1000000     | get.p99<1ms",
        "get.p99.9<1ms       | get      | PERCENTILE | 99.9       | LESS       | 1000000     | get.p99.9<1ms",
        "set.rate>=100       | set      | RATE       | 0          | AT_LEAST   | 100         | set.rate>=100",
        "cache.get.success>=99% | cache.get | SUCCESS | 0        | AT_LEAST   | 99          | cache.get.success>=99%",
    })
    void parses(String expression, String workload, Measure measure, double percentile, Comparison comparison,
                double threshold, String canonical) {
        Objective o = one(expression);
        assertEquals(workload, o.workload(), expression);
        assertEquals(measure, o.measure(), expression);
        assertEquals(percentile, o.percentile(), 1e-9, expression);
        assertEquals(comparison, o.comparison(), expression);
        assertEquals(threshold, o.threshold(), 1e-6, expression);
        assertEquals(canonical, o.text());
        assertEquals("--slo '" + expression + "'", o.origin());
        assertFalse(o.abort());
    }

    @Test
    void comparisonsHoldAsWritten() {
        assertTrue(one("p99<2ms").holds(1_999_999));
        assertFalse(one("p99<2ms").holds(2_000_000));
        assertTrue(one("p99<=2ms").holds(2_000_000));
        assertTrue(one("rate>=100").holds(100));
        assertFalse(one("rate>100").holds(100));
        assertFalse(one("rate>=0").holds(Double.NaN), "nothing measured never holds");
    }

    @Test
    void shortPercentileNamesReadBack() {
        assertEquals("p999", Objective.percentileName(99.9));
        assertEquals("p9999", Objective.percentileName(99.99));
        assertEquals("p99", Objective.percentileName(99));
        assertEquals("p99.5", Objective.percentileName(99.5));
        assertEquals("p50", Objective.percentileName(50));
        assertEquals("p999", one("p99.9<1ms").measureName());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "p99<<2ms      | expected a number after '<', as in p99<2ms, success>=99.9% or rate>=49500",
        "p99           | expected a comparison (<, <=, > or >=), as in p99<2ms, success>=99.9% or rate>=49500",
        "p99=2ms       | '=' is no comparison; expected <, <=, > or >=, as in p99<2ms, success>=99.9% or rate>=49500",
        "p99<          | expected a number after '<', as in p99<2ms, success>=99.9% or rate>=49500",
        "<2ms          | expected a measure before '<', as in p99<2ms, success>=99.9% or rate>=49500",
        "p99<2         | p99 is a latency: give '2' a unit (ns, us, ms or s), as in p99<2ms",
        "p99<2xs       | unknown unit 'xs'; expected ns, us, ms or s",
        "p99<fast      | expected a number after the comparison, not 'fast', as in p99<2ms, success>=99.9% or rate>=49500",
        "latency<2ms   | unknown measure 'latency'; expected pNN (p50, p99, p999), max, mean, success, errors, hitrate or rate",
        "get.p99x<2ms  | unknown measure 'p99x'; expected pNN (p50, p99, p999), max, mean, success, errors, hitrate or rate",
        ".p99<2ms      | expected a workload name before '.'",
        "p0<2ms        | p0: a percentile is above 0 and at most 100 (p50, p99, p999, p100)",
        "p101<2ms      | p101: write a percentile as p50, p99, p999 (for 99.9) or p99.5",
        "p100.5<2ms    | p100.5: a percentile is above 0 and at most 100 (p50, p99, p999, p100)",
        "success>=99.9 | success is a percentage: write '99.9%'",
        "success>=99ms | success is a percentage: write '99%', not '99ms'",
        "errors<=150%  | a percentage is at most 100, not 150",
        "rate>=5ms     | rate is requests per second: write a number, as in rate>=49500, not '5ms'",
        "rate>=-5      | expected a number after the comparison, not '-5', as in p99<2ms, success>=99.9% or rate>=49500",
    })
    void malformedExpressionsAreOneSentenceNamingThem(String expression, String problem) {
        UserError e = assertThrows(UserError.class, () -> one(expression));
        assertEquals("--slo '" + expression + "': " + problem, e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        assertEquals(problem, Objectives.problem(expression));
    }

    @Test
    void anEmptyExpressionIsNamedToo() {
        assertEquals("--slo '': expected an objective, as in p99<2ms, success>=99.9% or rate>=49500",
                assertThrows(UserError.class, () -> one("")).getMessage());
        assertNull(Objectives.problem("p99<2ms"));
    }

    @Test
    void aWorkloadGivenApartIsTheObjectivesWorkload() {
        Objective o = Objectives.parse("p99<2ms", "get", "ci.toml: slo[0].workload (line 3)");
        assertEquals("get", o.workload());
        assertEquals("get.p99<2ms", o.text());
        assertEquals("ci.toml: slo[0].workload (line 3): names workload 'set' and the table names 'get'; give it once",
                assertThrows(UserError.class, () -> Objectives.parse("set.p99<2ms", "get", "ci.toml: slo[0].workload (line 3)"))
                        .getMessage());
    }

    @Test
    void valuesReadAsPeopleReadThem() {
        assertEquals("1.25 ms", one("p99<2ms").format(1_250_000));
        assertEquals("850 us", one("p99<2ms").format(850_000));
        assertEquals("99.95 %", one("success>=99%").format(99.95));
        assertEquals("49,512/s", one("rate>=1").format(49_512.4));
        assertEquals("no requests", one("p99<2ms").format(Double.NaN));
    }
}
