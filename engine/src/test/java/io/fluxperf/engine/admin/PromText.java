package io.fluxperf.engine.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Reads Prometheus' text exposition back, and has Prometheus' own promtool check it. */
final class PromText {
    private PromText() {
    }

    /** Every sample: {@code name{labels}} → value. */
    static Map<String, Double> samples(String text) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return out;
    }

    /** promtool check metrics accepts {@code text} without a single complaint (Debian's prometheus package). */
    static void assertPromtoolAccepts(String text) throws IOException, InterruptedException {
        String promtool = io.fluxperf.testkit.ExternalServer.executable("promtool");
        Process p = new ProcessBuilder(promtool, "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        assertEquals(0, p.exitValue(), "promtool check metrics:\n" + said + "\non:\n" + text);
        assertEquals("", said.strip(), "promtool's complaints:\n" + said);
    }
}
