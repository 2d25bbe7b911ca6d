package io.fluxperf.cli;

import io.fluxperf.engine.UserError;
import io.fluxperf.trace.FileErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A command's output file ({@code convert --out}, {@code heatmap --out}), checked before the work
 * that fills it, and written with an I/O failure in words: the flag, the path and the reason in
 * one sentence, never an exception's trace.
 */
public final class OutputFiles {
    private OutputFiles() {
    }

    /**
     * Checks that {@code out} can be written: not a directory, in a directory that exists. The
     * write itself may still fail (a read-only or full file system), which {@link #write} words.
     *
     * @throws UserError naming {@code flag}, the path and why not
     */
    public static void check(String flag, Path out) {
        if (Files.isDirectory(out)) {
            throw new UserError(flag + ": " + out + " is a directory; name a file to write");
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new UserError(flag + ": cannot write " + out + ": " + (Files.exists(parent)
                    ? parent + " is not a directory" : "no such directory " + parent));
        }
        if (parent != null && !Files.isWritable(parent) || Files.exists(out) && !Files.isWritable(out)) {
            throw new UserError(flag + ": cannot write " + out + ": permission denied");
        }
    }

    /** Writes {@code text} to {@code out} as UTF-8, after {@link #check}. */
    public static void write(String flag, Path out, String text) {
        check(flag, out);
        try {
            Files.writeString(out, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw failed(flag, out, e);
        }
    }

    /** The sentence for a write of {@code out} that failed. */
    public static UserError failed(String flag, Path out, IOException e) {
        return new UserError(flag + ": cannot write " + out + ": " + FileErrors.describe(e), e);
    }
}
