package io.fluxperf.replay;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.request.RequestPool;
import io.fluxperf.testkit.LogReaders;
import io.netty.channel.DefaultEventLoop;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The source on its own, with a subscriber that behaves as the load driver does (one request at a
 * time, asks again after sending): the read-ahead sorts out-of-order lines, send times follow the
 * log, clients keep their connection, and lines too late for the read-ahead are counted.
 */
class ReplaySourceTest {
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    record Sent(String key, long offsetNanos, int affinity, String command) {
    }

    /** Each thread's requests taken on an event loop of its own, as load threads take them; every one is emitted there. */
    private static List<Sent> drain(ReplaySource source, int threads) throws InterruptedException {
        List<Sent> sent = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(threads);
        List<String> offLoop = new ArrayList<>();
        long start = 1_000 * S;
        List<DefaultEventLoop> loops = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            RequestPool pool = new RequestPool(4);
            DefaultEventLoop loop = new DefaultEventLoop();
            loops.add(loop);
            int thread = t;
            loop.execute(() -> source.requests(thread, threads, pool, start, loop).subscribe(new BaseSubscriber<>() {
                @Override
                protected void hookOnSubscribe(Subscription s) {
                    request(1);
                }

                @Override
                protected void hookOnNext(Request r) {
                    if (!loop.inEventLoop()) {
                        synchronized (offLoop) {
                            offLoop.add(r.keyString(0));
                        }
                    }
                    synchronized (sent) {
                        sent.add(new Sent(r.keyString(0), r.isScheduled() ? r.intendedNanos() - start : -1, r.affinity(),
                                r.command().label()));
                    }
                    r.sentNanos(System.nanoTime()); // as the driver does when it sends
                    pool.release(r);
                    request(1);
                }

                @Override
                protected void hookOnComplete() {
                    done.countDown();
                }

                @Override
                protected void hookOnError(Throwable e) {
                    done.countDown();
                    throw new AssertionError(e);
                }
            }));
        }
        try {
            assertTrue(done.await(10, TimeUnit.SECONDS), "the source completed");
        } finally {
            loops.forEach(DefaultEventLoop::shutdownGracefully);
        }
        assertEquals(List.of(), offLoop, "every request is emitted on its thread's loop");
        return sent;
    }

    private ReplaySource source(Path log, int threads, double speed, int readAhead, LogStats stats, int loops) {
        ReplayOptions options = ReplayOptions.builder(log).speed(speed).readAhead(readAhead).loops(loops).build();
        ReplayPlan plan = ReplayPlan.make(options);
        VerbTable verbs = new VerbTable(plan.verbs);
        ReaderContext ctx = new ReaderContext("log", new BadLines(false), verbs, stats, null, false, "memcache",
                Protocols.find("memcache")::supports);
        int[] workloads = new int[plan.verbs.size()];
        for (int i = 0; i < workloads.length; i++) {
            workloads[i] = i;
        }
        return new ReplaySource(plan::open, ctx, threads, new Pacer(speed, 0, 0), loops, readAhead, false, null,
                workloads, 0);
    }

    @Test
    void outOfOrderLinesAreSortedByGidAndPacedByTheirTimes() throws Exception {
        Path log = LogReaders.write(dir, "watch.log", """
                ts=1700000000.0 gid=1 type=item_get key=a status=found clsid=1 cfd=10 size=3
                ts=1700000000.300000 gid=4 type=item_get key=d status=found clsid=1 cfd=11 size=3
                ts=1700000000.100000 gid=2 type=item_get key=b status=found clsid=1 cfd=10 size=3
                ts=1700000000.200000 gid=3 type=item_get key=c status=found clsid=1 cfd=12 size=3
                ts=1700000001.0 gid=5 type=item_get key=e status=found clsid=1 cfd=11 size=3
                """);
        LogStats stats = new LogStats();
        try (ReplaySource source = source(log, 1, 2, 100, stats, 1)) {
            source.start();
            List<Sent> sent = drain(source, 1);
            assertEquals(List.of("a", "b", "c", "d", "e"), sent.stream().map(Sent::key).toList());
            assertEquals(List.of(0L, S / 20, S / 10, 3 * S / 20, S / 2), sent.stream().map(Sent::offsetNanos).toList(),
                    "log time since the first command, halved by --speed 2");
            assertEquals(List.of(0, 0, 2, 1, 1), sent.stream().map(Sent::affinity).toList(), "one connection per cfd");
            assertEquals(0, stats.late);
            assertNull(source.failure());
        }
    }

    @Test
    void linesLaterThanTheReadAheadGoAtOnceAndAreCounted() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            b.append("ts=1700000000.").append(i * 1000).append(" gid=").append(i).append(" type=item_get key=k").append(i)
                    .append(" status=found clsid=1 cfd=10 size=3\n");
        }
        b.append("ts=1700000000.500 gid=0 type=item_get key=late status=found clsid=1 cfd=10 size=3\n");
        Path log = LogReaders.write(dir, "watch.log", b.toString());
        LogStats stats = new LogStats();
        try (ReplaySource source = source(log, 1, 1, 4, stats, 1)) {
            source.start();
            List<Sent> sent = drain(source, 1);
            assertEquals(21, sent.size());
            // the read-ahead of 4 holds k18..k20 when the late line comes: it goes before them, right after k17
            assertEquals("late", sent.get(17).key());
            assertEquals(sent.get(16).offsetNanos(), sent.get(17).offsetNanos(), "sent at once, never before its predecessors");
            assertEquals(1, stats.late);
        }
    }

    @Test
    void manyCommandsOverTwoThreadsAndLoopsAllArriveInOrderPerClient() throws Exception {
        Path log = dir.resolve("many.log");
        LogWriter.watch(log, 20_000, 1, new boolean[] {true}, 7);
        LogStats stats = new LogStats();
        try (ReplaySource source = source(log, 2, 0, 1000, stats, 3)) {
            source.start();
            List<Sent> sent = drain(source, 2);
            assertEquals(60_000, sent.size());
            assertEquals(60_000, stats.dealt);
            assertTrue(sent.stream().allMatch(s -> s.offsetNanos() == -1), "--speed max: no send times");
            assertEquals(0, stats.late, "a new pass starts from the log's beginning: its commands are not late");
        }
    }
}
