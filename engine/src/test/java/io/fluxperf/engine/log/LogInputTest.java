package io.fluxperf.engine.log;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Compression told by magic bytes, not names; a stream cut short is read up to its cut. */
class LogInputTest {
    private static final byte[] TEXT = "get k1\r\nset k2 0 0 1\r\nx\r\n".repeat(2000).getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void plainGzipAndZstdReadTheSameBytes() throws IOException {
        Path plain = Files.write(dir.resolve("a.log.zst"), TEXT); // a misleading name changes nothing
        Path gz = Files.write(dir.resolve("b.log"), gzip(TEXT));
        Path zst = Files.write(dir.resolve("c.log"), zstd(TEXT));
        assertRead(plain, LogInput.Compression.NONE);
        assertRead(gz, LogInput.Compression.GZIP);
        assertRead(zst, LogInput.Compression.ZSTD);
    }

    @Test
    void aZstdFileCutShortIsReadUpToTheCutAndReportedOnce() throws IOException {
        byte[] whole = zstd(TEXT);
        Path cut = Files.write(dir.resolve("cut.zst"), Arrays.copyOf(whole, whole.length / 2));
        BadLines bad = new BadLines(false);
        ReaderContext ctx = new ReaderContext("cut.zst", bad, new VerbTable(), new LogStats(), null, false, "memcache",
                c -> true);
        try (LogInput in = LogInput.open(cut)) {
            byte[] got = in.stream().readAllBytes();
            assertTrue(got.length < TEXT.length);
            assertArrayEquals(Arrays.copyOf(TEXT, got.length), got);
            in.reportEnd(ctx);
            in.reportEnd(ctx);
        }
        assertEquals(1, bad.count());
        assertTrue(bad.first().get(0).contains("zstd stream is cut short"), bad.first().toString());
    }

    @Test
    void aFileThatOnlyStartsLikeZstdFailsAsAReadError() throws IOException {
        // readers turn an IOException into "LOG: cannot read: MESSAGE" (ReplaySource, FormatDetector)
        byte[] fake = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 1, 2, 3, 4, 5, 6, 7, 8};
        Path p = Files.write(dir.resolve("fake.zst"), fake);
        try (LogInput in = LogInput.open(p)) {
            assertEquals(LogInput.Compression.ZSTD, in.compression());
            IOException e = assertThrows(IOException.class, () -> in.stream().readAllBytes());
            assertTrue(e.getMessage() != null && !e.getMessage().contains("com."), e.getMessage());
        }
    }

    private static void assertRead(Path p, LogInput.Compression expected) throws IOException {
        try (LogInput in = LogInput.open(p)) {
            assertEquals(expected, in.compression());
            assertArrayEquals(TEXT, in.stream().readAllBytes());
        }
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    private static byte[] zstd(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream z = new ZstdOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }
}
