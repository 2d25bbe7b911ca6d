package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.UserError;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * One side of a captured connection: an address (IPv4 kept as its IPv4-mapped IPv6 address) and a
 * port. Shown as {@code 10.0.0.7:51234} or {@code [::1]:6379}.
 */
public record Endpoint(long hi, long lo, int port) {

    /**
     * {@code HOST:PORT} as {@code --capture-server} takes it: an IPv4 address, {@code [IPv6]}, or a
     * name (looked up once).
     *
     * @param flag the flag, for messages
     */
    public static Endpoint parse(String text, String flag) {
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new UserError(flag + ": '" + text + "' is not HOST:PORT (e.g. 10.0.0.5:11211 or [::1]:6379)");
        }
        String host = t.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.indexOf(':') >= 0) {
            throw new UserError(flag + ": '" + text + "': an IPv6 address goes in brackets, e.g. [::1]:6379");
        }
        int port;
        try {
            port = Integer.parseInt(t.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 1 || port > 65535) {
            throw new UserError(flag + ": '" + text + "': the port must be a number from 1 to 65535");
        }
        byte[] a;
        try {
            a = InetAddress.getByName(host).getAddress();
        } catch (UnknownHostException e) {
            throw new UserError(flag + ": '" + text + "': unknown host " + host);
        }
        if (a.length == 4) {
            int v4 = (a[0] & 0xff) << 24 | (a[1] & 0xff) << 16 | (a[2] & 0xff) << 8 | a[3] & 0xff;
            return new Endpoint(0, TcpSegment.mappedLo(v4), port);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = hi << 8 | (a[i] & 0xff);
            lo = lo << 8 | (a[i + 8] & 0xff);
        }
        return new Endpoint(hi, lo, port);
    }

    boolean ipv4() {
        return hi == 0 && (lo >>> 32) == 0xffff;
    }

    boolean is(long h, long l, int p) {
        return port == p && lo == l && hi == h;
    }

    /** The address alone: {@code 10.0.0.7} or {@code ::1}. */
    public String address() {
        if (ipv4()) {
            return ((lo >>> 24) & 0xff) + "." + ((lo >>> 16) & 0xff) + "." + ((lo >>> 8) & 0xff) + "." + (lo & 0xff);
        }
        int[] words = new int[8];
        for (int i = 0; i < 4; i++) {
            words[i] = (int) (hi >>> (48 - 16 * i)) & 0xffff;
            words[i + 4] = (int) (lo >>> (48 - 16 * i)) & 0xffff;
        }
        // RFC 5952: the longest run of two or more zero words becomes "::"
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            if (words[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && words[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLength - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(words[i]).toLowerCase(Locale.ROOT));
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return ipv4() ? address() + ":" + port : "[" + address() + "]:" + port;
    }
}
