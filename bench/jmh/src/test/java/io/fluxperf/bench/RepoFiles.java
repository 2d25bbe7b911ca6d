package io.fluxperf.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the repository the bench tests run scripts from, found from wherever Maven runs them. */
final class RepoFiles {
    private RepoFiles() {
    }

    /** The file at {@code relative} (e.g. {@code bench/lib/parsers.sh}) in the nearest directory above that has it. */
    static Path find(String relative) {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path s = p.resolve(relative);
            if (Files.isRegularFile(s)) {
                return s;
            }
        }
        throw new IllegalStateException("no " + relative + " above " + Path.of("").toAbsolutePath());
    }
}
