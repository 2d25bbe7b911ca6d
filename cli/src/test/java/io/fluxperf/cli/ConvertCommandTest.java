package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fluxperf convert FILE} with a FILE it cannot convert: named as convert's argument (not as
 * --config, which convert does not take), and a file that sets nothing is an error, not an empty
 * conversion. Each one sentence, exit 2.
 */
class ConvertCommandTest {
    @TempDir
    Path dir;

    private static String oneSentence(CliRun run) {
        assertEquals(2, run.exitCode(), run.out() + run.err());
        assertEquals("", run.out());
        String err = run.err().strip();
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.startsWith("fluxperf: ") && !err.contains("--config"), err);
        return err;
    }

    @Test
    void aMissingFileOrADirectoryIsNamedAsTheArgument() {
        Path none = dir.resolve("none.toml");
        assertEquals("fluxperf: " + none + ": no such file", oneSentence(CliRun.of("convert", none.toString())));
        assertEquals("fluxperf: " + dir + " is a directory, not a TOML file", oneSentence(CliRun.of("convert", dir.toString())));
    }

    @Test
    void aFileThatSetsNothingHasNothingToConvert() throws IOException {
        for (String text : new String[] {"", "# only a comment\n\n"}) {
            Path f = Files.writeString(dir.resolve("empty.toml"), text);
            assertEquals("fluxperf: " + f + " holds no settings (it is empty or only comments), so there is nothing to"
                    + " convert", oneSentence(CliRun.of("convert", f.toString())));
        }
    }
}
