package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several servers and clusters from flags and from [general]: the lists, weights, distribution and their refusals. */
class PoolConfigTest {
    @TempDir
    Path dir;

    private static RunConfig resolve(Consumer<RunSettings> set) {
        RunSettings s = new RunSettings();
        set.accept(s);
        return ConfigResolver.resolve(s.toFlags());
    }

    private static String error(Consumer<RunSettings> set) {
        return assertThrows(UserError.class, () -> resolve(set)).getMessage();
    }

    private Path toml(String text) throws IOException {
        Path p = dir.resolve("run.toml");
        Files.writeString(p, text);
        return p;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "10.0.0.1:11211        | 10.0.0.1:11211  | 1",
            "10.0.0.1:11211:3      | 10.0.0.1:11211  | 3",
            "[::1]:11211:2         | [::1]:11211     | 2",
            "[::1]:11211           | [::1]:11211     | 1",
            "unix:/tmp/m.sock      | unix:/tmp/m.sock | 1",
            "unix:/tmp/m.sock:4    | unix:/tmp/m.sock | 4",
            "cache-1.example:11211 | cache-1.example:11211 | 1"})
    void aServerWithAndWithoutItsWeight(String text, String address, int weight) {
        assertEquals(new ServerSpec(address, weight), ServerSpec.parse(text));
    }

    @Test
    void repeatedServersMakeAKetamaPool() {
        RunConfig c = resolve(s -> {
            s.server = "127.0.0.1:11211";
            s.servers = List.of("127.0.0.1:11211", "127.0.0.1:11212:2");
        });
        assertTrue(c.pool().isPool());
        assertEquals(List.of("127.0.0.1:11211", "127.0.0.1:11212:2"), c.pool().servers());
        assertEquals(ServerDistribution.KETAMA, c.pool().distribution());
        assertEquals("127.0.0.1:11211", c.server(), "the first server is the run's server");
        assertEquals(ServerDistribution.MODULA, resolve(s -> {
            s.servers = List.of("127.0.0.1:11211", "127.0.0.1:11212");
            s.serverDistribution = "modula";
        }).pool().distribution());
    }

    @Test
    void oneServerIsNoPool() {
        RunConfig c = resolve(s -> s.server = "127.0.0.1:11211:5");
        assertFalse(c.pool().isPool());
        assertEquals("127.0.0.1:11211", c.server());
        assertEquals(PoolOptions.single(), c.pool());
    }

    @Test
    void aClusterOfOneSeedIsAPool() {
        RunConfig c = resolve(s -> {
            s.protocol = "redis";
            s.server = "127.0.0.1:7000";
            s.cluster = true;
            s.readFrom = "replica";
        });
        assertTrue(c.pool().isPool());
        assertTrue(c.pool().cluster());
        assertEquals(ReadFrom.REPLICA, c.pool().readFrom());
    }

    @Test
    void serversFromTheFile() throws IOException {
        Path file = toml("[general]\nservers = [\"127.0.0.1:11211\", \"127.0.0.1:11212:3\"]\ndistribution = \"modula\"\n");
        RunConfig c = resolve(s -> s.config = file);
        assertEquals(List.of("127.0.0.1:11211", "127.0.0.1:11212:3"), c.pool().servers());
        assertEquals(ServerDistribution.MODULA, c.pool().distribution());
        RunConfig flagWins = resolve(s -> {
            s.config = file;
            s.server = "127.0.0.1:9999";
        });
        assertFalse(flagWins.pool().isPool(), "--server replaces the file's list");
        assertEquals("127.0.0.1:9999", flagWins.server());
        Path cluster = toml("[general]\nprotocol = \"redis\"\nserver = \"127.0.0.1:7000\"\ncluster = true\nread-from = \"replica\"\n");
        assertTrue(resolve(s -> s.config = cluster).pool().cluster());
    }

    /**
     * config.toml writes the servers' settings from their declarations, only those that apply, and
     * running it again makes the same servers.
     */
    @Test
    void theRunDirectorysConfigCarriesTheServers() throws IOException {
        List<String> two = List.of("127.0.0.1:11211", "127.0.0.1:11212:3");
        assertWritten("servers = [\"127.0.0.1:11211\", \"127.0.0.1:11212:3\"]\ndistribution = \"modula\"\nprotocol =",
                s -> {
                    s.servers = two;
                    s.distribution = "modula"; // among the key distributions, as run's --distribution gives it
                });
        assertWritten("servers = [\"127.0.0.1:7000\"]\ncluster = true\nread-from = \"replica\"\nprotocol =", s -> {
            s.protocol = "redis";
            s.server = "127.0.0.1:7000";
            s.cluster = true;
            s.readFrom = "replica";
        });
        assertWritten("[general]\nserver = \"127.0.0.1:11211\"\nprotocol =", s -> s.server = "127.0.0.1:11211:5");
        Path file = toml("[general]\nservers = [\"127.0.0.1:1\", \"127.0.0.1:2\"]\n");
        assertWritten("servers = [\"127.0.0.1:1\", \"127.0.0.1:2\"]\ndistribution = \"ketama\"\nprotocol =", s -> s.config = file);
        assertFalse(io.fluxperf.engine.rundir.EffectiveConfig.toml(resolve(s -> { })).contains("server"),
                "the embedded target has no server to write");
    }

    private void assertWritten(String expected, Consumer<RunSettings> set) throws IOException {
        RunConfig c = resolve(set);
        String written = io.fluxperf.engine.rundir.EffectiveConfig.toml(c);
        assertTrue(written.contains(expected), written);
        Path again = dir.resolve("config.toml");
        Files.writeString(again, written);
        RunConfig rerun = resolve(s -> s.config = again);
        assertEquals(c.pool(), rerun.pool());
        assertEquals(c.server(), rerun.server());
    }

    /**
     * PoolOptions keeps the servers' settings as a file gives them: only what applies, and a
     * setting of the servers that nothing combines as it was resolved.
     */
    @Test
    void poolOptionsKeepWhatAFileWouldSay() {
        Setting<Integer> other = Setting.of("other", Setting.Scope.POOL, SettingType.integer(0, 9));
        PoolOptions pool = PoolOptions.of(List.of("a:1", "b:2"), ServerDistribution.MODULA, false, ReadFrom.MASTER,
                SettingValues.none().with(other, 7).with(Settings.THREADS, 4).with(Settings.CLUSTER, true));
        assertEquals(7, pool.get(other));
        assertEquals(null, pool.get(Settings.THREADS), "a setting of [general] is no pool's");
        assertEquals(null, pool.get(Settings.READ_FROM), "reads from the masters go without saying without a cluster");
        assertFalse(pool.cluster(), "the arguments, not the values given beside them, say what is combined");
        assertEquals(ServerDistribution.MODULA, pool.get(Settings.SERVER_DISTRIBUTION));
        PoolOptions cluster = PoolOptions.of(List.of("a:1"), ServerDistribution.MODULA, true, ReadFrom.MASTER);
        assertEquals(null, cluster.get(Settings.SERVER_DISTRIBUTION), "a cluster places keys by its slot map");
        assertEquals(ReadFrom.MASTER, cluster.get(Settings.READ_FROM));
        assertEquals(ServerDistribution.KETAMA, cluster.distribution());
        assertThrows(IllegalArgumentException.class,
                () -> PoolOptions.of(List.of("a:1", "b:2"), ServerDistribution.KETAMA, false, ReadFrom.REPLICA));
    }

    @Test
    void runsDistributionNamesTheKeysAndTheServersApart() {
        RunSettings s = new RunSettings();
        s.servers = List.of("127.0.0.1:1", "127.0.0.1:2");
        Flags flags = s.toFlags().toBuilder().set(Settings.DISTRIBUTION, List.of("zipf", "modula")).build();
        RunConfig c = ConfigResolver.resolve(flags);
        assertEquals(ServerDistribution.MODULA, c.pool().distribution());
        assertEquals(KeyDistribution.ZIPF, c.workloads().get(0).keyspace().distribution());
        assertTrue(flags.has(Settings.SERVER_DISTRIBUTION));
        assertFalse(Flags.builder().set(Settings.DISTRIBUTION, "zipf").build().has(Settings.SERVER_DISTRIBUTION));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "server = \"a:1\"\\nservers = [\"b:2\", \"c:3\"] | general.servers (line 3): give server or servers, not both",
            "servers = []                                  | general.servers (line 2): the list is empty",
            "servers = [\"a:1\", \"a:1\"]                  | general.servers (line 2): a:1 is listed twice",
            "servers = [\"a:1\", \"b\"]                    | general.servers (line 2): item 2: 'b' has no port",
            "servers = [\"a:1:0\", \"b:2\"]                | general.servers (line 2): item 1: the weight of 'a:1:0' must be between 1",
            "distribution = \"zipf\"                       | general.distribution (line 2): expected ketama or modula",
            "read-from = \"replica\"                       | general.read-from (line 2): replicas are a cluster's",
            "read-from = \"slave\"                         | general.read-from (line 2): expected master or replica",
            "cluster = true                                | general.cluster (line 2): a cluster run needs --server"})
    void fileMistakesNameTheirKey(String general, String message) throws IOException {
        Path file = toml("[general]\n" + general.replace("\\n", "\n") + "\n");
        String e = assertThrows(UserError.class, () -> resolve(s -> s.config = file)).getMessage();
        assertTrue(e.contains(message), e);
    }

    @Test
    void flagMistakesNameTheirFlag() {
        assertTrue(error(s -> s.servers = List.of("a:1", "a:1")).startsWith("--server: a:1 is given twice"));
        assertTrue(error(s -> {
            s.servers = List.of("127.0.0.1:1", "127.0.0.1:2");
            s.serverDistribution = "rendezvous";
        }).startsWith("--distribution: expected ketama or modula"));
        assertTrue(error(s -> {
            s.server = "127.0.0.1:1";
            s.cluster = true;
        }).startsWith("--cluster: protocol memcache has no cluster mode"));
        assertTrue(error(s -> {
            s.protocol = "redis";
            s.server = "127.0.0.1:1";
            s.cluster = true;
            s.serverDistribution = "modula";
        }).startsWith("--distribution: a cluster places keys by its own slot map"));
        assertTrue(error(s -> s.readFrom = "replica").startsWith("--read-from: replicas are a cluster's"));
    }

    @Test
    void whatAPoolCannotTake() {
        List<String> two = List.of("127.0.0.1:1", "127.0.0.1:2");
        assertTrue(error(s -> {
            s.servers = two;
            s.keysPerRequest = 4;
        }).startsWith("--keys-per-request: 4 keys per request would span servers"));
        assertTrue(error(s -> {
            s.protocol = "redis";
            s.server = "127.0.0.1:7000";
            s.cluster = true;
            s.keysPerRequest = 2;
        }).startsWith("--keys-per-request: 2 keys per request would span slots of the cluster"));
        assertTrue(error(s -> {
            s.servers = two;
            s.udp = true;
        }).startsWith("--udp: "));
        assertTrue(error(s -> {
            s.servers = two;
            s.connectPerRequest = true;
        }).startsWith("--connect-per-request: "));
        assertTrue(error(s -> {
            s.servers = two;
            s.holdConnections = 10;
        }).startsWith("--hold-connections: "));
    }
}
