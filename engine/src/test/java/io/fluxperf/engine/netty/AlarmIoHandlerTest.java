package io.fluxperf.engine.netty;

import io.fluxperf.engine.host.LinuxThreads;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The alarm on a real event loop of each transport: on time, never early, once, and without garbage. */
class AlarmIoHandlerTest {
    private EventLoopGroup group;
    private EventLoop loop;
    private AlarmIoHandler alarm;

    private void start(String transport) {
        IoHandlerFactory io = switch (transport) {
            case "epoll" -> {
                Assumptions.assumeTrue(Epoll.isAvailable(), "epoll is not available");
                yield EpollIoHandler.newFactory();
            }
            case "io_uring" -> {
                Assumptions.assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available: " + IoUring.unavailabilityCause());
                yield IoUringIoHandler.newFactory();
            }
            default -> NioIoHandler.newFactory();
        };
        AtomicReference<AlarmIoHandler> made = new AtomicReference<>();
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("alarm-test-" + transport, true),
                AlarmIoHandler.factory(io, made::set));
        loop = group.next();
        alarm = made.get();
    }

    @AfterEach
    void stop() {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5_000);
        }
    }

    /**
     * Runs {@code task} on the loop and returns its result. A task that throws (a failed assertion
     * included) fails the test with its own exception, not with a timeout waiting for a result that
     * never comes.
     */
    private <T> T onLoop(Supplier<T> task) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                f.complete(task.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (Exception) e.getCause();
        }
    }

    @Tag("timing")
    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio", "io_uring"})
    void ringsOnceNotBeforeItsTimeAndSoonAfter(String transport) throws Exception {
        start(transport);
        AtomicInteger rings = new AtomicInteger();
        long[] rangAt = new long[1];
        CountDownLatch rang = new CountDownLatch(1);
        long[] setFor = new long[1];
        onLoop(() -> {
            alarm.onAlarm(at -> {
                rangAt[0] = System.nanoTime();
                rings.incrementAndGet();
                rang.countDown();
            });
            setFor[0] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
            alarm.set(setFor[0]);
            return null;
        });
        assertTrue(rang.await(5, TimeUnit.SECONDS), "the alarm rang");
        assertTrue(rangAt[0] >= setFor[0], "never early: rang " + (setFor[0] - rangAt[0]) + " ns before its time");
        // generous for a shared machine: a missed alarm would wait for the loop's next task (up to 1 s)
        assertTrue(rangAt[0] - setFor[0] < TimeUnit.MILLISECONDS.toNanos(500),
                "rang " + (rangAt[0] - setFor[0]) / 1000 + " µs late");
        assertEquals(AlarmIoHandler.NONE, (long) onLoop(alarm::alarmNanos), "cleared before it rang");
        // a second ring would follow the first at once: none in the next 50 ms
        stays("rang once", () -> rings.get() == 1, Duration.ofMillis(50));
    }

    @Tag("timing")
    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void aNewTimeReplacesTheOldOneAndCancelStopsIt(String transport) throws Exception {
        start(transport);
        AtomicInteger rings = new AtomicInteger();
        long[] rangAt = new long[1];
        long[] earlier = new long[1];
        onLoop(() -> {
            alarm.onAlarm(at -> {
                rangAt[0] = System.nanoTime();
                rings.incrementAndGet();
            });
            long now = System.nanoTime();
            alarm.set(now + TimeUnit.MILLISECONDS.toNanos(2_000));
            earlier[0] = now + TimeUnit.MILLISECONDS.toNanos(30);
            alarm.set(earlier[0]); // replaces the later time
            return null;
        });
        await("the earlier time rang").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> rings.get() >= 1);
        assertTrue(rangAt[0] >= earlier[0], "not before the earlier time");
        assertTrue(rangAt[0] < earlier[0] + TimeUnit.MILLISECONDS.toNanos(1_000), "the earlier time rang, not the replaced later one");
        assertEquals(1, rings.get(), "the earlier time rang, once");

        long[] later = new long[1];
        onLoop(() -> {
            long now = System.nanoTime();
            alarm.set(now + TimeUnit.MILLISECONDS.toNanos(10));
            later[0] = now + TimeUnit.MILLISECONDS.toNanos(300);
            alarm.set(later[0]); // replaces the earlier time too
            return null;
        });
        await("the later time rang").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> rings.get() >= 2);
        // had the replaced 10-ms time rung, this ring would be it, 290 ms before the later time
        assertTrue(rangAt[0] >= later[0], "the replaced, earlier time did not ring: the ring came "
                + (later[0] - rangAt[0]) / 1000 + " µs before the later time");
        assertEquals(2, rings.get(), "the later time rang, once");

        onLoop(() -> {
            alarm.set(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20));
            alarm.cancel();
            return null;
        });
        assertEquals(AlarmIoHandler.NONE, (long) onLoop(alarm::alarmNanos), "a cancelled alarm is cleared");
        // it was due in 20 ms: a ring would come within the next 300
        stays("a cancelled alarm does not ring", () -> rings.get() == 2, Duration.ofMillis(300));
    }

    /** A pacer's use: the listener sets the next alarm. 2,000 alarms 100 µs apart, none early, and no garbage. */
    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio"})
    void aListenerThatSetsTheNextAlarmAllocatesNothing(String transport) throws Exception {
        start(transport);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long loopThread = onLoop(() -> Thread.currentThread().getId());
        int alarms = 2_000;
        long spacing = TimeUnit.MICROSECONDS.toNanos(100);
        Chain chain = new Chain(alarms, spacing);
        // a first chain compiles the code; the second is measured
        for (int round = 0; round < 2; round++) {
            chain.reset();
            long before = threads.getThreadAllocatedBytes(loopThread);
            onLoop(() -> {
                alarm.onAlarm(chain);
                chain.startAt(System.nanoTime());
                return null;
            });
            assertTrue(chain.done.await(10, TimeUnit.SECONDS), "the chain of alarms ran to its end");
            long allocated = threads.getThreadAllocatedBytes(loopThread) - before;
            assertEquals(0, chain.early, "alarms that rang before their time");
            assertEquals(0, chain.wrongTime, "alarms that reported another time than they were set for");
            if (round == 1) {
                // the two tasks that start and end a round allocate a little; Netty's schedule() would be 64 B a wake-up
                assertTrue(allocated < alarms * 4L, "the loop allocated " + allocated + " B for " + alarms + " alarms");
            }
        }
    }

    /**
     * Asserts that {@code condition} holds for the whole of {@code window}: an alarm that should
     * not ring is watched for as long as it would take to ring.
     */
    private static void stays(String what, Callable<Boolean> condition, Duration window) {
        await(what).during(window).atMost(window.multipliedBy(2).plusSeconds(1)).pollInterval(Duration.ofMillis(5))
                .until(condition);
    }

    /**
     * --busy-poll's loop: with {@code pollOnly} a chain of alarms 1 ms apart rings on time while
     * the loop never sleeps (next to no voluntary context switch), and the time it polled with
     * nothing to do is counted; without it, the loop sleeps once per alarm and counts nothing.
     */
    @Tag("timing")
    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio", "io_uring"})
    void pollOnlyKeepsTheLoopOnItsCpuAndCountsItsIdlePolls(String transport) throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/thread-self")), "Linux /proc");
        start(transport);
        int alarms = 500;
        // 1 ms apart: Netty's NIO loop polls without waiting for a deadline less than 0.5 ms away
        Chain chain = new Chain(alarms, TimeUnit.MILLISECONDS.toNanos(1));
        for (boolean poll : new boolean[] {true, false}) {
            chain.reset();
            long[] before = onLoop(() -> {
                alarm.pollOnly(poll);
                alarm.onAlarm(chain);
                long[] marks = {voluntarySwitchesOfThisThread(), alarm.idlePollNanos(), System.nanoTime(), cpuOfThisThread()};
                chain.startAt(System.nanoTime());
                return marks;
            });
            assertTrue(chain.done.await(10, TimeUnit.SECONDS), "the chain of alarms ran to its end");
            long[] after = onLoop(() -> new long[] {voluntarySwitchesOfThisThread(), alarm.idlePollNanos(), System.nanoTime(),
                    cpuOfThisThread()});
            long sleeps = after[0] - before[0];
            long idle = after[1] - before[1];
            long elapsed = after[2] - before[2];
            long onCpu = after[3] - before[3];
            assertEquals(0, chain.early, "alarms that rang before their time");
            if (poll) {
                // a safepoint or two of this test JVM may still stop the thread
                assertTrue(sleeps < alarms / 10, "the polling loop slept " + sleeps + " times");
                // judged against the loop's time on a CPU: another process may hold the CPU for part of the chain
                assertTrue(idle > onCpu / 2 && idle <= elapsed, "idle polls " + idle / 1000 + " µs of " + onCpu / 1000
                        + " µs on a CPU (" + elapsed / 1000 + " µs in all): the chain's work is a small part of it");
            } else {
                assertTrue(sleeps >= alarms / 2, "a waiting loop sleeps between alarms: " + sleeps + " times");
                assertEquals(0, idle, "no idle polls are counted while the loop waits");
            }
        }
        onLoop(() -> {
            alarm.pollOnly(false);
            return null;
        });
    }

    private static long voluntarySwitchesOfThisThread() {
        return LinuxThreads.voluntarySwitches(Path.of("/proc/thread-self")).orElseThrow();
    }

    private static long cpuOfThisThread() {
        return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** Channels and handles of the transport register through the wrapper as before. */
    @ParameterizedTest
    @ValueSource(strings = {"epoll"})
    void theTransportsHandlesStillFit(String transport) {
        start(transport);
        assertTrue(((IoEventLoop) loop).isCompatible(EpollIoHandle.class));
    }

    private final class Chain implements java.util.function.LongConsumer {
        private final int count;
        private final long spacing;
        private long due;
        private int rung;
        int early;
        /** Rings that did not report the time the alarm was set for. */
        int wrongTime;
        CountDownLatch done;

        Chain(int count, long spacing) {
            this.count = count;
            this.spacing = spacing;
        }

        void reset() {
            rung = 0;
            early = 0;
            wrongTime = 0;
            done = new CountDownLatch(1);
        }

        void startAt(long now) {
            due = now + spacing;
            alarm.set(due);
        }

        @Override
        public void accept(long setFor) {
            long now = System.nanoTime();
            if (setFor != due) {
                wrongTime++;
            }
            if (now < due) {
                early++;
            }
            if (++rung == count) {
                done.countDown();
                return;
            }
            due = now + spacing;
            alarm.set(due);
        }
    }
}
