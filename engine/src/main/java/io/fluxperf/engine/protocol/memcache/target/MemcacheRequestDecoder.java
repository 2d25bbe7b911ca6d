package io.fluxperf.engine.protocol.memcache.target;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Frames the memcache text protocol on the server side: a command line ending in LF (CRLF or a bare
 * LF, as memcached accepts), and after a storage command a data block of the length it named plus
 * CRLF. A resumable state machine: {@link #decode} consumes what it can of a buffer and returns
 * when it needs more, so requests may be pipelined and split at any byte, and a multi-megabyte
 * value is copied straight from the reads into its array, never accumulated.
 *
 * <p>The decoder only frames; what a line means, and whether a data block follows it, is the
 * {@link Sink}'s decision ({@link #expectData}, {@link #swallow}, {@link #stop}). It never throws
 * on bad input. The one framing error it handles itself is memcached's: more than
 * {@value #MAX_LINE} bytes without a line end closes the connection, unless the line is a
 * multi-key get, which may run to {@value #MAX_GET_LINE} bytes.
 */
final class MemcacheRequestDecoder {
    /** memcached closes a connection whose unfinished line passes this length (and is not a get). */
    static final int MAX_LINE = 2048;
    /** Our bound on a multi-key get line (memcached grows its buffer for these). */
    static final int MAX_GET_LINE = 1 << 20;
    /** Values up to this are allocated whole when announced; larger ones grow as their bytes arrive. */
    private static final int PREALLOCATE_VALUE = 64 << 10;

    private static final int LINE = 0;
    private static final int DATA = 1;
    private static final int DATA_END = 2;
    private static final int SWALLOW = 3;
    private static final int STOPPED = 4;

    /** What the decoded frames mean; the decoder calls it on the connection's event loop. */
    interface Sink {
        /** A complete command line (without its line end); the sink may call expectData, swallow or stop. */
        void onLine(CommandLine line, MemcacheRequestDecoder decoder);

        /** The data block announced by the last line: the value and whether CRLF followed it. */
        void onData(byte[] value, boolean endsWithCrlf);

        /** A get line longer than {@link #MAX_GET_LINE}; the decoder stops after this. */
        void onLineTooLong();
    }

    private final CommandLine line = new CommandLine();
    private int state = LINE;
    /** Bytes of the current unfinished line already searched for LF. */
    private int scanned;
    private byte[] data;
    private int dataLength;
    private int filled;
    private int endBytesSeen;
    private boolean endOk;
    private long swallowLeft;

    /** After the current line: read a data block of {@code length} bytes and its CRLF. */
    void expectData(int length) {
        state = DATA;
        dataLength = length;
        filled = 0;
        data = new byte[Math.min(length, PREALLOCATE_VALUE)];
        if (length == 0) {
            beginDataEnd();
        }
    }

    /** After the current line: skip {@code length} bytes (a refused value and its CRLF). */
    void swallow(long length) {
        state = length > 0 ? SWALLOW : LINE;
        swallowLeft = length;
    }

    /** Ignore all further input; the connection is closing. */
    void stop() {
        state = STOPPED;
        data = null;
    }

    boolean stopped() {
        return state == STOPPED;
    }

    /** Consumes whole frames from {@code in}, and a partial data block; leaves an unfinished line in it. */
    void decode(ByteBuf in, Sink sink) {
        while (in.isReadable()) {
            switch (state) {
                case LINE -> {
                    if (!decodeLine(in, sink)) {
                        return;
                    }
                }
                case DATA -> readData(in);
                case DATA_END -> {
                    if (!readDataEnd(in, sink)) {
                        return;
                    }
                }
                case SWALLOW -> {
                    int n = (int) Math.min(in.readableBytes(), swallowLeft);
                    in.skipBytes(n);
                    swallowLeft -= n;
                    if (swallowLeft == 0) {
                        state = LINE;
                    }
                }
                default -> {
                    in.skipBytes(in.readableBytes());
                    return;
                }
            }
        }
    }

    private boolean decodeLine(ByteBuf in, Sink sink) {
        int start = in.readerIndex();
        int end = in.writerIndex();
        int lf = in.indexOf(start + scanned, end, (byte) '\n');
        if (lf < 0) {
            scanned = end - start;
            if (scanned > MAX_LINE && !isGetLine(in, start, end)) {
                stop(); // memcached closes without a reply: this is not a protocol client
                in.skipBytes(scanned);
            } else if (scanned > MAX_GET_LINE) {
                sink.onLineTooLong();
                stop();
                in.skipBytes(scanned);
            }
            return false;
        }
        scanned = 0;
        int lineEnd = lf > start && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        line.load(in, start, lineEnd);
        in.readerIndex(lf + 1);
        sink.onLine(line, this);
        if (lineEnd - start > MAX_LINE) {
            line.trim();
        }
        return state != STOPPED;
    }

    private void readData(ByteBuf in) {
        int n = Math.min(in.readableBytes(), dataLength - filled);
        if (data.length < filled + n) {
            data = Arrays.copyOf(data, (int) Math.min(dataLength, Math.max(filled + n, 2L * data.length)));
        }
        in.readBytes(data, filled, n);
        filled += n;
        if (filled == dataLength) {
            beginDataEnd();
        }
    }

    private void beginDataEnd() {
        state = DATA_END;
        endBytesSeen = 0;
        endOk = true;
    }

    /** The two bytes after a value; memcached reads them as part of the block and checks they are CRLF. */
    private boolean readDataEnd(ByteBuf in, Sink sink) {
        while (endBytesSeen < 2 && in.isReadable()) {
            byte b = in.readByte();
            if (b != (endBytesSeen == 0 ? '\r' : '\n')) {
                endOk = false;
            }
            endBytesSeen++;
        }
        if (endBytesSeen < 2) {
            return false;
        }
        byte[] value = data;
        data = null;
        state = LINE;
        sink.onData(value, endOk);
        return true;
    }

    /** memcached's exception for long unfinished lines: at most 100 leading spaces, then "get " or "gets ". */
    private static boolean isGetLine(ByteBuf in, int start, int end) {
        int i = start;
        while (i < end && in.getByte(i) == ' ') {
            i++;
        }
        if (i - start > 100) {
            return false;
        }
        return startsWith(in, i, end, "get ") || startsWith(in, i, end, "gets ");
    }

    private static boolean startsWith(ByteBuf in, int from, int end, String prefix) {
        if (end - from < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (in.getByte(from + i) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
