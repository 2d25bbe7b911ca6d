package io.fluxperf.engine.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** What Linux's /proc tells about threads: the calling thread's id, and a thread's name, nice value and waits. */
public final class LinuxThreads {
    private LinuxThreads() {
    }

    /** The kernel's id of the calling thread. */
    public static OptionalInt currentTid() {
        try {
            Path self = Files.readSymbolicLink(Path.of("/proc/thread-self")); // "<pid>/task/<tid>"
            return OptionalInt.of(Integer.parseInt(self.getFileName().toString()));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    /** The nice value of a thread's /proc task directory ({@code /proc/PID/task/TID}); empty if it cannot be read. */
    public static OptionalInt niceOf(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            // the name in parentheses may hold spaces: the fields after it are space-separated;
            // nice is field 19 of the line, the 17th after the name
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return OptionalInt.of(Integer.parseInt(fields[16]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * How often a thread has given up its CPU to wait ({@code voluntary_ctxt_switches} of
     * {@code /proc/PID/task/TID/status}, or {@code /proc/thread-self}); empty if it cannot be read.
     */
    public static OptionalLong voluntarySwitches(Path task) {
        try {
            for (String line : Files.readAllLines(task.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    return OptionalLong.of(Long.parseLong(line.substring(line.indexOf(':') + 1).strip()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the thread ended, or this is not Linux
        }
        return OptionalLong.empty();
    }

    /** The name of a thread's /proc task directory, as the kernel keeps it; null if it ended. */
    public static String threadName(Path task) {
        try {
            return Files.readString(task.resolve("comm")).strip();
        } catch (IOException e) {
            return null; // the thread ended meanwhile
        }
    }
}
