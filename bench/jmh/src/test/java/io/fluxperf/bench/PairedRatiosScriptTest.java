package io.fluxperf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * bench/lib/common.sh's paired_ratios, the line compare.sh prints under each table: the rounds'
 * own ratios, so that a machine that slows between rounds moves both sides of each ratio alike.
 */
class PairedRatiosScriptTest {
    private static String pairedRatios(String... args) throws Exception {
        String[] cmd = new String[args.length + 4];
        cmd[0] = "bash";
        cmd[1] = "-c";
        cmd[2] = "source \"$0\" && paired_ratios \"$@\"";
        cmd[3] = RepoFiles.find("bench/lib/common.sh").toString();
        System.arraycopy(args, 0, cmd, 4, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the script ends");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void eachRoundIsItsOwnRatio() throws Exception {
        // the medians are 200 against 210 and 1.0 against 1.0; the rounds' own ratios say otherwise
        String out = pairedRatios("base", "100 200 300", "90 210 300", "1.1 0.9 1.0", "1.0 1.0 1.0");
        assertEquals("fluxperf/base paired by round: rps 1.00 (0.95-1.11, 3 rounds); "
                + "CPU per request 1.00 (0.90-1.10, 3 rounds)", out);
        out = pairedRatios("base", "120 240 180", "100 200 150", "1.5 3.0 2.2", "1.0 2.0 2.0");
        assertEquals("fluxperf/base paired by round: rps 1.20 (1.20-1.20, 3 rounds); "
                + "CPU per request 1.50 (1.10-1.50, 3 rounds)", out);
    }

    @Test
    void aRoundMissingEitherFigureIsLeftOut() throws Exception {
        String out = pairedRatios("peer", "100 NA 300 <=50", "100 100 NA 25", "1 2", "1 NA");
        assertEquals("fluxperf/peer paired by round: rps 1.50 (1.00-2.00, 2 rounds); "
                + "CPU per request 1.00 (1.00-1.00, 1 rounds)", out);
        assertEquals("fluxperf/peer paired by round: rps NA; CPU per request NA", pairedRatios("peer", "NA", "1", "", ""));
    }
}
