package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.LogEntry;

/** redis' inline commands (a line of words, as telnet and redis-cli's inline mode send): their splitting into arguments. */
final class RedisInline {
    private RedisInline() {
    }

    /**
     * Splits an inline command {@code l[0, end)} into {@code e}'s arguments as redis'
     * {@code sdssplitargs} does: words apart by blanks, "double quotes" with C escapes and \xHH,
     * 'single quotes' with \' only. False for unbalanced quotes (redis refuses the command).
     */
    static boolean split(byte[] l, int end, LogEntry e) {
        int p = 0;
        while (true) {
            while (p < end && (l[p] == ' ' || l[p] == '\t' || l[p] == '\r' || l[p] == '\n')) {
                p++;
            }
            if (p >= end) {
                return true;
            }
            int out = e.beginArg(end - p);
            byte[] a = e.args;
            boolean dq = false;
            boolean sq = false;
            while (true) {
                if (dq) {
                    if (p >= end) {
                        return false;
                    }
                    byte c = l[p];
                    if (c == '\\' && p + 3 < end && l[p + 1] == 'x' && hex(l[p + 2]) >= 0 && hex(l[p + 3]) >= 0) {
                        a[out++] = (byte) (hex(l[p + 2]) << 4 | hex(l[p + 3]));
                        p += 4;
                    } else if (c == '\\' && p + 1 < end) {
                        byte x = l[p + 1];
                        a[out++] = switch (x) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> x;
                        };
                        p += 2;
                    } else if (c == '"') {
                        p++;
                        if (p < end && l[p] != ' ' && l[p] != '\t') {
                            return false;
                        }
                        break;
                    } else {
                        a[out++] = c;
                        p++;
                    }
                } else if (sq) {
                    if (p >= end) {
                        return false;
                    }
                    byte c = l[p];
                    if (c == '\\' && p + 1 < end && l[p + 1] == '\'') {
                        a[out++] = '\'';
                        p += 2;
                    } else if (c == '\'') {
                        p++;
                        if (p < end && l[p] != ' ' && l[p] != '\t') {
                            return false;
                        }
                        break;
                    } else {
                        a[out++] = c;
                        p++;
                    }
                } else {
                    if (p >= end) {
                        break;
                    }
                    byte c = l[p];
                    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                        break;
                    } else if (c == '"') {
                        dq = true;
                        p++;
                    } else if (c == '\'') {
                        sq = true;
                        p++;
                    } else {
                        a[out++] = c;
                        p++;
                    }
                }
            }
            e.endArg(out);
        }
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
