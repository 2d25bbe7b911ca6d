package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's entry point, docker/entrypoint.sh, run outside a container as a pod runs it: the
 * Indexed Job's environment reaches fluxperf, the exit code comes back, and a pod that keeps its
 * results waits for them to be copied. {@code JAVA} points at a launcher that runs this build's
 * fluxperf (the shaded jar is made after the tests) and records the options the script gave java.
 */
@ExtendWith(RealServers.class)
class EntrypointTest {
    private static final Path SCRIPT = Path.of("../docker/entrypoint.sh").toAbsolutePath().normalize();

    /** A java that takes the script's options and runs fluxperf's Main from the test classpath in place of -jar. */
    private static Path launcher(Path dir) throws Exception {
        Path log = dir.resolve("java-args.txt");
        Path java = dir.resolve("java");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(java, "#!/bin/sh\n"
                + "echo \"$@\" > '" + log + "'\n"
                + "opts=''\n"
                + "while [ \"$1\" != -jar ]; do opts=\"$opts $1\"; shift; done\n"
                + "shift 2\n" // -jar JAR: this build's classes instead
                + "exec '" + javaBin + "' $opts --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
                + " --add-exports=java.base/sun.nio.ch=ALL-UNNAMED --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED"
                + " -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return java;
    }

    private static Process entrypoint(Path dir, Map<String, String> env, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new java.util.ArrayList<>(List.of(SCRIPT.toString())));
        pb.command().addAll(List.of(args));
        pb.environment().remove(io.fluxperf.engine.shard.Shard.INDEX_ENV);
        pb.environment().put("JAVA", launcher(dir).toString());
        pb.environment().put("FLUXPERF_JAR", "/opt/fluxperf/fluxperf.jar");
        pb.environment().putAll(env);
        return pb.redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
    }

    @Test
    void aPodsEnvironmentMakesItsShardAndItsResultsWaitToBeCopied(MemcachedProcess memcached, @TempDir Path dir)
            throws Exception {
        Path results = dir.resolve("results");
        long started = System.nanoTime();
        Process p = entrypoint(dir, Map.of("JOB_COMPLETION_INDEX", "1", "FLUXPERF_SHARDS", "2",
                        "FLUXPERF_RESULTS", results.toString(), "FLUXPERF_HOLD_SECONDS", "2"),
                "run", "-s", memcached.address(), "--method", "set", "--rate", "1000", "-d", "1",
                "--out", results.toString(), "--run-id", "e2e", "--no-live");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String err = Files.readString(dir.resolve("err.txt"));
        assertEquals(0, p.exitValue(), err + Files.readString(dir.resolve("out.txt")));
        assertTrue((System.nanoTime() - started) / 1e9 >= 2, "held its results for FLUXPERF_HOLD_SECONDS");
        assertTrue(err.startsWith("fluxperf: shard 1 of 2\n"), err);
        assertTrue(err.contains("fluxperf: results ready in " + results + "; copy them with kubectl cp within 2s"), err);
        assertTrue(Files.exists(results.resolve(".fluxperf-done")));
        JsonNode r = new ObjectMapper().readTree(results.resolve("e2e/shard-1/result.json").toFile());
        assertEquals(1, r.get("shard").get("index").asInt());
        assertEquals(2, r.get("shard").get("count").asInt());
        assertEquals(500.0, r.get("config").get("workloads").get(0).get("rate").asDouble(), "half the rate");
        String javaArgs = Files.readString(dir.resolve("java-args.txt"));
        assertTrue(javaArgs.startsWith("-XX:MaxRAMPercentage=75 -XX:+UseShenandoahGC -XX:ShenandoahGCHeuristics=compact"
                + " -Xms16m -XX:TrimNativeHeapInterval=1000 -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0"
                + " -Djava.io.tmpdir=/tmp -Djna.tmpdir=/tmp -jar"
                + " /opt/fluxperf/fluxperf.jar run -s "), javaArgs);
    }

    @Test
    void aFailedRunExitsWithItsCodeAtOnceWithoutHolding(@TempDir Path dir) throws Exception {
        long started = System.nanoTime();
        Process p = entrypoint(dir, Map.of("JOB_COMPLETION_INDEX", "5", "FLUXPERF_SHARDS", "2",
                "FLUXPERF_HOLD_SECONDS", "600"), "run", "--method", "get", "--rate", "100");
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "a failed run does not hold");
        assertEquals(2, p.exitValue(), "the pod's exit code is fluxperf's: the Job's failure policy sees it");
        assertTrue((System.nanoTime() - started) / 1e9 < 60);
        assertTrue(Files.readString(dir.resolve("err.txt")).contains(
                "fluxperf: JOB_COMPLETION_INDEX: the shard index must be between 0 and 1 for 2 shards, not 5"));

        Process bad = entrypoint(dir, Map.of("FLUXPERF_HOLD_SECONDS", "soon"), "--version");
        assertTrue(bad.waitFor(30, TimeUnit.SECONDS));
        assertEquals(2, bad.exitValue());
        assertEquals("fluxperf: FLUXPERF_HOLD_SECONDS must be a whole number of seconds, not 'soon'",
                Files.readString(dir.resolve("err.txt")).strip());

        // a collector of the user's own replaces the image's: the JVM refuses two
        Process own = entrypoint(dir, Map.of("FLUXPERF_JAVA_OPTS", "-XX:+UseSerialGC"), "--version");
        assertTrue(own.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, own.exitValue(), Files.readString(dir.resolve("err.txt")));
        String javaArgs = Files.readString(dir.resolve("java-args.txt"));
        assertTrue(javaArgs.contains("-XX:+UseSerialGC") && !javaArgs.contains("Shenandoah"), javaArgs);
    }
}
