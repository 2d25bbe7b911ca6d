package io.fluxperf.engine.pause;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * One thread's {@code /proc/.../task/TID/schedstat}: the kernel's time on a CPU, time waiting on
 * a run queue (runnable but not running) and number of time slices, read again from the same open
 * file each time (opening it costs about ten times a read). Not thread-safe.
 *
 * <p>A {@link RandomAccessFile}, not a {@code FileChannel}: the detector reads hundreds of these a
 * second, and a channel's read into a heap buffer runs some fifteen JDK methods (a temporary
 * direct buffer, the interruptible-channel bookkeeping) that C2 then compiled in the measured
 * windows, on the load's CPU. Here a read is two small natives.
 */
final class SchedStat implements AutoCloseable {
    private final RandomAccessFile file;
    private final byte[] buffer = new byte[96];

    private SchedStat(RandomAccessFile file) {
        this.file = file;
    }

    /** The calling thread's own; null where there is no such file (not Linux, no schedstats). */
    static SchedStat ofCurrentThread() {
        return open("/proc/thread-self/schedstat");
    }

    /** Thread {@code tid} of this process; null when it is gone or there is no such file. */
    static SchedStat ofThread(int tid) {
        return open("/proc/self/task/" + tid + "/schedstat");
    }

    private static SchedStat open(String path) {
        try {
            SchedStat s = new SchedStat(new RandomAccessFile(path, "r"));
            return s.waitNanos() < 0 ? closed(s) : s;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static SchedStat closed(SchedStat s) {
        s.close();
        return null;
    }

    /** Time the thread has waited on a run queue since it started, ns; -1 when it cannot be read. */
    long waitNanos() {
        return read(1);
    }

    /** Time the thread has been on a CPU since it started, ns; -1 when it cannot be read. */
    long cpuNanos() {
        return read(0);
    }

    private long read(int field) {
        try {
            file.seek(0);
            int n = file.read(buffer, 0, buffer.length);
            return n <= 0 ? -1 : parse(buffer, n, field);
        } catch (IOException e) {
            return -1;
        }
    }

    /** The second of the file's three numbers ({@code on-cpu wait slices}); -1 when it is not there. */
    static long parseWait(byte[] text, int length) {
        return parse(text, length, 1);
    }

    /** The file's {@code field}-th number (0: on CPU, 1: waiting, 2: slices); -1 when it is not there. */
    static long parse(byte[] text, int length, int field) {
        return number(text, 0, length, field);
    }

    /**
     * The {@code field}-th of the space-separated numbers of a {@code /proc} line from
     * {@code from} on (0 is the first); -1 when it is not there.
     */
    static long number(byte[] text, int from, int length, int field) {
        int i = from;
        for (int skipped = 0; skipped < field; skipped++) {
            while (i < length && text[i] != ' ') {
                i++;
            }
            i++;
        }
        long v = 0;
        int digits = 0;
        while (i < length && text[i] >= '0' && text[i] <= '9') {
            v = v * 10 + (text[i] - '0');
            i++;
            digits++;
        }
        return digits == 0 ? -1 : v;
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException ignored) {
            // a /proc file: nothing to flush
        }
    }
}
