package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/run.md's option tables list every declared setting ({@link Settings}) with the row its
 * declaration makes: its flags, what it means and its default. A setting added without its row, or
 * a row edited apart from its declaration, fails here, with the row to paste.
 */
class SettingsDocsTest {

    @Test
    void everyDeclaredSettingHasItsRowInItsTable() throws IOException {
        assertEquals(List.of(), problems(Files.readAllLines(repository().resolve("docs/run.md"))),
                "docs/run.md differs from the settings declared in Settings");
        assertTrue(Settings.all().stream().filter(s -> s.docRow() != null).count() >= 40,
                "most settings have a row");
    }

    @Test
    void aSettingWithoutItsRowIsNamed() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(repository().resolve("docs/run.md")));
        lines.remove(Settings.BUSY_POLL.docRow());
        assertEquals(List.of("--busy-poll: its row under '### Connections' should be\n" + Settings.BUSY_POLL.docRow()),
                problems(lines));
    }

    /** One message for each declared setting whose row is not in its table. */
    private static List<String> problems(List<String> lines) {
        List<String> problems = new ArrayList<>();
        for (Setting<?> s : Settings.all()) {
            String row = s.docRow();
            if (row != null && !table(lines, s.table().heading()).contains(row)) {
                problems.add(s.flag() + ": its row under '### " + s.table().heading() + "' should be\n" + row);
            }
        }
        return problems;
    }

    /** The table rows between {@code ### heading} and the next heading. */
    private static List<String> table(List<String> lines, String heading) {
        List<String> rows = new ArrayList<>();
        boolean in = false;
        for (String line : lines) {
            if (line.startsWith("#")) {
                in = line.equals("### " + heading);
            } else if (in && line.startsWith("| ")) {
                rows.add(line);
            }
        }
        return rows;
    }

    private static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("docs/run.md"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no docs/run.md above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
