package io.fluxperf.replay;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes synthetic memcached watch logs for timing tests: gets and sets at given times, many clients. */
final class LogWriter {
    private LogWriter() {
    }

    /**
     * A watch log of {@code rate} commands per second during the busy seconds (second s is busy when
     * {@code busy[s % busy.length]}), {@code seconds} long, from {@code clients} clients; every fifth
     * command is a set (logged, as memcached does, as its fetch and its store).
     *
     * @return commands per second of the log, by second
     */
    static long[] watch(Path file, int rate, int seconds, boolean[] busy, int clients) {
        long[] perSecond = new long[seconds];
        long base = 1_700_000_000L;
        long gid = 1;
        int i = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            w.write("OK\n");
            for (int s = 0; s < seconds; s++) {
                if (!busy[s % busy.length]) {
                    continue;
                }
                for (int k = 0; k < rate; k++) {
                    long micros = (long) k * 1_000_000L / rate;
                    String ts = "ts=" + (base + s) + "." + micros; // unpadded, as memcached prints it
                    int cfd = 20 + i % clients;
                    String key = "key" + (i % 5000);
                    if (i % 5 == 0) {
                        w.write(ts + " gid=" + gid++ + " type=item_get key=" + key + " status=not_found clsid=0 cfd=" + cfd + " size=0\n");
                        w.write(ts + " gid=" + gid++ + " type=item_store key=" + key + " status=stored cmd=set ttl=0 clsid=1 cfd=" + cfd + " size=32\n");
                    } else {
                        w.write(ts + " gid=" + gid++ + " type=item_get key=" + key + " status=found clsid=1 cfd=" + cfd + " size=32\n");
                    }
                    perSecond[s]++;
                    i++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return perSecond;
    }
}
