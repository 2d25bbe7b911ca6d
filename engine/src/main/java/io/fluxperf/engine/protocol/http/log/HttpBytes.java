package io.fluxperf.engine.protocol.http.log;

/**
 * What an HTTP/1.1 reader of a capture looks for in a request's or response's head lines
 * (RFC 9112), read in place in their bytes.
 */
final class HttpBytes {
    private HttpBytes() {
    }

    /** {@code HTTP/1.x SP 3DIGIT …}: the status code, or -1. */
    static int statusOf(byte[] l, int n) {
        if (n < 12 || !startsWith(l, 0, "HTTP/1.") || l[8] != ' ') {
            return -1;
        }
        int s = 0;
        for (int i = 9; i < 12; i++) {
            if (l[i] < '0' || l[i] > '9') {
                return -1;
            }
            s = s * 10 + (l[i] - '0');
        }
        return s;
    }

    /** A chunk size line: hex digits, then optional extensions after ';'; -1 when not. */
    static long chunkSize(byte[] l, int n) {
        long v = 0;
        int digits = 0;
        int i = 0;
        for (; i < n; i++) {
            int c = l[i];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (d < 0) {
                break;
            }
            if (++digits > 15) {
                return -1;
            }
            v = v << 4 | d;
        }
        while (i < n && (l[i] == ' ' || l[i] == '\t')) {
            i++;
        }
        return digits == 0 || i < n && l[i] != ';' ? -1 : v;
    }

    static long decimal(byte[] l, int from, int to) {
        while (from < to && (l[from] == ' ' || l[from] == '\t')) {
            from++;
        }
        while (to > from && (l[to - 1] == ' ' || l[to - 1] == '\t')) {
            to--;
        }
        if (from == to || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            if (l[i] < '0' || l[i] > '9') {
                return -1;
            }
            v = v * 10 + (l[i] - '0');
        }
        return v;
    }

    static boolean nameIs(byte[] l, int colon, String lower) {
        if (colon != lower.length()) {
            return false;
        }
        for (int i = 0; i < colon; i++) {
            int c = l[i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the comma-separated list {@code l[from, to)} ends with {@code token} (case-insensitive). */
    static boolean endsWithToken(byte[] l, int from, int to, String token) {
        while (to > from && (l[to - 1] == ' ' || l[to - 1] == '\t')) {
            to--;
        }
        int start = to - token.length();
        if (start < from) {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            int c = l[start + i];
            if (c >= 'A' && c <= 'Z') {
                c += 32;
            }
            if (c != token.charAt(i)) {
                return false;
            }
        }
        return start == from || l[start - 1] == ' ' || l[start - 1] == ',' || l[start - 1] == '\t';
    }

    static int indexOf(byte[] l, int from, int to, byte c) {
        for (int i = from; i < to; i++) {
            if (l[i] == c) {
                return i;
            }
        }
        return -1;
    }

    static boolean startsWith(byte[] l, int at, String s) {
        if (l.length - at < s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (l[at + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
