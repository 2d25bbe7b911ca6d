package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command on a bare machine (no JDK, no Maven): the launcher installs what the
 * build needs, builds, and runs. Played in a sandbox whose PATH holds the shell's tools and stand-ins
 * for the package manager, Maven and java, which record what they were asked to do.
 */
class LauncherTest {
    @TempDir
    Path dir;

    private static Path repoFile(String relative) {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve(relative))) {
                return p.resolve(relative);
            }
        }
        throw new IllegalStateException("no " + relative + " above " + Path.of("").toAbsolutePath());
    }

    private void script(Path bin, String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void onABareMachineTheLauncherInstallsAJdkAndMavenThenBuildsAndRuns() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo/scripts"));
        Files.copy(repoFile("fluxperf"), dir.resolve("repo/fluxperf"));
        Files.copy(repoFile("scripts/install-deps.sh"), repo.resolve("install-deps.sh"));
        Files.setPosixFilePermissions(dir.resolve("repo/fluxperf"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(repo.resolve("install-deps.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String tool : List.of("bash", "env", "find", "cat", "touch", "rm", "dirname", "mkdir", "chmod", "id", "cp")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool).toRealPath());
        }
        Path log = dir.resolve("calls.log");
        // apt-get "installs" Maven and a JDK: their stand-ins appear on the PATH
        script(bin, "apt-get", "echo \"apt-get $*\" >> " + log + "\n"
                + "if [ \"$1\" = install ]; then\n"
                + "  printf '#!/bin/bash\\necho \"mvn $*\" >> " + log + "\\nmkdir -p cli/target && echo jar > cli/target/fluxperf.jar\\n' > "
                + bin.resolve("mvn") + "\n"
                + "  printf '#!/bin/bash\\necho \"javac $*\" >> " + log + "\\n' > " + bin.resolve("javac") + "\n"
                + "  chmod +x " + bin.resolve("mvn") + " " + bin.resolve("javac") + "\n"
                + "fi");
        script(bin, "java", "echo \"java $*\" >> " + log + "\necho \"ran: $*\"");

        ProcessBuilder launcher = new ProcessBuilder(dir.resolve("repo/fluxperf").toString(), "--version")
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).directory(dir.toFile());
        launcher.environment().put("PATH", bin.toString()); // no JDK, no Maven: a bare machine
        Process p = launcher.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher finished");
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        String calls = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out + "\n" + calls);
        assertTrue(calls.contains("apt-get install") && calls.contains("openjdk-17-jdk-headless")
                && calls.contains("maven"), "it installed a JDK and Maven:\n" + calls);
        assertTrue(!calls.contains("memcached") && !calls.contains("chromium"), "and only what the build needs:\n" + calls);
        assertTrue(calls.contains("mvn -q -B -DskipTests package"), "then built the jar:\n" + calls);
        assertTrue(calls.lines().anyMatch(l -> l.startsWith("java") && l.endsWith("cli/target/fluxperf.jar --version")),
                "and ran the command:\n" + calls);
        assertTrue(out.contains("ran: ") && out.contains("--version"), out);
        assertTrue(lastJava(calls).contains("-XX:+UseShenandoahGC") && lastJava(calls).contains("-XX:TrimNativeHeapInterval=1000")
                        && lastJava(calls).contains("-XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0"),
                "with the launcher's collector, native-heap trim and no clean-up safepoints:\n" + calls);
        assertTrue(calls.lines().anyMatch(l -> l.contains("-XX:ArchiveClassesAtExit=")
                        && l.contains(" run --requests 2000 -c 2 --no-live --out ")),
                "its class-data archive trained on a run that writes a run directory:\n" + calls);

        // a collector of the user's own replaces the launcher's: the JVM refuses two
        launcher.environment().put("FLUXPERF_JAVA_OPTS", "-Xmx64m -XX:+UseParallelGC");
        Process again = launcher.start();
        assertTrue(again.waitFor(60, TimeUnit.SECONDS), "the launcher finished");
        String last = lastJava(Files.readString(log, StandardCharsets.UTF_8));
        assertTrue(last.contains("-XX:+UseParallelGC") && last.contains("-Xmx64m") && !last.contains("Shenandoah")
                && last.contains("-XX:TrimNativeHeapInterval=1000"), last);
    }

    private static String lastJava(String calls) {
        return calls.lines().filter(l -> l.startsWith("java") && l.endsWith("--version")).reduce((a, b) -> b).orElse("");
    }
}
