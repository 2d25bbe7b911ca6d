package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.request.Command;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --method publish} with {@code --subscribers N} or {@code subscribers = N}, and what is refused, in one sentence. */
class PubSubConfigTest {
    @TempDir
    Path tmp;

    private static RunSettings flags(String protocol, String method) {
        RunSettings s = new RunSettings();
        s.server = "127.0.0.1:6379";
        s.protocol = protocol;
        s.method = method;
        return s;
    }

    @Test
    void theFlagGivesThePublishWorkloadItsSubscribers() {
        RunSettings s = flags("redis", "publish");
        s.subscribers = 4;
        WorkloadConfig w = ConfigResolver.resolve(s.toFlags()).workloads().get(0);
        assertEquals(Command.PUBLISH, w.method());
        assertEquals(4, w.shape().subscribers());
    }

    @Test
    void theFileKeyGivesThemToo() throws Exception {
        Path file = tmp.resolve("pubsub.toml");
        Files.writeString(file, """
                [general]
                protocol = "redis"
                server = "127.0.0.1:6379"

                [[workload]]
                method = "publish"
                rate = 10000
                keyspace = 100
                subscribers = 4

                [[workload]]
                method = "get"
                rate = 1000
                """);
        RunSettings s = new RunSettings();
        s.config = file;
        assertEquals(4, ConfigResolver.resolve(s.toFlags()).workloads().get(0).shape().subscribers());
        s.subscribers = 2;
        assertEquals(2, ConfigResolver.resolve(s.toFlags()).workloads().get(0).shape().subscribers(), "the flag wins");
        assertEquals(0, ConfigResolver.resolve(s.toFlags()).workloads().get(1).shape().subscribers());
    }

    @Test
    void anotherProtocolIsRefusedByName() {
        UserError e = assertThrows(UserError.class, () -> ConfigResolver.resolve(flags("memcache", "publish").toFlags()));
        assertEquals("--method: protocol memcache does not support publish; it speaks get, gets, set, add, replace, append,"
                + " prepend, cas, delete, incr, decr, touch", e.getMessage());
        RunSettings http = flags("http", "publish");
        http.server = "127.0.0.1:8080";
        assertEquals("--method: protocol http does not support publish; it speaks get, delete, post, put",
                assertThrows(UserError.class, () -> ConfigResolver.resolve(http.toFlags())).getMessage());
    }

    @Test
    void subscribersNeedAPublishAndAMessageItsHeader() {
        RunSettings get = flags("redis", "get");
        get.subscribers = 2;
        assertEquals("--subscribers: only --method publish has subscribers, not get",
                assertThrows(UserError.class, () -> ConfigResolver.resolve(get.toFlags())).getMessage());
        RunSettings small = flags("redis", "publish");
        small.bytes = "8";
        assertEquals("--bytes: a published message carries its send time and id in its first 16 bytes; give at least 16",
                assertThrows(UserError.class, () -> ConfigResolver.resolve(small.toFlags())).getMessage());
        RunSettings embedded = flags("redis", "publish");
        embedded.server = null;
        assertTrue(assertThrows(UserError.class, () -> ConfigResolver.resolve(embedded.toFlags())).getMessage()
                .startsWith("--method: the embedded redis target does not answer publish"));
    }

    @Test
    void aFileSubscriberKeyOnAnotherMethodNamesItsPlace() throws Exception {
        Path file = tmp.resolve("bad.toml");
        Files.writeString(file, """
                [general]
                protocol = "redis"
                server = "127.0.0.1:6379"

                [[workload]]
                method = "set"
                subscribers = 3
                """);
        RunSettings s = new RunSettings();
        s.config = file;
        String m = assertThrows(UserError.class, () -> ConfigResolver.resolve(s.toFlags())).getMessage();
        assertTrue(m.contains("bad.toml") && m.contains("subscribers") && m.contains("only publish has subscribers"), m);
    }
}
