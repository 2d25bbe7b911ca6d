package io.fluxperf.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.cli.Main;
import io.fluxperf.cli.Streams;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every sample config runs as is (shortened to one second) against the embedded target. */
class SamplesTest {
    /** The samples directory: this module's directory when Maven runs the test. */
    static Path samplesDir() {
        Path here = Path.of("").toAbsolutePath();
        for (Path p = here; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("default.toml"))) {
                return p;
            }
            if (Files.isRegularFile(p.resolve("samples/default.toml"))) {
                return p.resolve("samples");
            }
        }
        throw new IllegalStateException("no samples directory above " + here);
    }

    static Stream<Path> configs() throws IOException {
        try (Stream<Path> files = Files.list(samplesDir())) {
            return files.filter(p -> p.toString().endsWith(".toml")).sorted().toList().stream();
        }
    }

    @Test
    void thereAreSamples() throws IOException {
        List<Path> all = configs().toList();
        assertTrue(all.size() >= 3, "samples: " + all);
    }

    @ParameterizedTest
    @MethodSource("configs")
    void runsAsIs(Path config) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // half a second after a short warm-up: what is checked is that the config runs and every request is
        // answered, and a sample's own warm-up (mixed-zipf's is 5 s) would only lengthen the suite
        int code = Main.execute(new String[] {"run", "--config", config.toString(), "--duration", "500ms", "--windows", "1",
                        "--warmup", "300ms", "--no-live"},
                new Streams(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, config + "\n" + text + err.toString(StandardCharsets.UTF_8));
        String total = text.lines().dropWhile(l -> !l.equals("Total:")).filter(l -> l.startsWith("Requests:"))
                .findFirst().orElseThrow();
        String[] w = total.split(" ");
        long requests = Long.parseLong(w[1]);
        long ok = Long.parseLong(w[3]);
        long miss = Long.parseLong(w[5]);
        long error = Long.parseLong(w[7]);
        assertTrue(requests > 0, total);
        assertEquals(0, error, total);
        assertEquals(requests, ok + miss + error + Long.parseLong(w[9]) + Long.parseLong(w[11]), total);
        assertFalse(text.contains("Exception"), text);
    }

    /**
     * The CI sample's [[slo]] tables are checked: each objective is listed with its verdict and
     * value. Its objectives hold only on a machine with room (p99 under 250 ms, 2,500/s), so it
     * runs as a timing test.
     */
    @Test
    @Tag("timing")
    void ciSampleChecksItsObjectives() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path config = samplesDir().resolve("ci-slo.toml");
        int code = Main.execute(new String[] {"run", "--config", config.toString(), "--duration", "1", "--windows", "2", "--no-live"},
                new Streams(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("\nObjectives: 5 of 5 held\n"), text);
        for (String objective : List.of("success>=99.9%", "p99<250ms", "rate>=2500", "get.p999<=1s", "set.errors<=1%")) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith("  PASS  " + objective + " ") && l.contains("run: ")), objective + "\n" + text);
        }
    }
}
