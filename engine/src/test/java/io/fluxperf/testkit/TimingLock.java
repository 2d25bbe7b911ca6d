package io.fluxperf.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

    private static int depth;
    private static FileChannel channel;
    private static FileLock lock;

    @Override
    public void beforeAll(ExtensionContext context) {
        if (context.getTags().contains(TAG)) {
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
            acquire();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (context.getTags().contains(TAG)) {
            release();
        }
    }

    /** Nested: a timing class's methods are timing too, and the class already holds the lock. */
    static synchronized void acquire() {
        if (depth++ > 0) {
            return;
        }
        try {
            channel = FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = channel.lock(); // waits while another JVM's timing test runs
        } catch (IOException e) {
            depth--;
            throw new UncheckedIOException("the timing tests' lock " + FILE, e);
        }
    }

    static synchronized void release() {
        if (depth == 0 || --depth > 0) {
            return;
        }
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("the timing tests' lock " + FILE, e);
        } finally {
            lock = null;
            channel = null;
        }
    }

    /** Whether this JVM holds the lock now. */
    static synchronized boolean held() {
        return lock != null && lock.isValid();
    }
}
