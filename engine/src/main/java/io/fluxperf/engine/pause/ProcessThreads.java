package io.fluxperf.engine.pause;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The threads of this process whose kernel name ({@code /proc/self/task/TID/comm}) a predicate
 * wants, each with its {@code schedstat} held open. It is read during measurements, where garbage
 * brings collections, and a look through {@code /proc/self/task} allocates: so a look is taken only
 * when the process's thread count changed, or every {@link #RELOOK_NANOS} in case one thread ended
 * as another began, and a thread's name is read once. Reading the watched threads allocates
 * nothing. Not thread-safe.
 */
final class ProcessThreads implements AutoCloseable {
    static final long RELOOK_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final Path TASKS = Path.of("/proc/self/task");

    private final Predicate<String> wanted;
    private final Map<Integer, SchedStat> watched = new HashMap<>();
    private final Set<Integer> others = new HashSet<>();
    private final Set<Integer> listed = new HashSet<>();
    private SchedStat[] stats = new SchedStat[0];
    private final ThreadCount count = ThreadCount.open();
    private int lastCount = -1;
    private long lastLook = Long.MIN_VALUE;

    ProcessThreads(Predicate<String> wanted) {
        this.wanted = wanted;
    }

    /**
     * Looks again for wanted threads if the thread count changed or a look is due, and lets go of
     * those that ended; true when it looked.
     */
    boolean refresh(long now) {
        int n = count == null ? -1 : count.read();
        if (n >= 0 && n == lastCount && now - lastLook < RELOOK_NANOS) {
            return false;
        }
        lastCount = n;
        lastLook = now;
        look();
        return true;
    }

    /** The watched threads' schedstats, to read without an iterator; valid until the next refresh. */
    SchedStat[] stats() {
        return stats;
    }

    /** The watched threads, by thread id; the map is live, read it before the next refresh. */
    Map<Integer, SchedStat> watched() {
        return watched;
    }

    private void look() {
        listed.clear();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                int tid;
                try {
                    tid = Integer.parseInt(task.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                listed.add(tid);
                if (watched.containsKey(tid) || others.contains(tid)) {
                    continue;
                }
                if (!wanted.test(name(task))) {
                    others.add(tid);
                    continue;
                }
                SchedStat s = SchedStat.ofThread(tid);
                if (s != null) {
                    watched.put(tid, s);
                }
            }
        } catch (IOException | RuntimeException e) {
            return; // no /proc (not Linux): there is nothing to watch
        }
        others.retainAll(listed);
        for (Iterator<Map.Entry<Integer, SchedStat>> it = watched.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, SchedStat> e = it.next();
            if (!listed.contains(e.getKey())) {
                e.getValue().close();
                it.remove();
            }
        }
        stats = watched.values().toArray(new SchedStat[0]);
    }

    private static String name(Path task) {
        try {
            return new String(Files.readAllBytes(task.resolve("comm")), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @Override
    public void close() {
        watched.values().forEach(SchedStat::close);
        watched.clear();
        stats = new SchedStat[0];
        if (count != null) {
            count.close();
        }
    }

    /** The process's thread count, field 20 of {@code /proc/self/stat}, read into a reused buffer. */
    static final class ThreadCount implements AutoCloseable {
        private final FileChannel file;
        private final ByteBuffer buffer = ByteBuffer.allocate(1024);

        private ThreadCount(FileChannel file) {
            this.file = file;
        }

        /** Null where there is no such file (not Linux). */
        static ThreadCount open() {
            try {
                return new ThreadCount(FileChannel.open(Path.of("/proc/self/stat")));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        /** The count now; -1 when it cannot be read. */
        int read() {
            try {
                buffer.clear();
                int n = file.read(buffer, 0);
                return n <= 0 ? -1 : parse(buffer.array(), n);
            } catch (IOException e) {
                return -1;
            }
        }

        /**
         * Field 20 of a {@code stat} line. The name in field 2 may hold spaces and parentheses, so
         * the fields are counted from its last ')', after which field 3 begins.
         */
        static int parse(byte[] text, int length) {
            int i = length - 1;
            while (i >= 0 && text[i] != ')') {
                i--;
            }
            if (i < 0) {
                return -1;
            }
            long count = SchedStat.number(text, i + 2, length, 20 - 3); // ") " then field 3
            return count > Integer.MAX_VALUE ? -1 : (int) count;
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
}
