package io.fluxperf.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Lets one {@code @Tag("timing")} test at a time run on the machine, across the suite's JVMs: a
 * test whose verdict is a time then shares the CPUs with at most one test that only waits on
 * servers and child JVMs, and never with another measurement. The lock is a file lock on
 * {@link #FILE}, which the kernel lets go of when a JVM ends, however it ends. A timing class holds
 * it from its first callback before all its tests to the last after them; a timing method, from
 * before it to after it. Registered for every test through the JUnit extension auto-detection
 * that surefire turns on.
 */
public final class TimingLock implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {
    static final String TAG = "timing";
    /** Shared by every JVM of a build, and by builds of other checkouts on the same machine. */
    static final Path FILE = Path.of(System.getProperty("java.io.tmpdir"), "fluxperf-timing-tests.lock");

    /**
     * One line per hold, appended in the module's target/: when it was taken, how long the test
     * waited for it and held it, and which test. The suite's wall time is at least the sum of the
     * holds, and a wait is time that a fork spent idle.
     */
    static final Path LOG = Path.of("target", "timing-lock.log");

    private static int depth;
    private static FileChannel channel;
    private static FileLock lock;
    private static String holder;
    private static long waitedNanos;
    private static long heldSince;

    @Override
    public void beforeAll(ExtensionContext context) {
        if (context.getTags().contains(TAG)) {
            holder = name(context);
            acquire();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (context.getTags().contains(TAG)) {
            release();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (context.getTags().contains(TAG)) {
            if (depth == 0) {
                holder = name(context);
            }
            acquire();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (context.getTags().contains(TAG)) {
            release();
        }
    }

    /** Work whose figures a timing test judges, done holding the lock. */
    @FunctionalInterface
    public interface Timed {
        void run() throws Exception;
    }

    /**
     * Does {@code timed} holding the lock: for a class that measures in its {@code @BeforeAll} and
     * judges the figures in tests of which only some are timing, so that the others (and the rest
     * of its setup) do not hold the lock.
     *
     * @param name what holds it, for {@link #LOG}
     */
    public static void holding(String name, Timed timed) throws Exception {
        synchronized (TimingLock.class) {
            if (depth == 0) {
                holder = name;
            }
        }
        acquire();
        try {
            timed.run();
        } finally {
            release();
        }
    }

    /** Nested: a timing class's methods are timing too, and the class already holds the lock. */
    static synchronized void acquire() {
        if (depth++ > 0) {
            return;
        }
        try {
            long start = System.nanoTime();
            channel = FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = channel.lock(); // waits while another JVM's timing test runs
            heldSince = System.nanoTime();
            waitedNanos = heldSince - start;
        } catch (IOException e) {
            depth--;
            throw new UncheckedIOException("the timing tests' lock " + FILE, e);
        }
    }

    static synchronized void release() {
        if (depth == 0 || --depth > 0) {
            return;
        }
        long held = System.nanoTime() - heldSince;
        try {
            lock.release();
            channel.close();
            log(held);
        } catch (IOException e) {
            throw new UncheckedIOException("the timing tests' lock " + FILE, e);
        } finally {
            lock = null;
            channel = null;
        }
    }

    /** The test class's simple name, and the method's after a # for a method's hold. */
    private static String name(ExtensionContext context) {
        String cls = context.getTestClass().map(Class::getSimpleName).orElse(context.getDisplayName());
        return context.getTestMethod().map(m -> cls + "#" + m.getName()).orElse(cls);
    }

    private static void log(long heldNanos) {
        String line = String.format(Locale.ROOT, "%d waited %d ms held %d ms %s%n", System.currentTimeMillis() - heldNanos / 1_000_000,
                waitedNanos / 1_000_000, heldNanos / 1_000_000, holder);
        try {
            Files.writeString(LOG, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            // no target/ here (a test run from elsewhere): the log is a help, not part of the lock
        }
    }

    /** Whether this JVM holds the lock now. */
    static synchronized boolean held() {
        return lock != null && lock.isValid();
    }
}
