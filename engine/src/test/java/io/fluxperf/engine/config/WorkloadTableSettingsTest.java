package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A [[workload]] table's keys that are declared settings ({@link Setting#readsFromWorkloadTable})
 * are read from the declaration alone: the table takes the key, its type reads and checks it, and
 * the flag, else the key, else the default is the workload's value. A new such key needs no field
 * or line in {@link ConfigFile}.
 */
class WorkloadTableSettingsTest {
    @TempDir
    Path dir;

    private Path toml(String text) throws IOException {
        Path p = dir.resolve("run.toml");
        Files.writeString(p, text);
        return p;
    }

    private RunConfig resolve(Path file, Flags.Builder flags) {
        return ConfigResolver.resolve(flags.set(Settings.CONFIG, file).build());
    }

    @Test
    void everyDeclaredKeyIsTakenAndReadByItsType() throws IOException {
        List<Setting<?>> read = Settings.all().stream().filter(Setting::readsFromWorkloadTable).toList();
        assertTrue(read.contains(Settings.KEYSPACE), "keyspace is read by its declaration: " + read);
        List<String> problems = new ArrayList<>();
        for (Setting<?> s : Settings.all()) {
            if (s.scope() == Setting.Scope.WORKLOAD && s.key() != null && !ConfigFile.WORKLOAD_KEYS.contains(s.key())) {
                problems.add(s.key() + " is not a key of [[workload]]");
            }
        }
        for (Setting<?> s : read) {
            // a value of no setting's type: each type refuses it, naming the key and its line
            Path file = toml("[[workload]]\nmethod = \"get\"\n" + s.key() + " = [1]\n");
            String e = assertThrows(UserError.class, () -> resolve(file, Flags.builder())).getMessage();
            if (!e.contains("workload[0]." + s.key() + " (line 3): expected ")) {
                problems.add(s.key() + ": " + e);
            }
        }
        assertEquals(List.of(), problems);
    }

    /** config.toml writes each such key from its declaration, and running it again makes the same workloads. */
    @Test
    void theRunDirectorysConfigWritesThemFromTheirDeclarations() throws IOException {
        for (Setting<?> s : Settings.all()) {
            assertTrue(!s.readsFromWorkloadTable() || s.isInWorkload(),
                    s.key() + " is read from [[workload]] but config.toml would not write it: declare .inWorkload(...)");
        }
        Path file = toml("[[workload]]\nmethod = \"get\"\nkeys-per-request = 3\nkeyspace = 500\nkey-length = 9\n"
                + "distribution = \"zipf\"\nexponent = 1.25\nhit = true\n\n"
                + "[[workload]]\nmethod = \"set\"\nflush = false\n");
        RunConfig c = resolve(file, Flags.builder());
        String written = io.fluxperf.engine.rundir.EffectiveConfig.toml(c);
        assertTrue(written.contains("keys-per-request = 3\nhit = true\nflush = false\nkeyspace = 500\nkey-length = 9\n"
                + "exponent = 1.25\ndistribution = \"zipf\"\n"), written);
        assertTrue(written.contains("method = \"set\"\nweight = 1\nbytes = 64\nhit = false\nflush = false\n"
                + "keyspace = 10000\nkey-length = 16\ndistribution = \"uniform\"\n"), written);
        Path again = dir.resolve("config.toml");
        Files.writeString(again, written);
        assertEquals(c.workloads(), resolve(again, Flags.builder()).workloads());
    }

    @Test
    void keyspaceIsTheFlagElseTheKeyElseTheDefault() throws IOException {
        Path file = toml("[[workload]]\nmethod = \"get\"\nkeyspace = 500\n\n[[workload]]\nmethod = \"set\"\n");
        RunConfig fromFile = resolve(file, Flags.builder());
        assertEquals(500, fromFile.workloads().get(0).keyspace().count());
        assertEquals(Settings.KEYSPACE.defaultValue(), fromFile.workloads().get(1).keyspace().count());
        RunConfig flag = resolve(file, Flags.builder().set(Settings.KEYSPACE, 700L));
        assertEquals(List.of(700L, 700L), flag.workloads().stream().map(w -> w.keyspace().count()).toList());
        assertEquals(Settings.KEYSPACE.defaultValue(),
                ConfigResolver.resolve(Flags.none()).workloads().get(0).keyspace().count());
    }

    @Test
    void keyspaceKeepsItsLimitsAndMessages() throws IOException {
        Path file = toml("[[workload]]\nmethod = \"get\"\nkeyspace = 0\n");
        assertTrue(assertThrows(UserError.class, () -> resolve(file, Flags.builder())).getMessage()
                .endsWith("run.toml: workload[0].keyspace (line 3): must be at least 1, not 0"));
        Path tooMany = toml("[[workload]]\nmethod = \"get\"\nkeyspace = 1000\nkey-length = 2\n");
        assertTrue(assertThrows(UserError.class, () -> resolve(tooMany, Flags.builder())).getMessage()
                .endsWith("run.toml: workload[0].keyspace (line 3): 1000 keys need keys of at least 3 bytes, but the"
                        + " key length is 2"));
        assertEquals("--keyspace: 1000 keys need keys of at least 3 bytes, but the key length is 2",
                assertThrows(UserError.class, () -> resolve(tooMany, Flags.builder().set(Settings.KEYSPACE, 1000L)))
                        .getMessage());
    }
}
