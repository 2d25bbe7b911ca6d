package io.fluxperf.testkit;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;

/**
 * Headless Chromium (Debian's chromium package) for tests of fluxperf's HTML pages: the DOM after
 * the page's scripts ran, and a screenshot. Offline: no network, no first-run or sync traffic.
 */
public final class Chromium {
    public static final Path BINARY = Path.of("/usr/bin/chromium");

    private final Path work;

    /** @param work a scratch directory for the browser's profile and logs */
    public Chromium(Path work) {
        this.work = work;
    }

    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** The page's DOM once its scripts ran (up to 5 s of virtual time). */
    public String dumpDom(Path html) throws IOException, InterruptedException {
        return run(List.of("--virtual-time-budget=5000", "--dump-dom", html.toUri().toString()), "dom");
    }

    /**
     * The same in a window of {@code width} x {@code height}: the layout a screenshot of that size
     * shows, so that positions a page writes into its DOM match the screenshot's pixels.
     */
    public String dumpDom(Path html, int width, int height) throws IOException, InterruptedException {
        return run(List.of("--virtual-time-budget=5000", "--window-size=" + width + "," + height, "--hide-scrollbars", "--dump-dom",
                html.toUri().toString()), "dom");
    }

    /** A screenshot of the page's top {@code width} x {@code height} pixels. */
    public BufferedImage screenshot(Path html, Path png, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.deleteIfExists(png);
        run(List.of("--virtual-time-budget=5000", "--screenshot=" + png.toAbsolutePath(),
                "--window-size=" + width + "," + height, "--hide-scrollbars", html.toUri().toString()), "shot");
        BufferedImage img = ImageIO.read(png.toFile());
        if (img == null) {
            throw new AssertionError("the screenshot " + png + " does not decode");
        }
        return img;
    }

    /** Pixels in the rectangle that are neither white nor near-white (grid lines are light grey). */
    public static int coloured(BufferedImage img, int x0, int y0, int x1, int y1) {
        int n = 0;
        for (int y = Math.max(0, y0); y < Math.min(img.getHeight(), y1); y++) {
            for (int x = Math.max(0, x0); x < Math.min(img.getWidth(), x1); x++) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
                int max = Math.max(r, Math.max(g, b)), min = Math.min(r, Math.min(g, b));
                if (max - min > 60) {
                    n++;
                }
            }
        }
        return n;
    }

    private String run(List<String> args, String name) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + work.resolve("chromium-profile")));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectError(work.resolve(name + ".log").toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 60 s");
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
