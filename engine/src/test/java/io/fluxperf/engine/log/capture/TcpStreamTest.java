package io.fluxperf.engine.log.capture;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One direction of a connection put back in order: segments in sequence order whatever the order
 * they were captured in, duplicates and overlaps dropped, sequence numbers wrapping, and the bytes
 * the capture lacks delivered as gaps of exact size, when the hole is proven (acknowledged beyond,
 * waited for, too much behind it, or the end).
 */
class TcpStreamTest {
    private static final long MS = 1_000_000L;

    /** What a stream delivered: "text" for data, "[gap n]" and "[snap n]" for gaps. */
    private static final class Delivered implements TcpStream.Receiver {
        final List<String> parts = new ArrayList<>();
        final StringBuilder text = new StringBuilder();

        @Override
        public void data(TcpStream stream, byte[] b, int from, int to, long timeNanos, long packet) {
            String s = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
            parts.add(s);
            text.append(s);
        }

        @Override
        public void gap(TcpStream stream, long n, boolean snap, long timeNanos, long packet) {
            String s = (snap ? "[snap " : "[gap ") + n + "]";
            parts.add(s);
            text.append(s);
        }
    }

    private static void seg(TcpStream s, int seq, String data, long t) {
        byte[] b = data.getBytes(StandardCharsets.ISO_8859_1);
        s.segment(seq, b, 0, b.length, 0, t, 0);
    }

    @Test
    void segmentsComeOutInSequenceOrderWithoutDuplicates() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        s.syn(99);
        seg(s, 100, "abc", 0);
        seg(s, 106, "ghi", 1);   // early
        seg(s, 103, "def", 2);   // fills the hole: def and ghi come out
        seg(s, 100, "abc", 3);   // a retransmission
        seg(s, 104, "efghij", 4); // overlaps what came: only "j" is new
        seg(s, 111, "l", 5);     // early again
        seg(s, 111, "l", 6);     // the same early segment twice
        seg(s, 110, "k", 7);
        assertEquals("abcdefghijkl", d.text.toString());
        assertEquals(3 + 5 + 1, s.duplicateBytes);
    }

    @Test
    void sequenceNumbersWrapAround() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        s.syn(0xfffffffa);
        seg(s, 0xfffffffb, "abcd", 0);
        seg(s, 0x00000003, "ijk", 1);   // beyond the wrap, early
        seg(s, 0xffffffff, "efgh", 2);  // crosses zero
        seg(s, 0xfffffffb, "ab", 3);    // old
        assertEquals("abcdefghijk", d.text.toString());
        s.fin(0x00000006);
        assertEquals(true, s.finished());
    }

    @Test
    void aHoleTheOtherSideAcknowledgedBecomesAGapAfterItsWait() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        s.syn(0);
        seg(s, 1, "aaaa", 0);
        seg(s, 11, "cc", MS);           // 5..10 never captured
        s.acknowledged(13, 2 * MS);     // the receiver got it all
        s.expireHole(50 * MS);
        assertEquals("aaaa", d.text.toString(), "waited for: a retransmission may still come");
        s.expireHole(2 * MS + TcpStream.ACKED_HOLE_NANOS);
        assertEquals("aaaa[gap 6]cc", d.text.toString());
    }

    @Test
    void aHoleNobodyAcknowledgedIsWaitedForLonger() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        s.syn(0);
        seg(s, 1, "a", 0);
        seg(s, 5, "e", MS);
        s.expireHole(MS + TcpStream.ACKED_HOLE_NANOS);
        assertEquals("a", d.text.toString());
        seg(s, 2, "bcd", 500 * MS); // the retransmission came
        assertEquals("abcde", d.text.toString());
        seg(s, 9, "i", 600 * MS);
        s.expireHole(600 * MS + TcpStream.HOLE_NANOS);
        assertEquals("abcde[gap 3]i", d.text.toString());
    }

    @Test
    void acknowledgedBytesThatNeverCameAreAGapAtTheEnd() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        s.syn(0);
        seg(s, 1, "ab", 0);
        s.acknowledged(10, MS);
        s.fin(10);
        s.flush(2 * MS);
        assertEquals("ab[gap 7]", d.text.toString());
    }

    @Test
    void tooMuchAfterAHoleDeclaresItAtOnce() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        s.syn(0);
        seg(s, 1, "a", 0);
        byte[] chunk = new byte[64 * 1024];
        int seq = 101; // 100 bytes lost after "a"
        for (int i = 0; i < TcpStream.MAX_EARLY_BYTES / chunk.length + 1; i++) {
            s.segment(seq, chunk, 0, chunk.length, 0, MS, 0);
            seq += chunk.length;
        }
        assertEquals("[gap 99]", d.parts.get(1));
        assertEquals(1 + 99 + (seq - 101), d.text.length() - "[gap 99]".length() + 99);
    }

    @Test
    void aSegmentCutBySnapLengthIsItsBytesThenASnapGap() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        s.syn(0);
        byte[] b = "abcdef".getBytes(StandardCharsets.ISO_8859_1);
        s.segment(1, b, 0, 3, 1000, 0, 0); // 3 bytes captured of 1,003
        seg(s, 1004, "xyz", MS);
        assertEquals(List.of("abc", "[snap 1000]", "xyz"), d.parts);
        // a retransmission of the cut segment, captured whole this time, adds nothing
        s.segment(1, new byte[1003], 0, 1003, 0, 2 * MS, 0);
        assertEquals(3, d.parts.size());
    }

    @Test
    void aStreamPickedUpMidwayStartsAtItsFirstSegment() {
        Delivered d = new Delivered();
        TcpStream s = new TcpStream(d);
        seg(s, 5000, "mid", 0);
        seg(s, 4990, "earlier", MS); // before where the capture began: dropped
        seg(s, 5003, "dle", 2 * MS);
        assertEquals("middle", d.text.toString());
        assertEquals(false, s.fromStart);
    }
}
