/**
 * What a run does to the JVM and the machine so that the load loops, and not the client's own
 * housekeeping, set the timing. {@link HostTuning} is the one policy and the class to read: timer
 * slack for the load loops, a fresh start of recording during the warm-up, the rehearsal of a
 * window's end for the JIT, the warm-up's wake-up exercise, an in-process warm-up that lasts until
 * C2 has compiled, lower priorities for the JIT and the run's thread, and CPU courtesy between the
 * steps of a window's bookkeeping. A command picks the policy (the standard one, or the fuller one
 * when its JVM is its own) and {@code LoadRun} applies it at fixed points of the run. The other
 * classes are its primitives: {@link TimerSlack}, {@link HousekeepingPriority}, {@link CpuCourtesy},
 * {@link LinuxThreads} and {@code CompilerWork}, each best effort and
 * harmless where Linux or {@code /proc} is missing. Outside this package only {@code HostTuning}
 * is used, the one exception being the embedded targets, which set their own loops' timer slack;
 * the figures and the reports ({@code engine.metrics}, {@code engine.report}) never touch this
 * package.
 */
package io.fluxperf.engine.host;
