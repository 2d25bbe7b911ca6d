package io.fluxperf.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PrintableTest {
    @Test
    void controlCharactersAreEscapedAndNothingElse() {
        assertEquals("a\\r\\n\\tb\\x1b[2J\\x07\\x7f\\x9bé €", Printable.quote("a\r\n\tb\u001b[2J\u0007\u007f\u009bé €"));
        String clean = "VALUE k 0 5 — ok";
        assertSame(clean, Printable.quote(clean), "clean text is returned as it is");
        String once = Printable.quote("x\u001by\\z");
        assertEquals(once, Printable.quote(once), "escaping twice changes nothing more");
        assertEquals("x\\x1by\\z", once, "a backslash is left as it is");
    }

    @Test
    void aMessageKeepsItsLineEnds() {
        assertEquals("one\\x1b[2J\ntwo\\r", Printable.message("one\u001b[2J\ntwo\r"));
    }

    @Test
    void bytesAreReadOneCharacterEach() {
        byte[] b = "get \u001b]0;t\u0007\u009b".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("get \\x1b]0;t\\x07\\x9b", Printable.bytes(b, 0, b.length));
        assertEquals("\\x1b]0", Printable.bytes(Unpooled.wrappedBuffer(b), 4, 3));
    }
}
