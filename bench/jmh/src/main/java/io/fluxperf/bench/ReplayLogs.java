package io.fluxperf.bench;

import io.fluxperf.engine.request.Command;
import io.fluxperf.trace.TraceHeader;
import io.fluxperf.trace.TraceRecord;
import io.fluxperf.trace.TraceWriter;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Command logs for the replay benchmarks, one per format replay reads, all holding the same
 * commands: {@code commands} gets and sets (one set in five), 16-byte keys ({@code key:} and 12
 * digits) drawn uniformly from 100,000, 32-byte printable values, from 50 clients drawn uniformly,
 * one command every 20 µs (50,000/s) from epoch second 1,700,000,000 (a trace: from its origin).
 * Seeded, so every run reads the same bytes.
 *
 * <p>Per format, as the tool that makes such a log writes it (see each reader's Javadoc):
 * <ul>
 * <li>{@code redis-monitor}: {@code redis-cli monitor}'s {@code OK}, then
 *     {@code 1700000000.000020 [0 10.0.0.10:50000] "GET" "key:000000012345"}, a set with its value
 *     as a third word;</li>
 * <li>{@code memcache-watch}: memcached's {@code OK}, then {@code ts=… gid=… type=item_get key=…
 *     status=found clsid=1 cfd=… size=32}; a set is two lines, the fetch memcached does inside it
 *     and its {@code item_store … cmd=set ttl=0 …};</li>
 * <li>{@code memcache-ascii}: the bytes the clients sent ({@code get key\r\n}, {@code set key 0 0
 *     32\r\n} and the data block), with its send times and clients in {@code LOG.times.csv} beside
 *     it, which replay reads by default;</li>
 * <li>{@code klog}: twemcache's {@code 10.0.0.10:50000 - [14/Nov/2023:22:13:20 +0000] "get key" 0
 *     67} (a set: {@code "set key 0 0 32" 1 8});</li>
 * <li>{@code trace}: a fluxperf trace directory, written through {@link TraceWriter} as a run
 *     writes it (command codes are {@link Command} ordinals; memcache);</li>
 * <li>{@code twitter-cache-trace}: Twitter's published CSV, {@code 0,key:000000012345,16,0,17,get,0}
 *     (a set: {@code …,16,32,17,set,3600}), plain, or zstd-compressed as published
 *     ({@code twitter-cache-trace.zst});</li>
 * <li>{@code pcap}: what {@code tcpdump -i lo -w} writes of those redis commands (the MONITOR log's):
 *     pcap with microsecond timestamps, Ethernet, IPv4, a 32-byte TCP header (Linux's timestamp
 *     option); each client's connection opened (SYN, SYN-ACK, ACK) before its first command; each
 *     command one segment of its RESP array, its reply ({@code +OK}, or the 32-byte value as a bulk
 *     string) one segment 10 µs later: two packets per command.</li>
 * </ul>
 */
final class ReplayLogs {
    static final int CLIENTS = 50;
    static final int KEYS = 100_000;
    static final int VALUE_BYTES = 32;
    /** One command in this many is a set. */
    static final int SET_EVERY = 5;
    static final long EPOCH_SECOND = 1_700_000_000L;
    static final long INTERVAL_NANOS = 20_000;
    private static final long SEED = 42;
    private static final byte[] ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
            .getBytes(StandardCharsets.US_ASCII);
    private static final DateTimeFormatter KLOG_TIME = DateTimeFormatter
            .ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT).withZone(ZoneOffset.UTC);

    private ReplayLogs() {
    }

    /** One command of the logs. */
    private static final class Next {
        private final SplittableRandom random = new SplittableRandom(SEED);
        private final byte[] key = "key:000000000000".getBytes(StandardCharsets.US_ASCII);
        private final byte[] value = new byte[VALUE_BYTES];
        long index = -1;
        boolean set;
        int client;
        /** ns since the log's first second */
        long nanos;

        void advance() {
            index++;
            set = random.nextInt(SET_EVERY) == 0;
            client = random.nextInt(CLIENTS);
            int k = random.nextInt(KEYS);
            for (int i = key.length - 1; i >= 4; i--) {
                key[i] = (byte) ('0' + k % 10);
                k /= 10;
            }
            int v = random.nextInt(ALPHABET.length);
            for (int i = 0; i < VALUE_BYTES; i++) {
                value[i] = ALPHABET[(v + i * 7) % ALPHABET.length];
            }
            nanos = (index + 1) * INTERVAL_NANOS;
        }

        String key() {
            return new String(key, StandardCharsets.US_ASCII);
        }

        String value() {
            return new String(value, StandardCharsets.US_ASCII);
        }

        String address() {
            return "10.0." + client / 10 + "." + (10 + client % 10) + ":" + (50_000 + 97 * client);
        }

        /** Seconds and microseconds, {@code 1700000000.000020}. */
        String seconds() {
            return (EPOCH_SECOND + nanos / 1_000_000_000L) + "." + sixDigits(nanos / 1000 % 1_000_000);
        }
    }

    /**
     * Writes a log of {@code format} into {@code directory} (a file, or a trace directory) and
     * returns its path.
     */
    static Path write(String format, Path directory, int commands) throws IOException {
        return switch (format) {
            case "redis-monitor" -> lines(directory.resolve("monitor.log"), commands, "OK", n -> n.seconds() + " [0 "
                    + n.address() + "] " + (n.set ? "\"SET\" \"" + n.key() + "\" \"" + n.value() + "\""
                    : "\"GET\" \"" + n.key() + "\""));
            case "memcache-watch" -> watch(directory.resolve("watch.log"), commands);
            case "memcache-ascii" -> ascii(directory.resolve("stream.txt"), commands);
            case "klog" -> lines(directory.resolve("twemcache.klog"), commands, null, n -> n.address() + " - ["
                    + KLOG_TIME.format(Instant.ofEpochSecond(EPOCH_SECOND + n.nanos / 1_000_000_000L)) + "] \""
                    + (n.set ? "set " + n.key() + " 0 0 " + VALUE_BYTES + "\" 1 8" : "get " + n.key() + "\" 0 67"));
            case "trace" -> trace(directory.resolve("trace"), commands);
            case "pcap" -> capture(directory.resolve("traffic.pcap"), commands);
            case "twitter-cache-trace" -> lines(directory.resolve("cluster0.0"), commands, null, ReplayLogs::cacheTrace);
            case "twitter-cache-trace.zst" -> {
                Path plain = lines(directory.resolve("cluster0.0"), commands, null, ReplayLogs::cacheTrace);
                Path zst = directory.resolve("cluster0.0.zst");
                try (OutputStream out = new com.github.luben.zstd.ZstdOutputStream(Files.newOutputStream(zst))) {
                    Files.copy(plain, out);
                }
                Files.delete(plain);
                yield zst;
            }
            default -> throw new IllegalArgumentException("no log of format " + format);
        };
    }

    /** Twitter's cache-trace line: whole-second time, key, key size, value size, client, operation, TTL. */
    private static String cacheTrace(Next n) {
        return n.nanos / 1_000_000_000L + "," + n.key() + ",16," + (n.set ? VALUE_BYTES : 0) + "," + n.client + ","
                + (n.set ? "set,3600" : "get,0");
    }

    /** How many times a reader's {@code next} returns true in one pass over the log of {@code format}. */
    static long entries(String format, int commands) {
        if (!format.equals("memcache-watch")) {
            return commands;
        }
        Next n = new Next();
        long sets = 0;
        for (int i = 0; i < commands; i++) {
            n.advance();
            sets += n.set ? 1 : 0;
        }
        return commands + sets; // a set's fetch is returned too (and dropped later, in the read-ahead)
    }

    private interface Line {
        String of(Next n);
    }

    private static Path lines(Path file, int commands, String first, Line line) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            if (first != null) {
                out.write(ascii(first + "\n"));
            }
            Next n = new Next();
            for (int i = 0; i < commands; i++) {
                n.advance();
                out.write(ascii(line.of(n) + "\n"));
            }
        }
        return file;
    }

    private static Path watch(Path file, int commands) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(ascii("OK\n"));
            Next n = new Next();
            long gid = 1;
            for (int i = 0; i < commands; i++) {
                n.advance();
                // memcached prints the microseconds without zero padding
                String ts = "ts=" + (EPOCH_SECOND + n.nanos / 1_000_000_000L) + "." + (n.nanos / 1000 % 1_000_000);
                int cfd = 20 + n.client;
                if (n.set) {
                    out.write(ascii(ts + " gid=" + gid++ + " type=item_get key=" + n.key()
                            + " status=not_found clsid=0 cfd=" + cfd + " size=0\n"));
                    out.write(ascii(ts + " gid=" + gid++ + " type=item_store key=" + n.key()
                            + " status=stored cmd=set ttl=0 clsid=1 cfd=" + cfd + " size=" + VALUE_BYTES + "\n"));
                } else {
                    out.write(ascii(ts + " gid=" + gid++ + " type=item_get key=" + n.key()
                            + " status=found clsid=1 cfd=" + cfd + " size=" + VALUE_BYTES + "\n"));
                }
            }
        }
        return file;
    }

    private static Path ascii(Path file, int commands) throws IOException {
        Path times = file.resolveSibling(file.getFileName() + ".times.csv");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
             OutputStream csv = new BufferedOutputStream(Files.newOutputStream(times), 1 << 16)) {
            csv.write(ascii("seconds,client\n"));
            Next n = new Next();
            for (int i = 0; i < commands; i++) {
                n.advance();
                out.write(ascii(n.set ? "set " + n.key() + " 0 0 " + VALUE_BYTES + "\r\n" + n.value() + "\r\n"
                        : "get " + n.key() + "\r\n"));
                csv.write(ascii(n.nanos / 1_000_000_000L + "." + sixDigits(n.nanos / 1000 % 1_000_000) + ","
                        + n.address() + "\n"));
            }
        }
        return file;
    }

    private static Path trace(Path directory, int commands) {
        TraceHeader header = TraceHeader.builder().fluxperfVersion("bench").clockOriginNow()
                .workloads(List.of("get", "set"))
                .commands(Arrays.stream(Command.values()).map(Command::label).toList())
                .protocols(List.of("memcache")).build();
        TraceRecord record = new TraceRecord();
        Next n = new Next();
        try (TraceWriter writer = TraceWriter.open(directory, header)) {
            for (int i = 0; i < commands; i++) {
                n.advance();
                long t = n.nanos;
                record.clear().intendedSendNanos(t).actualSendNanos(t + 3_000).completionNanos(t + 45_000)
                        .workload(n.set ? 1 : 0).protocol(0).command((n.set ? Command.SET : Command.GET).ordinal())
                        .outcome(0).keyCount(1).key(n.key, 0, n.key.length).valueSize(n.set ? VALUE_BYTES : 0)
                        .requestBytes(n.set ? 56 : 22).responseBytes(n.set ? 8 : 67).connectionId(n.client);
                writer.append(record);
            }
            if (writer.recordsLost() > 0) {
                throw new IllegalStateException(writer.statusLine());
            }
        }
        return directory;
    }

    /** Packets in the capture of {@code commands} commands: the handshakes, then a request and a reply per command. */
    static long packets(int commands) {
        return 3L * CLIENTS + 2L * commands;
    }

    private static Path capture(Path file, int commands) throws IOException {
        int[] clientSeq = new int[CLIENTS];
        int[] serverSeq = new int[CLIENTS];
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            java.nio.ByteBuffer h = java.nio.ByteBuffer.allocate(24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            h.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(262_144).putInt(1);
            out.write(h.array());
            long start = EPOCH_SECOND * 1_000_000_000L;
            for (int c = 0; c < CLIENTS; c++) {
                clientSeq[c] = 1_000 + c * 1_000_003;
                serverSeq[c] = 7_000 + c * 2_000_029;
                packet(out, start, c, true, clientSeq[c], 0, 0x02, new byte[0]);
                packet(out, start + 5_000, c, false, serverSeq[c], clientSeq[c] + 1, 0x12, new byte[0]);
                clientSeq[c]++;
                serverSeq[c]++;
                packet(out, start + 10_000, c, true, clientSeq[c], serverSeq[c], 0x10, new byte[0]);
            }
            Next n = new Next();
            for (int i = 0; i < commands; i++) {
                n.advance();
                String k = n.key();
                byte[] request = ascii(n.set
                        ? "*3\r\n$3\r\nSET\r\n$" + k.length() + "\r\n" + k + "\r\n$" + VALUE_BYTES + "\r\n" + n.value() + "\r\n"
                        : "*2\r\n$3\r\nGET\r\n$" + k.length() + "\r\n" + k + "\r\n");
                byte[] reply = ascii(n.set ? "+OK\r\n" : "$" + VALUE_BYTES + "\r\n" + n.value() + "\r\n");
                int c = n.client;
                long t = start + 1_000_000_000L + n.nanos;
                packet(out, t, c, true, clientSeq[c], serverSeq[c], 0x18, request);
                clientSeq[c] += request.length;
                packet(out, t + 10_000, c, false, serverSeq[c], clientSeq[c], 0x18, reply);
                serverSeq[c] += reply.length;
            }
        }
        return file;
    }

    /** One Ethernet/IPv4/TCP packet between client {@code c} (10.0.0.10+c) and the server (10.0.0.1:6379). */
    private static void packet(OutputStream out, long timeNanos, int c, boolean fromClient, int seq, int ack, int flags,
                               byte[] payload) throws IOException {
        int tcp = 32 + payload.length;
        int ip = 20 + tcp;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16 + 14 + ip);
        b.order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) (timeNanos / 1_000_000_000L))
                .putInt((int) (timeNanos / 1000 % 1_000_000)).putInt(14 + ip).putInt(14 + ip);
        b.order(java.nio.ByteOrder.BIG_ENDIAN).put(new byte[12]).putShort((short) 0x0800);
        int client = 0x0a00000a + c;
        int server = 0x0a000001;
        int clientPort = 50_000 + 97 * c;
        b.put((byte) 0x45).put((byte) 0).putShort((short) ip).putShort((short) 0).putShort((short) 0x4000).put((byte) 64)
                .put((byte) 6).putShort((short) 0).putInt(fromClient ? client : server).putInt(fromClient ? server : client);
        b.putShort((short) (fromClient ? clientPort : 6379)).putShort((short) (fromClient ? 6379 : clientPort)).putInt(seq)
                .putInt(ack).put((byte) 0x80).put((byte) flags).putShort((short) 512).putInt(0)
                .put(new byte[] {1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}).put(payload);
        out.write(b.array());
    }

    private static String sixDigits(long v) {
        String s = Long.toString(v);
        return "000000".substring(s.length()) + s;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
