package io.fluxperf.engine.log.capture;

import com.github.luben.zstd.ZstdOutputStream;
import io.fluxperf.engine.UserError;
import io.fluxperf.testkit.CaptureWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two file formats: pcap in both byte orders and resolutions, pcapng with several interfaces
 * and blocks to skip, compressed files; and every kind of damage as one sentence that names the
 * file and the byte offset.
 */
class CaptureFileTest {
    private static final long T0 = 1_796_000_000_123_456_789L;

    @TempDir
    Path dir;

    private static CaptureWriter oneCommand() {
        CaptureWriter w = new CaptureWriter();
        w.connection("10.0.0.7", 51234, "10.0.0.5", 6379).open(T0).send(T0 + 1_000_000, "*1\r\n$4\r\nPING\r\n")
                .reply(T0 + 2_000_000, "+PONG\r\n");
        return w;
    }

    private static List<Long> times(byte[] file) throws IOException {
        CaptureFile f = new CaptureFile("t.pcap", new ByteArrayInputStream(file));
        List<Long> out = new java.util.ArrayList<>();
        while (f.next()) {
            out.add(f.timeNanos());
        }
        return out;
    }

    @Test
    void pcapInBothByteOrdersAndResolutionsAndPcapngReadTheSameTimes() throws IOException {
        List<Long> nanos = times(oneCommand().format(CaptureWriter.Format.PCAPNG).bytes());
        assertEquals(5, nanos.size());
        assertEquals(T0, nanos.get(0));
        assertEquals(nanos, times(oneCommand().format(CaptureWriter.Format.PCAP_NANOS_LE).bytes()));
        assertEquals(nanos, times(oneCommand().format(CaptureWriter.Format.PCAP_NANOS_BE).bytes()));
        List<Long> micros = nanos.stream().map(t -> t / 1000 * 1000).toList();
        assertEquals(micros, times(oneCommand().format(CaptureWriter.Format.PCAP_MICROS_LE).bytes()));
        assertEquals(micros, times(oneCommand().format(CaptureWriter.Format.PCAP_MICROS_BE).bytes()));
    }

    /** A pcapng block of a type fluxperf skips (name resolution, interface statistics), with a body of {@code n} bytes. */
    private static byte[] otherBlock(int type, int n) {
        ByteBuffer b = ByteBuffer.allocate(12 + n).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(type).putInt(12 + n).put(new byte[n]).putInt(12 + n);
        return b.array();
    }

    /** A pcapng simple packet block (interface 0, no timestamp of its own). */
    private static byte[] simplePacket(byte[] frame) {
        int padded = (frame.length + 3) & ~3;
        ByteBuffer b = ByteBuffer.allocate(16 + padded).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(3).putInt(16 + padded).putInt(frame.length).put(frame);
        b.position(12 + padded);
        b.putInt(16 + padded);
        return b.array();
    }

    @Test
    void pcapngWithSeveralInterfacesSectionsAndBlocksToSkip() throws IOException {
        CaptureWriter ethernet = new CaptureWriter().link(CaptureWriter.Link.ETHERNET);
        CaptureWriter sll2 = new CaptureWriter().link(CaptureWriter.Link.LINUX_SLL2);
        CaptureWriter.Connection c = ethernet.connection("10.0.0.7", 51234, "10.0.0.5", 6379);
        c.open(T0).send(T0 + 1_000_000, "*1\r\n$4\r\nPING\r\n").reply(T0 + 2_000_000, "+PONG\r\n")
                .send(T0 + 3_000_000, "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n").reply(T0 + 4_000_000, "$-1\r\n");
        List<CaptureWriter.Packet> p = ethernet.packets();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(CaptureWriter.sectionHeader());
        out.writeBytes(CaptureWriter.interfaceBlock(1, 65535, false)); // 0: Ethernet, microseconds (no if_tsresol)
        out.writeBytes(CaptureWriter.interfaceBlock(276, 65535, true)); // 1: Linux cooked v2, nanoseconds
        out.writeBytes(otherBlock(4, 8)); // name resolution
        for (int i = 0; i < 4; i++) {
            CaptureWriter.Packet q = p.get(i);
            byte[] frame = i % 2 == 0 ? ethernet.frame(q) : sll2.frame(q);
            out.writeBytes(i % 2 == 0 ? CaptureWriter.enhancedPacketUnits(0, q.timeNanos / 1000, frame, frame.length)
                    : CaptureWriter.enhancedPacketUnits(1, q.timeNanos, frame, frame.length));
        }
        out.writeBytes(simplePacket(ethernet.frame(p.get(4)))); // the PONG: no timestamp, keeps the last
        out.writeBytes(otherBlock(5, 16)); // interface statistics
        out.writeBytes(CaptureWriter.sectionHeader()); // a second section: interface ids start again
        out.writeBytes(CaptureWriter.interfaceBlock(276, 65535, true));
        for (int i = 5; i < p.size(); i++) {
            byte[] frame = sll2.frame(p.get(i));
            out.writeBytes(CaptureWriter.enhancedPacketUnits(0, p.get(i).timeNanos, frame, frame.length));
        }
        Path file = dir.resolve("two-interfaces.pcapng");
        write(file, out.toByteArray());
        CaptureReaderTest.Result r = CaptureReaderTest.read(file, List.of());
        assertEquals(List.of(new CaptureReaderTest.Read("PING", 0, T0 + 1_000_000, 4, (byte) 1),
                new CaptureReaderTest.Read("GET k", 0, T0 + 3_000_000, 6, (byte) 2)), r.commands());
        assertTrue(r.notes().get(0).startsWith("pcapng (nanosecond timestamps), Ethernet, Linux cooked v2, snap length"
                + " 65,535 bytes: 7 packets"), r.notes().get(0));
    }

    @Test
    void truncatedFilesAndOtherDamageAreOneSentenceWithTheByteOffset() throws IOException {
        byte[] whole = oneCommand().bytes();
        UserError header = assertThrows(UserError.class,
                () -> times(Arrays.copyOf(whole, 10)));
        assertEquals("t.pcap: cut short at byte 10, inside the 24-byte pcap file header", header.getMessage());
        int cut = whole.length - 20;
        UserError record = assertThrows(UserError.class, () -> times(Arrays.copyOf(whole, cut)));
        assertTrue(record.getMessage().startsWith("t.pcap: cut short at byte " + cut + ", inside packet 5 (its record at byte "),
                record.getMessage());
        UserError text = assertThrows(UserError.class, () -> times("hello world\n".getBytes()));
        assertEquals("t.pcap: not a packet capture (it starts with 68 65 6c 6c, not the magic number of pcap or pcapng)",
                text.getMessage());
        byte[] ng = oneCommand().format(CaptureWriter.Format.PCAPNG).bytes();
        byte[] bad = ng.clone();
        bad[bad.length - 1] = 9; // the last block's trailing length
        UserError mismatch = assertThrows(UserError.class, () -> times(bad));
        assertTrue(mismatch.getMessage().matches("t\\.pcap: the pcapng block at byte \\d+ ends with another length than it"
                + " starts with \\(\\d+, not \\d+\\): the file is damaged"), mismatch.getMessage());
        byte[] huge = whole.clone();
        ByteBuffer.wrap(huge, 24 + 8, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(0x7fffffff);
        UserError claims = assertThrows(UserError.class, () -> times(huge));
        assertEquals("t.pcap: packet 1 at byte 24 claims 2147483647 bytes, more than a capture holds: the file is damaged",
                claims.getMessage());
    }

    @Test
    void anUnknownLinkTypeIsNamedWithItsPacketAndByte() {
        byte[] file = oneCommand().bytes();
        ByteBuffer.wrap(file, 20, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(147);
        Path p = dir.resolve("usb.pcap");
        write(p, file);
        UserError e = assertThrows(UserError.class, () -> CaptureFormat.INSTANCE.prepare(p, List.of(), null));
        assertEquals(p + ": packet 1 (byte 24) has link type 147, which fluxperf does not read; it reads Ethernet (1),"
                + " Linux cooked v1 (113) and v2 (276), raw IP (101, 228, 229) and BSD loopback (0, 108)", e.getMessage());
    }

    @Test
    void gzipAndZstdCapturesReadAsThePlainOne() throws IOException {
        byte[] plain = oneCommand().bytes();
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (OutputStream o = new GZIPOutputStream(gz)) {
            o.write(plain);
        }
        ByteArrayOutputStream zst = new ByteArrayOutputStream();
        try (OutputStream o = new ZstdOutputStream(zst)) {
            o.write(plain);
        }
        for (byte[] file : List.of(plain, gz.toByteArray(), zst.toByteArray())) {
            Path p = dir.resolve("c" + file.length + ".pcap.x");
            write(p, file);
            CaptureReaderTest.Result r = CaptureReaderTest.read(p, List.of());
            assertEquals(List.of("PING"), r.commands().stream().map(CaptureReaderTest.Read::words).toList());
        }
    }

    private static void write(Path p, byte[] b) {
        try {
            Files.write(p, b);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void recognizesTheMagicNumbersOnly() {
        assertTrue(CaptureFile.recognizes(oneCommand().bytes(), 4));
        assertTrue(CaptureFile.recognizes(oneCommand().format(CaptureWriter.Format.PCAP_NANOS_BE).bytes(), 4));
        assertTrue(CaptureFile.recognizes(oneCommand().format(CaptureWriter.Format.PCAPNG).bytes(), 4));
        assertFalse(CaptureFile.recognizes("get k\r\n".getBytes(), 7));
        assertFalse(CaptureFile.recognizes(new byte[] {(byte) 0xa1, (byte) 0xb2}, 2));
    }
}
