package io.fluxperf.engine.host;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * Linux lets a thread's timed waits end up to its "timer slack" late (50 µs by default), so that
 * the kernel can batch wake-ups. Netty's epoll loop waits for its next timer with
 * {@code epoll_pwait2}, which honours that slack, so every paced send or reply would leave about
 * 50 µs late. The load drivers' loops (open-loop pacing) and the embedded targets' loops (the
 * delay knobs promise tens of microseconds) set their own slack to 1 ns through
 * {@code /proc/<tid>/timerslack_ns} (a thread may always change its own).
 *
 * <p>Best effort: elsewhere than Linux, or if /proc is not writable, nothing changes.
 */
public final class TimerSlack {
    private TimerSlack() {
    }

    /** Runs {@link #minimizeForCurrentThread()} on every thread of {@code group}, and waits for it. */
    public static void minimize(EventExecutorGroup group) {
        for (EventExecutor loop : group) {
            try {
                loop.submit(TimerSlack::minimizeForCurrentThread).syncUninterruptibly();
            } catch (RuntimeException e) {
                // a loop that cannot run a task now keeps the default slack
            }
        }
    }

    /** Sets the calling thread's timer slack to 1 ns; false if the platform does not allow it. */
    public static boolean minimizeForCurrentThread() {
        OptionalInt tid = LinuxThreads.currentTid();
        if (tid.isEmpty()) {
            return false;
        }
        try {
            Files.writeString(Path.of("/proc", Integer.toString(tid.getAsInt()), "timerslack_ns"), "1");
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
