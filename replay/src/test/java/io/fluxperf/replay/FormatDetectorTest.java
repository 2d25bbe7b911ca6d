package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.memcache.log.MemcacheLogFormats;
import io.fluxperf.engine.protocol.resp.log.RedisMonitorFormat;
import io.fluxperf.testkit.LogReaders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The format is told from the content; what is no log is said in one sentence. */
class FormatDetectorTest {
    @TempDir
    Path dir;

    @Test
    void eachFormatFromItsFirstLine() {
        assertEquals(RedisMonitorFormat.INSTANCE, FormatDetector.detect(LogReaders.write(dir, "a",
                "OK\n1700000000.123456 [0 127.0.0.1:50000] \"SET\" \"k\" \"v\"\n")));
        assertEquals(MemcacheLogFormats.WATCH, FormatDetector.detect(LogReaders.write(dir, "b",
                "OK\nts=1700000000.14463 gid=6 type=item_get key=foo status=found clsid=1 cfd=13 size=3\n")));
        assertEquals(MemcacheLogFormats.KLOG, FormatDetector.detect(LogReaders.write(dir, "c",
                "172.25.135.205:55438 - [09/Jul/2012:18:15:45 -0700] \"get foo\" 0 14\n")));
        assertEquals(MemcacheLogFormats.ASCII, FormatDetector.detect(LogReaders.write(dir, "d",
                "set foo 0 0 3\r\nbar\r\nget foo\r\n")));
        assertEquals(io.fluxperf.replay.cachetrace.CacheTraceFormat.INSTANCE, FormatDetector.detect(LogReaders.write(dir,
                "e", "0,nz:u:eeW511W3dcH3de3d15ec,24,0,12,get,0\n")));
        assertEquals(io.fluxperf.replay.cachetrace.CacheTraceFormat.INSTANCE, FormatDetector.detect(
                io.fluxperf.testkit.CacheTraceFile.builder().seconds(1, 10).make().writeZstd(dir.resolve("f.zst"))));
        assertEquals(MemcacheLogFormats.META, FormatDetector.detect(LogReaders.write(dir, "g",
                "ms foo 3 T0\r\nbar\r\nmg foo v\r\n")));
        assertEquals("memcache-meta", LogFormats.protocolOf(MemcacheLogFormats.META).name(),
                "a stream that starts with a meta command replays with the meta protocol");
        assertEquals("memcache", LogFormats.protocolOf(MemcacheLogFormats.ASCII).name());
    }

    /**
     * A MONITOR log is written in order by redis' one command thread: its read-ahead is small,
     * which keeps the reader's entries in cache; logs written by several threads keep the wide
     * one; a --read-ahead given wins for every format.
     */
    @Test
    void eachFormatHasItsReadAheadAndAGivenOneWins() {
        Path log = dir.resolve("any.log");
        ReplayOptions defaults = ReplayOptions.builder(log).build();
        assertEquals(1_024, defaults.readAheadOf(RedisMonitorFormat.INSTANCE));
        for (var f : new io.fluxperf.engine.log.LogFormat[] {MemcacheLogFormats.WATCH, MemcacheLogFormats.KLOG,
            MemcacheLogFormats.ASCII, TraceFormat.INSTANCE, io.fluxperf.replay.cachetrace.CacheTraceFormat.INSTANCE}) {
            assertEquals(16_384, defaults.readAheadOf(f), f.label());
        }
        ReplayOptions given = ReplayOptions.builder(log).readAhead(5_000).build();
        assertEquals(5_000, given.readAheadOf(RedisMonitorFormat.INSTANCE));
        assertEquals(5_000, given.readAheadOf(MemcacheLogFormats.WATCH));
        assertThrows(UserError.class, () -> ReplayOptions.builder(log).readAhead(-1).build());
    }

    @Test
    void emptyBinaryAndUnknownAreOneSentence() throws IOException {
        Path empty = LogReaders.write(dir, "empty.log", "");
        assertEquals(empty + ": empty log (no commands)",
                assertThrows(UserError.class, () -> FormatDetector.detect(empty)).getMessage());
        Path blank = LogReaders.write(dir, "blank.log", "\n\n  \n");
        assertEquals(blank + ": empty log (only blank lines)",
                assertThrows(UserError.class, () -> FormatDetector.detect(blank)).getMessage());
        Path png = Files.write(dir.resolve("image.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0});
        assertEquals(png + ": not a command log (binary content at byte 6)",
                assertThrows(UserError.class, () -> FormatDetector.detect(png)).getMessage());
        Path prose = LogReaders.write(dir, "notes.txt", "Dear diary,\ntoday I replayed a log.\n");
        assertEquals(prose + ":1: cannot tell the log format from its first line ('Dear diary,'); name it with --format "
                        + "memcache-watch|klog|memcache-ascii|memcache-meta-ascii|redis-monitor|pcap|twitter-cache-trace|trace",
                assertThrows(UserError.class, () -> FormatDetector.detect(prose)).getMessage());
        Path notATrace = Files.createDirectory(dir.resolve("not-a-trace"));
        assertThrows(UserError.class, () -> FormatDetector.detect(notATrace));
    }

    /** A capture by its magic number, compressed or not, whatever its name; a file named like one that is none says so. */
    @Test
    void aPacketCaptureByItsMagicNumber() throws IOException {
        io.fluxperf.testkit.CaptureWriter w = new io.fluxperf.testkit.CaptureWriter();
        w.connection("10.0.0.7", 1234, "10.0.0.5", 11211).open(0).send(1000, "get k\r\n");
        for (io.fluxperf.testkit.CaptureWriter.Format f : io.fluxperf.testkit.CaptureWriter.Format.values()) {
            Path p = Files.write(dir.resolve("traffic-" + f), w.format(f).bytes());
            assertEquals(io.fluxperf.engine.log.capture.CaptureFormat.INSTANCE, FormatDetector.detect(p), f.toString());
        }
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream o = new java.util.zip.GZIPOutputStream(gz)) {
            o.write(w.bytes());
        }
        Path zipped = Files.write(dir.resolve("traffic.log.gz"), gz.toByteArray());
        assertEquals(io.fluxperf.engine.log.capture.CaptureFormat.INSTANCE, FormatDetector.detect(zipped));
        Path fake = LogReaders.write(dir, "peak.pcap.gz", "get k\r\n");
        assertEquals(fake + ": not a packet capture (it starts with 67 65 74 20, not the magic number of pcap or pcapng)",
                assertThrows(UserError.class, () -> FormatDetector.detect(fake)).getMessage());
    }

    @Test
    void namedFormatStillRefusesBinary() throws IOException {
        Path elf = Files.write(dir.resolve("a.out"), new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0});
        assertEquals(elf + ": not a redis-monitor log (binary content at byte 7)",
                assertThrows(UserError.class, () -> FormatDetector.checkText(elf, RedisMonitorFormat.INSTANCE)).getMessage());
    }
}
