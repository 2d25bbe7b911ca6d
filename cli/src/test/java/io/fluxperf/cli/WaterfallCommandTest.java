package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --waterfall FILE.png}: the heatmap drawn at the run's end, and a file that cannot be written named at once. */
class WaterfallCommandTest {
    @TempDir
    Path dir;

    @Test
    void drawsTheMeasuredRequestsAndLeavesNoTraceBehind() throws IOException {
        Path png = dir.resolve("latency.png");
        Set<Path> before = temporaryTraces();
        CliRun run = CliRun.of("run", "--method", "get", "--rate", "2000", "-d", "1", "--warmup", "0.5", "--waterfall",
                png.toString(), "--no-live");
        assertEquals(0, run.exitCode(), run.out() + run.err());
        long requests = CliRun.field(run.line("Requests:"), "Requests:");
        assertEquals("Waterfall: " + png + " (" + requests + " requests, latency heatmap of the measured run)",
                run.line("Waterfall:"), "the warm-up's requests are left out");
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1200, image.getWidth());
        assertTrue(run.out().lines().noneMatch(l -> l.startsWith("Trace:")), "no --trace: no trace line");
        assertEquals(before, temporaryTraces(), "the temporary trace is deleted");
    }

    private static Set<Path> temporaryTraces() throws IOException {
        try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.filter(p -> p.getFileName().toString().startsWith("fluxperf-waterfall")).collect(Collectors.toSet());
        }
    }

    @Test
    void anUnwritablePlaceIsOneSentenceBeforeTheRun() {
        Path missing = dir.resolve("no/such/dir/x.png");
        CliRun run = CliRun.of("run", "--method", "get", "--requests", "10", "--waterfall", missing.toString(), "--no-live");
        assertEquals(2, run.exitCode(), run.err());
        assertEquals("fluxperf: --waterfall: cannot write " + missing + ": no such directory " + missing.getParent() + "\n",
                run.err());
        assertEquals("", run.out());
    }
}
