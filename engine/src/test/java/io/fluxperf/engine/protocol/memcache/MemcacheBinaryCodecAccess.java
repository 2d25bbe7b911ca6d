package io.fluxperf.engine.protocol.memcache;

import io.netty.buffer.Unpooled;

/** Test access: brings a fresh codec's opaque sequence to {@code opaque} by encoding flushes. */
final class MemcacheBinaryCodecAccess {
    private MemcacheBinaryCodecAccess() {
    }

    static void skipTo(MemcacheBinaryCodec codec, int opaque) {
        io.fluxperf.engine.request.Request flush = new io.fluxperf.engine.request.Request().reset()
                .command(io.fluxperf.engine.request.Command.FLUSH, 0);
        for (int i = 0; i < opaque; i++) {
            codec.encode(flush, Unpooled.buffer());
            try {
                codec.decode(Unpooled.wrappedBuffer(MemcacheBinaryCodecTest.reply(0x08, 0, i, new byte[0], "", new byte[0])), flush);
            } catch (io.fluxperf.engine.protocol.ProtocolException e) {
                throw new AssertionError(e);
            }
        }
    }
}
