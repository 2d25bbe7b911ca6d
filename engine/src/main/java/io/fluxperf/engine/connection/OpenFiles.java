package io.fluxperf.engine.connection;

import io.fluxperf.engine.UserError;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * The process's open-file limit (RLIMIT_NOFILE, {@code ulimit -n}), against which every socket
 * counts. A run that needs more sockets than the limit leaves would fail the rest of its connects
 * with "Too many open files" and measure fewer connections than asked: it is refused up front, and
 * a connect that fails so anyway is told with the limit.
 */
public final class OpenFiles {
    /**
     * Descriptors kept free for what a run opens besides its load's sockets: each event loop's
     * epoll, event and timer descriptors, the trace's and the run directory's files, the admin
     * endpoint, the embedded target's listener.
     */
    static final long SPARE = 64;

    private OpenFiles() {
    }

    /** The most files this process may open, or -1 when the JVM does not tell. */
    public static long limit() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    /** The files this process has open now, or -1 when the JVM does not tell. */
    public static long open() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.UnixOperatingSystemMXBean unix ? unix.getOpenFileDescriptorCount() : -1;
    }

    /**
     * Refuses a run whose {@code sockets} do not fit in what the limit leaves.
     *
     * @param what what needs them, for the message, e.g. "--connections 1000 on 1 thread"
     * @throws UserError naming the limit and what to do
     */
    public static void requireRoomFor(long sockets, String what) {
        requireRoomFor(sockets, what, limit(), open());
    }

    static void requireRoomFor(long sockets, String what, long limit, long open) {
        if (limit < 0 || open < 0 || sockets + open + SPARE <= limit) {
            return;
        }
        throw new UserError(what + " needs " + sockets + " sockets, but this process may open only " + limit
                + " files (ulimit -n) and has " + open + " open: raise the limit (ulimit -n "
                + roundUp(sockets + open + SPARE) + ") or use fewer connections");
    }

    /** Whether {@code error} is the kernel's EMFILE or ENFILE: no descriptor left for a socket. */
    public static boolean exhausted(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (m != null && m.contains("Too many open files")) {
                return true;
            }
            if (t.getCause() == null) {
                break;
            }
        }
        return false;
    }

    /** A connect that failed for want of descriptors, told with the limit: "Too many open files (ulimit -n is 512)". */
    public static String describeExhausted() {
        long limit = limit();
        return "Too many open files" + (limit >= 0 ? " (this process may open " + limit + ": ulimit -n)" : " (ulimit -n)");
    }

    private static long roundUp(long n) {
        long step = n < 10_000 ? 1_024 : 8_192;
        return (n + step - 1) / step * step;
    }
}
