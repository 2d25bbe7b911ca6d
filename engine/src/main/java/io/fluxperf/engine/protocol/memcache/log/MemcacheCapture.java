package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.capture.CaptureProtocol;
import io.fluxperf.engine.log.capture.ConnectionReader;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * memcached connections read from a packet capture ({@link MemcacheConnectionReader}): text, meta
 * and binary protocol, told apart per command. A connection is told by its first bytes: a binary
 * request header (magic 0x80 and a known opcode) is {@code memcache-binary}, a meta command's verb
 * ({@code mg}, {@code ms}, …) followed by a space or a line end {@code memcache-meta}, a text
 * command's {@code memcache}. A server whose clients all speak binary is replayed with the binary
 * protocol, one whose clients all speak meta with the meta protocol, any other with the text
 * protocol (which sends what a mix of them sent).
 */
public final class MemcacheCapture implements CaptureProtocol {
    public static final MemcacheCapture INSTANCE = new MemcacheCapture();

    private MemcacheCapture() {
    }

    @Override
    public List<String> protocols() {
        return List.of("memcache", "memcache-binary", "memcache-meta");
    }

    @Override
    public String recognize(byte[] b, int from, int to) {
        if (to - from >= 2 && b[from] == (byte) 0x80) {
            return MemcacheBinaryOps.known(b[from + 1]) ? "memcache-binary" : null;
        }
        int p = from;
        while (p < to && (b[p] >= 'a' && b[p] <= 'z' || b[p] == '_')) {
            p++;
        }
        if (p == from || p == to || b[p] != ' ' && b[p] != '\r' && b[p] != '\n') {
            return null;
        }
        String verb = new String(b, from, p - from, StandardCharsets.ISO_8859_1);
        if (MemcacheConnectionReader.META.contains(verb)) {
            return "memcache-meta";
        }
        return MemcacheVerbs.command(verb) != null || MemcacheConnectionReader.ADMIN.contains(verb) ? "memcache" : null;
    }

    @Override
    public ConnectionReader newReader(ReaderContext ctx) {
        return new MemcacheConnectionReader(ctx);
    }
}
