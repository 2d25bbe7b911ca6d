package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.SpaceTokens;
import io.fluxperf.engine.log.capture.CommandSink;
import io.fluxperf.engine.log.capture.LineBuffer;
import io.fluxperf.engine.log.capture.StatedLength;
import io.fluxperf.engine.log.capture.WaitingCommands;

/**
 * The server's side of one captured memcached connection: its text and binary replies, each into
 * the original outcome of the command it answers, by the rules of fluxperf's own codecs (a get is
 * a hit when every key was found; NOT_STORED, EXISTS and NOT_FOUND and binary statuses 1, 2 and 5
 * are misses; error replies are errors). Text replies answer the waiting commands in order; binary
 * replies are matched by opaque and opcode, and a quiet command (GetQ, SetQ, …) that a later reply
 * passes over was answered by silence (a get's miss, a write's success). A reply's value is only
 * counted, never held.
 */
final class MemcacheReplyReader {
    /** The longest reply line. */
    static final int MAX_REPLY_LINE = 64 << 10;
    private static final int MAX_TOKENS = 256;

    // reply kinds the FIFO remembers
    static final byte K_GET = 0;
    static final byte K_LINE = 1;
    static final byte K_LIST = 2; // stats, lru_crawler metadump: lines until END
    static final byte K_BINARY = 3;
    /**
     * A quiet meta command: answered only for some outcomes. An {@code MN} (the reply to the
     * {@code mn} a client ends a quiet batch with) reaching it means silence: a get's miss, a
     * write's success. Any other reply reaching it no longer pairs with the commands, and the
     * connection's outcomes from there on are unknown.
     */
    static final byte K_QUIET = 4;

    // reply states
    private static final int T_LINE = 0;
    private static final int T_DATA = 1;
    private static final int T_BIN_HEADER = 2;
    private static final int T_BIN_BODY = 3;
    private static final int T_DEAD = 4;

    private final WaitingCommands waiting;
    private final SpaceTokens words = new SpaceTokens(MAX_TOKENS);
    private int tState;
    private final LineBuffer reply = new LineBuffer();
    private int hits;
    private boolean inList;
    private final StatedLength replyData = new StatedLength();
    private boolean replyValueEnds;
    private final byte[] replyHeader = new byte[MemcacheBinaryRequest.HEADER];
    private int replyHeaderLength;
    private final StatedLength replyBody = new StatedLength();

    /** @param waiting the connection's commands that wait for their replies, each with its kind ({@code K_*}) */
    MemcacheReplyReader(WaitingCommands waiting) {
        this.waiting = waiting;
    }

    /** Readies for a new connection. */
    void reset() {
        tState = T_LINE;
        reply.clear();
        hits = 0;
        inList = false;
        replyHeaderLength = 0;
    }

    void reply(byte[] b, int from, int to, CommandSink out) {
        int p = from;
        while (p < to && tState != T_DEAD) {
            switch (tState) {
                case T_LINE -> {
                    if (reply.length() == 0 && b[p] == (byte) 0x81) {
                        replyHeaderLength = 0;
                        tState = T_BIN_HEADER;
                        break;
                    }
                    p = reply.feed(b, p, to, MAX_REPLY_LINE);
                    if (reply.tooLong()) {
                        lose(out);
                        return;
                    }
                    if (reply.done()) {
                        replyLine(reply.bytes(), reply.length(), out);
                        reply.clear();
                    }
                }
                case T_DATA -> {
                    p += replyData.take(to - p);
                    if (replyData.done()) {
                        replyDataDone(out);
                    }
                }
                case T_BIN_HEADER -> {
                    int n = Math.min(MemcacheBinaryRequest.HEADER - replyHeaderLength, to - p);
                    System.arraycopy(b, p, replyHeader, replyHeaderLength, n);
                    replyHeaderLength += n;
                    p += n;
                    if (replyHeaderLength == MemcacheBinaryRequest.HEADER) {
                        replyBody.start(MemcacheBinaryOps.int32(replyHeader, 8) & 0xffffffffL, 0);
                        tState = T_BIN_BODY;
                        if (replyBody.done()) {
                            binaryReply(out);
                        }
                    }
                }
                case T_BIN_BODY -> {
                    p += replyBody.take(to - p);
                    if (replyBody.done()) {
                        binaryReply(out);
                    }
                }
                default -> throw new IllegalStateException("reply state " + tState);
            }
        }
    }

    void replyGap(long n, CommandSink out) {
        if (tState == T_DATA && replyData.skip(n)) {
            if (replyData.done()) {
                replyDataDone(out);
            }
        } else if (tState == T_BIN_BODY && replyBody.skip(n)) {
            if (replyBody.done()) {
                binaryReply(out);
            }
        } else if (tState != T_DEAD) {
            lose(out);
        }
    }

    private void lose(CommandSink out) {
        tState = T_DEAD;
        out.repliesLost();
    }

    /** A whole text reply line {@code r[0, end)}. */
    private void replyLine(byte[] r, int end, CommandSink out) {
        if (!waiting.isEmpty() && waiting.kind() == K_QUIET) {
            if (!(end == 2 && r[0] == 'M' && r[1] == 'N')) {
                lose(out); // the quiet command's reply, or a later one's: they no longer pair
                return;
            }
            while (!waiting.isEmpty() && waiting.kind() == K_QUIET) {
                byte silence = (byte) waiting.value();
                out.settle(waiting.take(), silence);
            }
        }
        if (startsWith(r, end, "VALUE ")) {
            int tokens = words.split(r, 0, end);
            long bytes = tokens >= 4 ? MemcacheWatchReader.number(r, words.from[3], words.to[3]) : -1;
            if (bytes < 0) {
                lose(out);
                return;
            }
            hits++;
            inList = true;
            replyData.start(bytes + 2, 0);
            replyValueEnds = false;
            tState = T_DATA;
            return;
        }
        if (startsWith(r, end, "VA ")) { // a meta get's value: the reply ends after it
            int tokens = words.split(r, 0, end);
            long bytes = tokens >= 2 ? MemcacheWatchReader.number(r, words.from[1], words.to[1]) : -1;
            if (bytes < 0) {
                lose(out);
                return;
            }
            replyData.start(bytes + 2, 0);
            replyValueEnds = true;
            tState = T_DATA;
            return;
        }
        int kind = waiting.isEmpty() ? K_LINE : waiting.kind();
        boolean end3 = end == 3 && r[0] == 'E' && r[1] == 'N' && r[2] == 'D';
        if (kind == K_LIST && !end3 && !isError(r, end)) {
            return; // STAT … and metadump lines, until END
        }
        byte outcome;
        if (end3) {
            outcome = kind == K_GET && hits < waiting.value() ? LogEntry.REPLY_MISS : LogEntry.REPLY_OK;
            if (kind == K_GET && waiting.value() == 0) {
                outcome = hits > 0 ? LogEntry.REPLY_OK : LogEntry.REPLY_MISS;
            }
        } else {
            outcome = lineOutcome(r, end);
        }
        replyDone(outcome, out);
    }

    private void replyDataDone(CommandSink out) {
        tState = T_LINE;
        if (replyValueEnds) {
            replyDone(LogEntry.REPLY_OK, out);
        }
    }

    private void replyDone(byte outcome, CommandSink out) {
        hits = 0;
        inList = false;
        if (waiting.noneFor(out)) {
            return;
        }
        if ((waiting.kind() & 0xff) == K_BINARY) {
            lose(out); // a text reply to a binary command: the streams are out of step
            return;
        }
        out.settle(waiting.take(), outcome);
    }

    /** A whole binary reply: matched to its command by opaque and opcode; quiet commands passed over were answered by silence. */
    private void binaryReply(CommandSink out) {
        tState = T_LINE;
        int opcode = replyHeader[1] & 0xff;
        int status = (replyHeader[6] & 0xff) << 8 | replyHeader[7] & 0xff;
        int keyLength = (replyHeader[2] & 0xff) << 8 | replyHeader[3] & 0xff;
        int opaque = MemcacheBinaryOps.int32(replyHeader, 12);
        if (replyHeader[0] != (byte) 0x81) {
            lose(out);
            return;
        }
        while (!waiting.isEmpty()) {
            if ((waiting.kind() & 0xff) != K_BINARY) {
                lose(out);
                return;
            }
            int op = waiting.kind() >>> 8;
            if (waiting.value() == opaque && op == opcode) {
                if (op == MemcacheBinaryOps.STAT && keyLength > 0) {
                    return; // a STAT reply goes on until one with an empty key
                }
                out.settle(waiting.take(), MemcacheBinaryOps.outcome(op, status));
                return;
            }
            if (!MemcacheBinaryOps.quiet(op)) {
                lose(out); // a loud command that got no reply of its own: out of step
                return;
            }
            out.settle(waiting.take(), MemcacheBinaryOps.silence(op));
        }
        waiting.noneFor(out);
    }

    private static byte lineOutcome(byte[] r, int end) {
        if (isError(r, end)) {
            return LogEntry.REPLY_ERROR;
        }
        if (is(r, 0, end, "NOT_STORED") || is(r, 0, end, "EXISTS") || is(r, 0, end, "NOT_FOUND")
                || is(r, 0, end, "EN") || is(r, 0, end, "NF") || is(r, 0, end, "NS") || is(r, 0, end, "EX")) {
            return LogEntry.REPLY_MISS;
        }
        return LogEntry.REPLY_OK;
    }

    private static boolean isError(byte[] r, int end) {
        return is(r, 0, end, "ERROR") || startsWith(r, end, "ERROR ") || startsWith(r, end, "CLIENT_ERROR")
                || startsWith(r, end, "SERVER_ERROR");
    }

    private static boolean startsWith(byte[] r, int end, String prefix) {
        if (end < prefix.length()) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (r[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static boolean is(byte[] b, int from, int to, String text) {
        if (to - from != text.length()) {
            return false;
        }
        for (int k = 0; k < text.length(); k++) {
            if (b[from + k] != text.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
