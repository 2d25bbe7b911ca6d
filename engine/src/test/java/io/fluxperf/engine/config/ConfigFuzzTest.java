package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import io.fluxperf.engine.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged config files end in a config or a one-line UserError, never in another exception. */
class ConfigFuzzTest {
    private static final String ALPHABET = "[]{}=\"'.,#:-_ \n0123456789abcdefghijklmnopqrstuvwxyzinfan";

    @TempDir
    Path dir;

    @Test
    void mutatedSamplesFailCleanly() throws IOException {
        Path root = ConfigResolverFileTest.repoRoot().resolve("samples");
        Random random = new Random(1);
        Path file = dir.resolve("fuzz.toml");
        for (String sample : new String[] {"default.toml", "mixed-zipf.toml", "multiget.toml"}) {
            String original = Files.readString(root.resolve(sample));
            for (int round = 0; round < 700; round++) {
                StringBuilder text = new StringBuilder(original);
                int edits = 1 + random.nextInt(4);
                for (int e = 0; e < edits; e++) {
                    int at = random.nextInt(text.length());
                    switch (random.nextInt(3)) {
                        case 0 -> text.deleteCharAt(at);
                        case 1 -> text.insert(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
                        default -> text.setCharAt(at, ALPHABET.charAt(random.nextInt(ALPHABET.length())));
                    }
                }
                Files.writeString(file, text, StandardCharsets.UTF_8);
                RunSettings s = new RunSettings();
                s.config = file;
                try {
                    ConfigResolver.resolve(s.toFlags());
                } catch (UserError expected) {
                    assertFalse(expected.getMessage().contains("\n"), expected.getMessage());
                } catch (RuntimeException other) {
                    fail("not a UserError for:\n" + text, other);
                }
            }
        }
    }
}
