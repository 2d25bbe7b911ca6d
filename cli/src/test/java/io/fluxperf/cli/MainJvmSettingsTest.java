package io.fluxperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JVM-wide settings Main makes before Netty loads: paced waits end on epoll's timerfd, unless the user chose. */
class MainJvmSettingsTest {
    private String before;

    @BeforeEach
    void save() {
        before = System.getProperty(Main.EPOLL_WAIT_THRESHOLD);
    }

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(Main.EPOLL_WAIT_THRESHOLD);
        } else {
            System.setProperty(Main.EPOLL_WAIT_THRESHOLD, before);
        }
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
