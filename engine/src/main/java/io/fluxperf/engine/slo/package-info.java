/**
 * Service-level objectives: pass/fail verdicts for CI. {@link Objective} is one parsed expression
 * ({@code p99<2ms}, {@code get.p999<=10ms}, {@code success>=99.9%}, {@code rate>=49500}), made by
 * {@link Objectives} from {@code --slo} flags or a config's {@code [[slo]]} tables. {@link Evaluator}
 * checks objectives against {@link SloFigures}, the small view of one window's (or the whole run's)
 * figures ({@link ResultFigures} over a window, live or read back from a run directory), so that
 * a run and {@code report DIR --slo} are judged by the same code. {@link SloVerdicts} keeps every verdict of a run and
 * shows them as text, JSON and JUnit XML ({@link JunitXml}).
 */
package io.fluxperf.engine.slo;
