/**
 * The command line: picocli commands over the engine and replay, and the only {@code main}
 * ({@link Main}). {@link RunCommand}, {@link ReplayCommand}, {@link ServeCommand} and
 * {@link McbCommand} each turn their flags into the engine's settings (run, replay and sweep make
 * the options of the engine's settings from {@code Settings} through {@code SettingOptions};
 * {@code ConnectionFlags} gives run and replay the same protocol flags) and hand
 * the work to {@code RunOrchestrator}, {@code Replay} or an embedded target; they measure nothing
 * themselves. Run and replay also choose the host policy: the fuller one only when {@code main}
 * owns the JVM, never in a test's. The trace commands are in {@code .trace}, mcb's terms in
 * {@code .mcb}. {@link Main} keeps the rule for mistakes: a user's error is one sentence on the
 * error stream and exit status 2, never a stack trace or a Java class; {@code Interrupts} makes a
 * first Ctrl-C stop the run with its report and a second one exit at once. Commands print through
 * {@link Streams} so that tests can capture them, and know protocols only through the registry.
 */
package io.fluxperf.cli;
