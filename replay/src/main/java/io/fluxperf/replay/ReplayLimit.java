package io.fluxperf.replay;

import io.fluxperf.engine.metrics.RunResult;
import io.fluxperf.engine.metrics.SendLateness;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.report.HumanUnits;
import io.fluxperf.engine.trust.ClientLimit;
import io.fluxperf.engine.trust.WindowTrust;
import java.util.List;
import java.util.Locale;

/**
 * Why a replay went as fast as it did: the mean number of commands in flight (Little's law: the
 * commands answered per second times their mean time from the write to the reply), the most the
 * connections allow, the read-ahead's memory, and, when the replay could not keep its schedule (or
 * at {@code --speed max}, where it goes as fast as it can), which of four things held it back:
 *
 * <ol>
 * <li>{@code cpu}: the busiest load thread was on CPU {@link WindowResult#SATURATED_LOOP_SHARE} of
 *     the time or more, or a window's trust found the client limited by its CPU or by the run
 *     queue (a load thread waited for a CPU);</li>
 * <li>{@code reader}: the load threads asked for commands with room to send and found none, waiting
 *     for the log's reader, a fifth of the time or more;</li>
 * <li>{@code client}: a window's trust found that commands left late while every connection had
 *     room ({@link ClientLimit#SEND_LAG});</li>
 * <li>{@code connections}: the connections were full most of the time (commands in flight at
 *     {@link #FULL_SHARE} of connections × pipeline or more), so each client's next command waited
 *     for its connection;</li>
 * <li>{@code server}: none of these: the connections had room, the reader kept up and the CPU had
 *     time, so what was left to wait for was the server's replies.</li>
 * </ol>
 *
 * <p>The client's own limits are the windows' trust ({@link WindowTrust#limits()}), the evidence of
 * their {@code Client:} lines and of the {@code client-limited} verdict, so that this never names
 * the server where those name the client.
 *
 * @param inFlightMean      commands in flight on average over the replay
 * @param inFlightMost      connections × pipeline: the most that can be in flight
 * @param readerWaitShare   the share of the load threads' time spent waiting for the reader with room to send
 * @param readerWaitNanos   that wait, ns, summed over the load threads
 * @param loopShare         the busiest load thread's CPU share, -1 when unknown
 * @param readAheadPeak     the most bytes of the heap held at once by commands waiting for their client's connection
 * @param readAheadBudget   the budget of those bytes
 * @param limit             cpu, reader, client, connections or server; null when the replay kept its schedule
 * @param why               the limit in a sentence with its figure; null with no limit
 */
public record ReplayLimit(double inFlightMean, long inFlightMost, double readerWaitShare, long readerWaitNanos, double loopShare,
                          long readAheadPeak, long readAheadBudget, String limit, String why) {
    /** Connections this full on average are the limit. */
    static final double FULL_SHARE = 0.8;
    /** Waiting this much of the time for the reader makes it the limit. */
    static final double READER_SHARE = 0.2;
    /** A paced replay kept up unless more than this share of its commands left more than 1 ms late. */
    static final double LATE_SHARE = 0.01;

    /**
     * @param maxSpeed        the replay went as fast as it could (--speed max): it always has a limit
     * @param readerWaitNanos the load threads' wait for the reader with room to send, ns, summed over threads
     * @param trust           each window's trust, as the report showed it; empty when it was not checked
     */
    static ReplayLimit of(RunResult r, boolean maxSpeed, long readerWaitNanos, long readAheadPeak, long readAheadBudget,
                          List<WindowTrust> trust) {
        WindowResult w = r.total();
        int threads = r.config().threads();
        long most = (long) threads * r.config().connections() * r.config().pipeline();
        double seconds = w.seconds();
        long answered = w.total().outcomes().requests();
        double meanService = w.total().service().getTotalCount() > 0 ? w.total().service().getMean() : 0;
        double inFlight = seconds > 0 ? answered * meanService / 1e9 / seconds : 0;
        double readerShare = seconds > 0 ? readerWaitNanos / 1e9 / seconds / threads : 0;
        double loop = w.busiestLoopShare();
        SendLateness l = r.lateness();
        boolean behind = maxSpeed || l.paced() > 0 && l.late() > LATE_SHARE * l.paced();
        String limit = null;
        String why = null;
        if (behind) {
            WindowTrust busy = firstWith(trust, ClientLimit.CPU);
            WindowTrust queued = mostQueued(trust);
            WindowTrust late = firstWith(trust, ClientLimit.SEND_LAG);
            if (loop >= WindowResult.SATURATED_LOOP_SHARE) {
                limit = "cpu";
                why = String.format(Locale.ROOT, "the CPU: the busiest load thread was on CPU %.0f %% of the time", 100 * loop);
            } else if (busy != null) {
                limit = "cpu";
                why = String.format(Locale.ROOT, "the CPU: the busiest load thread was on CPU %.0f %% of %s",
                        100 * windowLoopShare(r, busy.window()), windowName(trust, busy.window()));
            } else if (queued != null) {
                limit = "cpu";
                why = String.format(Locale.ROOT, "the CPU: a load thread waited for a CPU %.0f %% of %s (runnable, on"
                        + " the run queue: other threads or processes held the CPUs)", 100 * queued.runQueueShare(),
                        windowName(trust, queued.window()));
            } else if (readerShare >= READER_SHARE) {
                limit = "reader";
                why = String.format(Locale.ROOT, "the reader: the load threads waited for the log's reader %.0f %% of"
                        + " the time with room to send (--reader-threads reads a log that splits on more threads)", 100 * readerShare);
            } else if (late != null) {
                limit = "client";
                why = "the client: commands left late (send lag p99 " + HumanUnits.latency(late.sendLagP99Nanos()) + " in "
                        + windowName(trust, late.window()) + ") while every connection had room and the reader kept up";
            } else if (inFlight >= FULL_SHARE * most) {
                limit = "connections";
                why = String.format(Locale.ROOT, "the connections: %.1f of %d commands in flight on average, each"
                        + " client's next command waited for its connection (more --connections or --pipeline, where"
                        + " the clients allow)", inFlight, most);
            } else {
                limit = "server";
                why = String.format(Locale.ROOT, "the server: the connections had room (%.1f of %d in flight), the"
                        + " reader kept up and the load threads had CPU, so the commands waited for the replies",
                        inFlight, most);
            }
        }
        return new ReplayLimit(inFlight, most, readerShare, readerWaitNanos, loop, readAheadPeak, readAheadBudget, limit, why);
    }

    /** The first window whose trust found the client limited by {@code limit}; null when none did. */
    private static WindowTrust firstWith(List<WindowTrust> trust, ClientLimit limit) {
        return trust.stream().filter(t -> t.limits().contains(limit)).findFirst().orElse(null);
    }

    /** Of the windows whose load threads waited for a CPU long enough to limit the client, the one that waited most. */
    private static WindowTrust mostQueued(List<WindowTrust> trust) {
        return trust.stream().filter(t -> t.limits().contains(ClientLimit.RUN_QUEUE))
                .max(java.util.Comparator.comparingDouble(WindowTrust::runQueueShare)).orElse(null);
    }

    private static double windowLoopShare(RunResult r, int window) {
        return window >= 1 && window <= r.windows().size() ? r.windows().get(window - 1).busiestLoopShare()
                : WindowResult.SATURATED_LOOP_SHARE;
    }

    /** "the window" for a replay of one, else "window N", as the window's own lines are headed. */
    private static String windowName(List<WindowTrust> trust, int window) {
        return trust.size() == 1 ? "the window" : "window " + window;
    }

    /** The Fidelity block's "In flight:" line. */
    String inFlightLine() {
        return String.format(Locale.ROOT, "In flight: mean %.1f of %d commands (connections × pipeline); read-ahead"
                + " waiting for busy connections: peak %s of %s", inFlightMean, inFlightMost, mib(readAheadPeak),
                mib(readAheadBudget));
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }
}
