package io.fluxperf.cli;

import picocli.CommandLine.Option;

/**
 * The run directory's flags that {@code run}, {@code replay} and {@code merge} share word for word.
 * {@code --out} stays in each command, because each one's help says what it writes there.
 */
final class RunDirectoryFlags {
    @Option(names = "--overwrite", description = "Let --out write into a directory that is not empty (its run files are replaced).")
    boolean overwrite;
}
