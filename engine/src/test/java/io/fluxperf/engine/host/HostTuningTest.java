package io.fluxperf.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The policy's schedule during a load, on a made-up clock: what it does to the loops, and when. */
class HostTuningTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long START = 1_000 * MS;

    /** Counts what the policy asks of the loops. */
    private static final class Loops implements HostTuning.Loops {
        int clears;
        int wakes;

        @Override
        public void clearWarmupFigures() {
            clears++;
        }

        @Override
        public void wakeFromOutside() {
            wakes++;
        }
    }

    /** Ticks every millisecond from the start to {@code until}. */
    private static void tickUntil(HostTuning.Load load, long until) {
        for (long now = START; now <= until; now += MS) {
            load.tick(now);
        }
    }

    @Test
    void onlyAPacedRunOfItsOwnWithoutAWarmUpWaitsForTheJitInProcess() {
        assertTrue(HostTuning.ownProcess(true, true).warmsUntilCompiled(Duration.ZERO));
        assertTrue(HostTuning.ownProcess(true, false).warmsUntilCompiled(Duration.ZERO), "--no-host-tuning keeps it");
        assertFalse(HostTuning.ownProcess(true, true).warmsUntilCompiled(Duration.ofSeconds(2)),
                "a --warmup compiles from the real server's profile");
        assertFalse(HostTuning.ownProcess(false, true).warmsUntilCompiled(Duration.ZERO), "closed loop");
        assertFalse(HostTuning.standard().warmsUntilCompiled(Duration.ZERO), "a process that hosts other runs");
    }

    @Test
    void aShortRunsWarmUpRoundsAreNoLongerThanWhatItMeasures() {
        List<Duration> full = List.of(Duration.ofSeconds(5), Duration.ofSeconds(2));
        assertEquals(full, HostTuning.compiledRounds(Duration.ofSeconds(10)));
        assertEquals(full, HostTuning.compiledRounds(Duration.ofSeconds(7)));
        assertEquals(List.of(Duration.ofMillis(1_000), Duration.ofMillis(400)), HostTuning.compiledRounds(Duration.ofMillis(1_400)));
        List<Duration> oneSecond = HostTuning.compiledRounds(Duration.ofSeconds(1));
        assertEquals(Duration.ofSeconds(1), oneSecond.get(0).plus(oneSecond.get(1)), "in all as long as the run: " + oneSecond);
        assertEquals(full, HostTuning.compiledRounds(Duration.ZERO), "a run whose length is unknown gets the whole bounds");
    }

    @Test
    void aRunWithoutAWarmUpLeavesItsLoopsAlone() {
        // priorities stay: lowering them would lower this test JVM's own compiler threads
        for (HostTuning policy : new HostTuning[] {HostTuning.standard(), HostTuning.ownProcess(true, false)}) {
            Loops loops = new Loops();
            HostTuning.Load load = policy.loadStarts(START, START, loops);
            tickUntil(load, START + 10_000 * MS);
            assertEquals(0, loops.clears + loops.wakes, "no exercise without a warm-up");
        }
    }

    @Test
    void aWarmUpsFiguresStartAfreshEveryQuarterSecondUntilItsEnd() {
        Loops loops = new Loops();
        HostTuning.Load load = HostTuning.standard().loadStarts(START, START + 2_000 * MS, loops);
        assertEquals(START + 250 * MS, load.tick(START), "the first clear is due a quarter second in");
        tickUntil(load, START + 5_000 * MS);
        assertEquals(7, loops.clears, "at 250, 500, … 1750 ms: never at the warm-up's end, which the window starts");
        assertEquals(0, loops.wakes, "no wake-up exercise for a run sharing its process");
    }

    @Test
    void aPacedWarmUpInItsOwnProcessWakesTheLoopsForItsFirstSeconds() {
        Loops loops = new Loops();
        HostTuning.Load load = HostTuning.ownProcess(true, false).loadStarts(START, START + 10_000 * MS, loops);
        assertTrue(load.tick(START) - START <= TimeUnit.MICROSECONDS.toNanos(100), "woken again 100 µs later");
        tickUntil(load, START + 2_999 * MS);
        int during = loops.wakes;
        tickUntil(load, START + 10_000 * MS);
        assertTrue(during >= 2_999, "every tick of the first 3 s woke the loops: " + during);
        assertTrue(loops.wakes - during <= 3_000, "and the exercise stopped after 3 s: " + (loops.wakes - during));
    }

    @Test
    void onlyAProcessOfItsOwnWarmsUpAndRehearses() {
        assertTrue(!HostTuning.standard().warmsUp() && HostTuning.ownProcess(false, true).warmsUp());
        int[] rounds = {0};
        HostTuning.standard().beforeLoad(3, () -> rounds[0]++, () -> { });
        assertEquals(0, rounds[0], "no rehearsal in a shared process");
        HostTuning.ownProcess(false, false).beforeLoad(1, () -> rounds[0]++, () -> { });
        assertEquals(0, rounds[0], "a single window ends after the load: nothing to rehearse");
        HostTuning.ownProcess(false, false).beforeLoad(3, () -> rounds[0]++, () -> { });
        assertEquals(HostTuning.REHEARSAL_ROUNDS, rounds[0]);
    }

    @Test
    void afterAnInProcessWarmUpTheJitGetsAMomentAndTheLoadDropsPrioritiesAtItsStart() {
        long t0 = System.nanoTime();
        HostTuning.standard().afterWarmup(Duration.ZERO);
        assertTrue(System.nanoTime() - t0 < 50 * MS, "a shared process does not wait for the JIT");
        HostTuning own = HostTuning.ownProcess(true, false); // false: this test JVM's priorities stay
        t0 = System.nanoTime();
        own.afterWarmup(Duration.ZERO);
        assertTrue(System.nanoTime() - t0 < 2_000 * MS, "the wait for the JIT is bounded (200 ms, and a noisy machine)");
        Loops loops = new Loops();
        HostTuning.Load load = own.loadStarts(START, START, loops);
        long next = load.tick(START);
        assertTrue(next - START >= 2_999 * MS, "without lowered priorities the drop stays 3 s into the load: " + next);
    }

    @Test
    void aRunWithAWarmUpOfItsOwnDropsPrioritiesInItNotAfterTheInProcessOne() {
        assertTrue(HostTuning.dropsAfterInProcessWarmup(Duration.ZERO), "no --warmup: before the first measured send");
        assertTrue(HostTuning.dropsAfterInProcessWarmup(Duration.ofMillis(500)), "too short to drop 0.5 s before its end");
        assertFalse(HostTuning.dropsAfterInProcessWarmup(Duration.ofSeconds(2)),
                "--warmup 2: the JIT compiles the paced path at full priority for its first 1.5 s");
    }

    @Test
    void theJitGoesQuietOrTheWaitEnds() {
        long t0 = System.nanoTime();
        JitSettle.await(10 * MS, 100 * MS);
        assertTrue(System.nanoTime() - t0 < 1_000 * MS, "at most the bound, plus a scheduler's slack");
    }
}
