package io.fluxperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/lib/common.sh's cds_opts_for: compare.sh runs copies of the jars, which the launcher's
 * class-data archive does not fit, so each gets its own, made by the launcher's training run.
 */
class CdsOptsScriptTest {
    @TempDir
    Path dir;

    /** stdout, then stderr, of {@code cds_opts_for jar ""} with {@code env} added. */
    private List<String> cdsOptsFor(Path jar, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "source \"$0\" && cds_opts_for \"$1\" \"\"",
                RepoFiles.find("bench/lib/common.sh").toString(), jar.toString());
        pb.environment().putAll(env);
        Path err = dir.resolve("stderr");
        Process p = pb.redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the script ends");
        assertEquals(0, p.exitValue());
        return List.of(out, Files.readString(err).strip());
    }

    /** A jar whose main class ends at once, as a short training run does. */
    private Path runnableJar() throws Exception {
        Path src = dir.resolve("Training.java");
        Files.writeString(src, "public class Training { public static void main(String[] a) { "
                + "if (!a[0].equals(\"run\")) System.exit(1); } }");
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "--release", "17", "-d", dir.toString(), src.toString()));
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Training");
        Path jar = dir.resolve("fluxperf.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.putNextEntry(new JarEntry("Training.class"));
            out.write(Files.readAllBytes(dir.resolve("Training.class")));
            out.closeEntry();
        }
        return jar;
    }

    @Test
    void aJarThatRunsGetsAnArchiveOfItsOwn() throws Exception {
        Path jar = runnableJar();
        List<String> r = cdsOptsFor(jar, Map.of());
        Path jsa = dir.resolve("fluxperf.jsa");
        assertEquals("-XX:SharedArchiveFile=" + jsa + " -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off", r.get(0));
        assertTrue(Files.size(jsa) > 0, "the archive is made beside the jar");
        assertFalse(Files.exists(dir.resolve("fluxperf-cds-run")), "the training run's directory is removed");
    }

    @Test
    void aJarThatCannotRunIsMeasuredWithoutOneAndSaysSo() throws Exception {
        Path jar = dir.resolve("broken.jar");
        try (OutputStream out = Files.newOutputStream(jar)) {
            out.write("not a jar".getBytes(StandardCharsets.UTF_8));
        }
        List<String> r = cdsOptsFor(jar, Map.of());
        assertEquals("", r.get(0));
        assertTrue(r.get(1).contains("no class-data archive could be made for " + jar), r.get(1));
        assertFalse(Files.exists(dir.resolve("broken.jsa")));
    }

    @Test
    void cdsZeroMakesNone() throws Exception {
        Path jar = runnableJar();
        assertEquals(List.of("", ""), cdsOptsFor(jar, Map.of("CDS", "0")));
        assertFalse(Files.exists(dir.resolve("fluxperf.jsa")));
    }
}
