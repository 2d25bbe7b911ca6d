package io.fluxperf.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.netty.channel.DefaultEventLoop;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * One lane between a reader thread and a load thread's loop: every command arrives once, in order,
 * whole (keys, literal arguments, logged values, even one larger than the ring), on the loop; the
 * lane completes after the last one, and stops the reader when the loop stops listening.
 */
class LaneTest {
    private static final long START = 5_000_000_000L;

    /** Command {@code i}: a get, a redis-style set with arguments, or a set with a logged value, some of them huge. */
    private static void command(LogEntry e, int i, SplittableRandom random) {
        e.reset();
        byte[] key = ("key:" + i).getBytes(StandardCharsets.US_ASCII);
        e.addKey(null, key, 0, key.length);
        e.line = i + 1L;
        e.loop = 1;
        e.position = 100L * i;
        e.scheduled = i % 3 == 0;
        e.offsetNanos = i * 1_000L;
        e.sourceNanos = i * 2_000L;
        e.ttlSeconds = i % 7;
        e.affinity = i % 5;
        e.workload = i % 2;
        switch (i % 4) {
            case 0, 1 -> e.command = Command.GET;
            case 2 -> {
                e.command = Command.SET;
                for (String word : new String[] {"SET", "key:" + i, "v" + i}) {
                    byte[] w = word.getBytes(StandardCharsets.US_ASCII);
                    int at = e.beginArg(w.length);
                    System.arraycopy(w, 0, e.args, at, w.length);
                    e.endArg(at + w.length);
                }
                e.valueArg = 2;
            }
            default -> {
                e.command = Command.SET;
                int n = i % 1000 == 3 ? 200_000 + random.nextInt(300_000) : random.nextInt(0, 100);
                byte[] v = e.valueBuffer(n);
                for (int k = 0; k < n; k++) {
                    v[k] = (byte) (i + k);
                }
            }
        }
    }

    /** Null when {@code r} is command {@code i} as {@link #command} made it, else what differs. */
    private static String check(Request r, int i) {
        if (!r.keyString(0).equals("key:" + i)) {
            return "command " + i + " came with key " + r.keyString(0);
        }
        if (r.isScheduled() != (i % 3 == 0) || r.isScheduled() && r.intendedNanos() != START + i * 1_000L) {
            return "command " + i + " send time";
        }
        if (r.sourceNanos() != i * 2_000L || r.ttlSeconds() != i % 7 || r.affinity() != i % 5 || r.workload() != i % 2) {
            return "command " + i + " fields";
        }
        switch (i % 4) {
            case 0, 1 -> {
                if (r.command() != Command.GET || r.valueLength() != 0) {
                    return "command " + i + " should be a get";
                }
            }
            case 2 -> {
                String value = new String(r.value(), r.valueOffset(), r.valueLength(), StandardCharsets.US_ASCII);
                if (r.argCount() != 3 || !value.equals("v" + i)) {
                    return "command " + i + " arguments";
                }
            }
            default -> {
                for (int k = 0; k < r.valueLength(); k++) {
                    if (r.value()[r.valueOffset() + k] != (byte) (i + k)) {
                        return "command " + i + " value byte " + k;
                    }
                }
            }
        }
        return null;
    }

    @Test
    void everyCommandArrivesOnceInOrderOnTheLoopAndTheLaneCompletesAfterTheLast() throws Exception {
        int n = 30_000;
        Lane lane = new Lane(Lane.RING_BYTES, new SynthValues());
        DefaultEventLoop loop = new DefaultEventLoop();
        RequestPool pool = new RequestPool(4);
        AtomicReference<String> wrong = new AtomicReference<>();
        AtomicLong received = new AtomicLong();
        CountDownLatch completed = new CountDownLatch(1);
        try {
            loop.submit(() -> lane.flux(pool, START, loop).subscribe(new BaseSubscriber<Request>() {
                @Override
                protected void hookOnSubscribe(Subscription s) {
                    request(1);
                }

                @Override
                protected void hookOnNext(Request r) {
                    int i = (int) received.getAndIncrement();
                    String problem = !loop.inEventLoop() ? "command " + i + " was emitted off the loop" : check(r, i);
                    if (problem != null) {
                        wrong.compareAndSet(null, problem);
                    }
                    r.sentNanos(1);
                    // sent later on the loop, as a request waits for its time or for room
                    loop.execute(() -> {
                        pool.release(r);
                        request(1);
                    });
                }

                @Override
                protected void hookOnComplete() {
                    completed.countDown();
                }

                @Override
                protected void hookOnError(Throwable t) {
                    wrong.compareAndSet(null, t.toString());
                    completed.countDown();
                }
            })).get(10, TimeUnit.SECONDS);
            SplittableRandom random = new SplittableRandom(11);
            LogEntry e = new LogEntry();
            for (int i = 0; i < n; i++) {
                command(e, i, random);
                assertTrue(lane.put(e, Thread.currentThread(), () -> false));
                if (i % 5_000 == 0) {
                    Thread.sleep(2); // now and then the loop finds the ring empty and waits to be woken
                }
            }
            lane.finish();
            assertTrue(completed.await(30, TimeUnit.SECONDS), "the lane completed; received " + received.get());
            assertNull(wrong.get());
            assertEquals(n, received.get());
            assertEquals(n, lane.line(), "its position is the last command's");
            assertEquals(100L * (n - 1) | 1L << 44, lane.mark());
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void theReaderStopsWaitingForRoomWhenTheLoopStopsListening() throws Exception {
        Lane lane = new Lane(1024, new SynthValues());
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            AtomicReference<BaseSubscriber<Request>> subscriber = new AtomicReference<>();
            loop.submit(() -> {
                BaseSubscriber<Request> s = new BaseSubscriber<>() {
                    @Override
                    protected void hookOnSubscribe(Subscription s) {
                        // never asks: the ring fills
                    }
                };
                subscriber.set(s);
                lane.flux(new RequestPool(4), START, loop).subscribe(s);
            }).get(10, TimeUnit.SECONDS);
            LogEntry e = new LogEntry();
            command(e, 0, new SplittableRandom(1));
            CompletableFuture<Boolean> last = CompletableFuture.supplyAsync(() -> {
                boolean ok = true;
                for (int i = 0; i < 100 && ok; i++) {
                    ok = lane.put(e, Thread.currentThread(), () -> false);
                }
                return ok;
            });
            Thread.sleep(50); // deliberate: time in which a reader that did not wait would have finished
            assertFalse(last.isDone(), "the reader waits while the ring is full");
            subscriber.get().dispose();
            assertFalse(last.get(10, TimeUnit.SECONDS), "and gives up once the loop stopped listening");
            assertTrue(lane.cancelled());
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /**
     * A reader that woke at every timeout to write the one command the loop took meanwhile cost a
     * context switch per millisecond; it waits for half the ring instead, then fills it in one go.
     */
    @Test
    void aFullRingTakesTheReaderBackOnceHalfOfItIsFree() throws Exception {
        Lane lane = new Lane(1024, new SynthValues());
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            RequestPool pool = new RequestPool(4);
            AtomicReference<BaseSubscriber<Request>> subscriber = new AtomicReference<>();
            loop.submit(() -> {
                BaseSubscriber<Request> s = new BaseSubscriber<>() {
                    @Override
                    protected void hookOnSubscribe(Subscription s) {
                        // asks one at a time, below
                    }

                    @Override
                    protected void hookOnNext(Request r) {
                        r.sentNanos(1);
                        pool.release(r);
                    }
                };
                subscriber.set(s);
                lane.flux(pool, START, loop).subscribe(s);
            }).get(10, TimeUnit.SECONDS);
            LogEntry e = new LogEntry();
            command(e, 0, new SplittableRandom(1));
            AtomicLong written = new AtomicLong();
            Thread reader = new Thread(() -> {
                while (lane.put(e, Thread.currentThread(), () -> false)) {
                    written.incrementAndGet();
                }
            }, "lane-test-reader");
            reader.setDaemon(true);
            reader.start();
            long full = awaitSteady(written);
            assertTrue(full >= 8, "the ring holds several commands: " + full);

            loop.submit(() -> subscriber.get().request(1)).get(10, TimeUnit.SECONDS);
            Thread.sleep(30); // several of the reader's park timeouts
            assertEquals(full, written.get(), "one command's room does not wake the reader");

            long half = (full + 1) / 2;
            loop.submit(() -> subscriber.get().request(half)).get(10, TimeUnit.SECONDS);
            // where the ring wraps, a command's room may go unused: the refill may be one short
            long refilled = awaitSteady(written);
            assertTrue(refilled >= full + half && refilled <= full + half + 1,
                    "half the ring free: the reader fills it again; " + full + " then " + refilled);
            subscriber.get().dispose();
            reader.join(10_000);
            assertFalse(reader.isAlive());
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** The count once it has not moved for 150 ms (a loaded machine may hold the reader back for tens of ms). */
    private static long awaitSteady(AtomicLong count) throws InterruptedException {
        long before = -1;
        long now = count.get();
        while (now != before) {
            Thread.sleep(150); // deliberate: the count is steady when it has not moved for this long
            before = now;
            now = count.get();
        }
        return now;
    }

    @Test
    void aLaneIsSubscribedOnce() throws Exception {
        Lane lane = new Lane(1024, new SynthValues());
        DefaultEventLoop loop = new DefaultEventLoop();
        try {
            lane.flux(new RequestPool(1), START, loop).subscribe(new BaseSubscriber<>() {
            });
            AtomicReference<Throwable> error = new AtomicReference<>();
            lane.flux(new RequestPool(1), START, loop).subscribe(r -> { }, error::set);
            assertTrue(error.get() instanceof IllegalStateException, String.valueOf(error.get()));
            assertEquals(Arrays.asList(-1L), Arrays.asList(lane.mark()), "nothing sent yet");
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }
}
