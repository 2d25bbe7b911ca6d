package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The JVM-wide settings Main makes before Netty loads, unless the user chose: paced waits end on
 * epoll's timerfd, and Netty's Flight Recorder events are off.
 */
class MainJvmSettingsTest {
    private String before;
    private String jfrBefore;

    @BeforeEach
    void save() {
        before = System.getProperty(Main.EPOLL_WAIT_THRESHOLD);
        jfrBefore = System.getProperty(Main.NETTY_JFR);
    }

    @AfterEach
    void restore() {
        restore(Main.EPOLL_WAIT_THRESHOLD, before);
        restore(Main.NETTY_JFR, jfrBefore);
    }

    private static void restore(String name, String value) {
        if (value == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, value);
        }
    }

    @Test
    void nettysFlightRecorderEventsAreOffByDefault() {
        System.clearProperty(Main.NETTY_JFR);
        Main.nettyJfrEventsOff();
        assertEquals("false", System.getProperty(Main.NETTY_JFR));
    }

    /** Seen from outside: a one-request run in its own JVM never sets up Flight Recorder's events. */
    @Test
    void aRunDoesNotStartFlightRecordersEventMachinery(@TempDir Path dir) throws Exception {
        Path output = dir.resolve("run.out");
        Process run = CliRun.inChildJvm(output, List.of("-Xlog:class+load=info"), "run", "--requests", "100", "-c", "2", "--no-live");
        assertTrue(run.waitFor(60, TimeUnit.SECONDS), "the run ended");
        List<String> lines = Files.readAllLines(output);
        assertEquals(0, run.exitValue(), String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
        assertTrue(lines.stream().anyMatch(l -> l.contains("io.netty.buffer.AdaptiveByteBufAllocator")),
                "the run used Netty's allocator");
        assertFalse(lines.stream().anyMatch(l -> l.contains("jdk.jfr.internal.MetadataLoader ")),
                "no Flight Recorder metadata was loaded");
    }

    @Test
    void flightRecorderEventsTheUserAskedForStayOn() {
        System.setProperty(Main.NETTY_JFR, "true");
        Main.nettyJfrEventsOff();
        assertEquals("true", System.getProperty(Main.NETTY_JFR));
    }

    @Test
    void pacedWaitsUseTheTimerFdByDefault() {
        System.clearProperty(Main.EPOLL_WAIT_THRESHOLD);
        Main.pacingTimersOnTimerFd();
        assertEquals("0", System.getProperty(Main.EPOLL_WAIT_THRESHOLD));
    }

    @Test
    void aThresholdTheUserSetIsKept() {
        System.setProperty(Main.EPOLL_WAIT_THRESHOLD, "10");
        Main.pacingTimersOnTimerFd();
        assertEquals("10", System.getProperty(Main.EPOLL_WAIT_THRESHOLD));
    }
}
