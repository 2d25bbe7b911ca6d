package io.fluxperf.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Settings every benchmark of this module inherits (JMH reads these annotations from the
 * superclass): average time per operation in ns, one fork, and the fork's JVM flags.
 *
 * <p>JMH starts its forks with {@code -cp}, so the {@code Add-Opens}/{@code Add-Exports} of the
 * jar's manifest do not reach them: Chronicle Queue's flags are passed here. The Netty flags are
 * those {@code fluxperf} itself runs with (see {@code io.fluxperf.cli.Main}): no leak detector and
 * no per-access buffer checks, so that the numbers are those of a real run. The heap is fixed so
 * that GC sizing does not move between runs. Flags given on the command line ({@code -jvmArgs})
 * come before these.
 *
 * <p>Run everything: {@code java -jar bench/jmh/target/benchmarks.jar -prof gc}; the quick pass
 * used for the README's table: {@code … -f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "-Dchronicle.analytics.disable=true",
        "-Dchronicle.announcer.disable=true",
        "-Dchronicle.disk.monitor.disable=true",
        "-Dorg.slf4j.simpleLogger.log.net.openhft=warn",
        "-Dio.netty.leakDetection.level=disabled",
        "-Dio.netty.buffer.checkAccessible=false",
        "-Dio.netty.buffer.checkBounds=false",
        "-Xms1g",
        "-Xmx1g"})
public abstract class HotPathBenchmark {
}
