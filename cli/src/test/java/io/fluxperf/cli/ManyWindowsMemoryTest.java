package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run keeps every window for its result, so its memory must not grow by much per window: 300
 * windows in a 40 MB heap (at full size they took 1.6 MB each, and such a run ran out of memory
 * after 14 windows). A window's memory does not depend on its length: short windows at a higher rate
 * make the same 15,000 requests in less time.
 */
class ManyWindowsMemoryTest {
    @TempDir
    Path dir;

    @Test
    void threeHundredWindowsFitInASmallHeap() throws Exception {
        Path json = dir.resolve("run.json");
        Path output = dir.resolve("run.out");
        Process run = CliRun.inChildJvm(output, List.of("-Xmx40m"),
                "run", "-d", "10ms", "-w", "300", "--rate", "5000", "-c", "2", "--no-live", "--json", json.toString());
        assertTrue(run.waitFor(120, TimeUnit.SECONDS), "the run ends");
        String text = Files.readString(output);
        assertEquals(0, run.exitValue(), text);
        JsonNode result = new ObjectMapper().readTree(json.toFile());
        assertEquals(300, result.get("windows").size(), "every window is in the result");
        long sum = 0;
        for (JsonNode w : result.get("windows")) {
            sum += w.get("requests").asLong();
        }
        assertEquals(result.get("total").get("requests").asLong(), sum, "the total is the sum of the windows");
        assertTrue(sum > 10_000, "requests: " + sum);
    }
}
