package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A workload's ttl as a weighted list: its two forms, what --ttl does to it, and its mistakes. */
class TtlMixConfigTest {
    @TempDir
    Path dir;

    private RunConfig resolve(String toml, Integer ttlFlag) throws IOException {
        Path f = dir.resolve("run.toml");
        Files.writeString(f, toml);
        RunSettings s = new RunSettings();
        s.config = f;
        s.server = "127.0.0.1:1";
        s.ttl = ttlFlag;
        return ConfigResolver.resolve(s.toFlags());
    }

    @Test
    void aListOfTablesAndAStringGiveTheSameMix() throws IOException {
        RunConfig c = resolve("""
                [[workload]]
                method = "set"
                ttl = [{ seconds = 60, weight = 5 }, { seconds = 3600, weight = 1 }, { seconds = 0 }]

                [[workload]]
                method = "add"
                ttl = "60:5,3600:1,0:1"

                [[workload]]
                method = "replace"
                ttl = 30
                """, null);
        TtlMix mix = new TtlMix(new int[] {60, 3600, 0}, new int[] {5, 1, 1});
        assertEquals(mix, c.workloads().get(0).shape().ttls());
        assertEquals(mix, c.workloads().get(1).shape().ttls());
        assertNull(c.workloads().get(2).shape().ttls());
        assertEquals(30, c.workloads().get(2).ttlSeconds());
        assertEquals(" TTLs: 60:5,3600:1,0:1 (seconds:weight)", c.workloads().get(0).shape().describe());
    }

    @Test
    void theTtlFlagReplacesAList() throws IOException {
        RunConfig c = resolve("""
                [[workload]]
                method = "set"
                ttl = "60:5,3600:1"
                """, 90);
        assertNull(c.workloads().get(0).shape().ttls());
        assertEquals(90, c.workloads().get(0).ttlSeconds());
    }

    @Test
    void mistakesNameTheKey() {
        UserError e = assertThrows(UserError.class, () -> resolve("""
                [[workload]]
                method = "set"
                ttl = "60:5,x"
                """, null));
        assertEquals("run.toml: workload[0].ttl (line 3): '60:5,x' is not a weighted ttl list; write"
                + " SECONDS:WEIGHT,SECONDS:WEIGHT, e.g. 60:5,3600:1", e.getMessage().replace(dir + "/", ""));
        e = assertThrows(UserError.class, () -> resolve("""
                [[workload]]
                method = "set"
                ttl = [{ seconds = 9999999, weight = 1 }]
                """, null));
        assertEquals(true, e.getMessage().contains("workload[0].ttl[0].seconds"), e.getMessage());
        e = assertThrows(UserError.class, () -> resolve("""
                [[workload]]
                method = "set"
                ttl = [{ ttl = 60 }]
                """, null));
        assertEquals(true, e.getMessage().contains("workload[0].ttl[0]"), e.getMessage());
        e = assertThrows(UserError.class, () -> resolve("""
                [[workload]]
                method = "set"
                ttl = true
                """, null));
        assertEquals(true, e.getMessage().contains("expected seconds (60) or a weighted list"), e.getMessage());
    }
}
