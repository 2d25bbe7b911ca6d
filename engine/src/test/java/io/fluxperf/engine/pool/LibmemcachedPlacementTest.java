package io.fluxperf.engine.pool;

import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keys go where libmemcached itself sends them: a small C program linked with libmemcached
 * (src/test/c, built here with the system's C compiler; scripts/install-deps.sh installs
 * libmemcached-dev) asks {@code memcached_server_by_key} for the server of every key, with weighted
 * ketama and with libmemcached's default modula, and fluxperf's placement must name the same
 * server for each. Nothing connects: placement is computed from the server list alone.
 */
class LibmemcachedPlacementTest {
    /** Servers on the default port and on others (ketama names them differently), weights 1–3. */
    private static final List<String> SERVERS = List.of("127.0.0.1:11211:1", "127.0.0.1:22122:2",
            "10.1.2.3:11213:1", "cache-4.example:11211:3");

    @TempDir
    static Path dir;
    private static Path program;
    private static List<String> keys;

    @BeforeAll
    static void build() throws Exception {
        Path source = Paths.get("src/test/c/libmemcached_placement.c").toAbsolutePath();
        program = dir.resolve("libmemcached_placement");
        Process cc = new ProcessBuilder("cc", "-O1", "-o", program.toString(), source.toString(), "-lmemcached")
                .redirectErrorStream(true).start();
        String out = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(cc.waitFor(60, TimeUnit.SECONDS), "cc ended");
        assertEquals(0, cc.exitValue(), "cc " + source + " -lmemcached (scripts/install-deps.sh installs libmemcached-dev):\n" + out);
        keys = new ArrayList<>();
        for (int k = 0; k < 10_000; k++) {
            keys.add(String.format("%016d", k)); // fluxperf's generated keys
        }
        Random random = new Random(5);
        for (int k = 0; k < 2_000; k++) { // and keys of every printable byte and length up to 200
            StringBuilder b = new StringBuilder();
            for (int i = 1 + random.nextInt(200); i > 0; i--) {
                b.append((char) ('!' + random.nextInt(94)));
            }
            keys.add(b.toString());
        }
    }

    @Test
    void weightedKetamaPlacesEveryKeyOnLibmemcachedsServer() throws Exception {
        List<KetamaContinuum.Server> servers = new ArrayList<>();
        for (String s : SERVERS) {
            String[] p = s.split(":");
            servers.add(new KetamaContinuum.Server(p[0], Integer.parseInt(p[1]), Integer.parseInt(p[2])));
        }
        assertSamePlacement("ketama", new HashPlacement(KetamaContinuum.of(servers), servers.size()));
    }

    @Test
    void modulaPlacesEveryKeyOnLibmemcachedsServer() throws Exception {
        assertSamePlacement("modula", new HashPlacement(null, SERVERS.size()));
    }

    private static void assertSamePlacement(String distribution, HashPlacement placement) throws Exception {
        List<Integer> theirs = libmemcached(distribution);
        assertEquals(keys.size(), theirs.size(), "one line per key");
        RequestPool pool = new RequestPool(1);
        int[] perServer = new int[SERVERS.size()];
        for (int k = 0; k < keys.size(); k++) {
            Request r = pool.acquire();
            byte[] key = keys.get(k).getBytes(StandardCharsets.US_ASCII);
            r.command(Command.GET, 0).addKey(key, 0, key.length);
            int ours = placement.serverOf(r);
            pool.release(r);
            assertEquals(theirs.get(k), ours, distribution + ": key '" + keys.get(k) + "'");
            perServer[ours]++;
        }
        for (int s = 0; s < perServer.length; s++) {
            assertTrue(perServer[s] > keys.size() / 20, distribution + ": every server gets keys: " + perServer[s]);
        }
    }

    private static List<Integer> libmemcached(String distribution) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(program.toString(), distribution));
        command.addAll(SERVERS);
        Path in = Files.write(dir.resolve(distribution + ".keys"), keys);
        Process p = new ProcessBuilder(command).redirectInput(in.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "libmemcached_placement ended");
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        return out.lines().map(Integer::parseInt).toList();
    }
}
