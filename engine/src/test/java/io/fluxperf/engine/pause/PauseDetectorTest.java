package io.fluxperf.engine.pause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The detector on this very JVM: stopped by a signal, collecting, and its load threads' schedstat. */
class PauseDetectorTest {
    @Test
    void schedstatsSecondNumberIsTheRunQueueDelay() {
        byte[] line = "123456 7890 12\n".getBytes(StandardCharsets.US_ASCII);
        assertEquals(7890, SchedStat.parseWait(line, line.length));
        assertEquals(-1, SchedStat.parseWait(line, 6), "no second number");
        try (SchedStat own = SchedStat.ofCurrentThread()) {
            if (own != null) { // Linux with schedstats: the reading only grows
                long first = own.waitNanos();
                assertTrue(first >= 0);
                assertTrue(own.waitNanos() >= first);
            }
        }
    }

    @Test
    void theLoadThreadsAreFoundByTheirNames() throws Exception {
        Thread load = new Thread(() -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                // the test is over
            }
        }, "fluxperf-load-7");
        load.setDaemon(true);
        load.start();
        try (LoadThreads threads = new LoadThreads()) {
            if (SchedStat.ofCurrentThread() != null) {
                // the JVM names the OS thread once the thread runs, which start() does not wait for
                org.awaitility.Awaitility.await("found fluxperf-load-7").atMost(java.time.Duration.ofSeconds(10))
                        .pollInterval(java.time.Duration.ofMillis(10)).until(() -> {
                            threads.rescan();
                            return threads.count() >= 1;
                        });
                assertTrue(threads.waits().values().stream().allMatch(w -> w >= 0));
            }
        } finally {
            load.interrupt();
        }
    }

    @Test
    void aCollectionIsSeen() {
        PauseEvents events = new PauseEvents();
        try (GcPauses gc = new GcPauses(events)) {
            System.gc();
            // the notification comes from the JVM's service thread shortly after the collection
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !events.pauses(Long.MIN_VALUE, Long.MAX_VALUE, 0)
                    .isEmpty());
        }
        ClientPause p = events.pauses(Long.MIN_VALUE, Long.MAX_VALUE, 0).get(0);
        assertEquals(PauseCause.GC, p.cause());
        assertTrue(Math.abs(p.startNanos() - System.nanoTime()) < TimeUnit.SECONDS.toNanos(10), "placed on nanoTime: " + p);
    }

    /**
     * This JVM stopped by SIGSTOP for 200 ms (a shell of its own stops and continues it): the
     * detector names one pause of about that length, caused by the stop, not the CPU or a collection.
     */
    @Test
    @Tag("timing")
    void aStopOfTheProcessIsAPauseOfItsLength() throws Exception {
        long pid = ProcessHandle.current().pid();
        try (PauseDetector detector = PauseDetector.start()) {
            Thread.sleep(100); // the detector's threads run; what is tested is the stop that follows
            long before = System.nanoTime();
            Process stopper = new ProcessBuilder("/usr/bin/python3", "-c",
                    "import os,sys,time,signal\np=int(sys.argv[1])\nt=time.monotonic()\nos.kill(p,signal.SIGSTOP)\n"
                            + "time.sleep(0.2)\nos.kill(p,signal.SIGCONT)\nprint(round((time.monotonic()-t)*1e9))",
                    Long.toString(pid)).start();
            assertTrue(stopper.waitFor(30, TimeUnit.SECONDS));
            long stopped = Long.parseLong(new String(stopper.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim());
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> detector.pauses(before, Long.MAX_VALUE).stream()
                    .anyMatch(p -> p.durationNanos() > 150_000_000));
            List<ClientPause> pauses = detector.pauses(before, Long.MAX_VALUE);
            ClientPause stop = pauses.stream().filter(p -> p.durationNanos() > 150_000_000).findFirst().orElseThrow();
            assertEquals(stopped, stop.durationNanos(), 20_000_000, "stopped for " + stopped + " ns: " + pauses);
            assertEquals(PauseCause.STOPPED, stop.cause(), pauses.toString());
        }
    }
}
