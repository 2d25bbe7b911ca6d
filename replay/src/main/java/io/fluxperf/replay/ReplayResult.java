package io.fluxperf.replay;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.metrics.RunResult;
import java.util.List;
import java.util.Map;

/**
 * A replay's outcome: the run's result (windows, outcomes, latency, per-command workloads) plus
 * the replay's fidelity.
 *
 * @param run             the run, as {@code run} reports it
 * @param log             the log as the user named it
 * @param sendLagNanos    {p50, p99, max} of actual minus scheduled send time, ns; null when nothing was scheduled
 * @param originalSeconds the log's span from its first to its last command (one pass); NaN when it has no times
 * @param replaySeconds   how long the replay took, from its start to its last reply
 * @param expectedSeconds the schedule's span (original / speed, gaps cut by --max-wait, all loops); NaN without a schedule
 * @param commands        commands replayed, per verb
 * @param commandsRead    commands read from the log (first pass, before --only)
 * @param lines           lines (or records) of the log (first pass)
 * @param badLines        lines that could not be parsed (all passes)
 * @param firstBadLines   the first few, with their place
 * @param skipped         lines read but not replayed, by reason (all passes)
 * @param filtered        commands left out by --only (all passes)
 * @param late            commands that came later than the read-ahead could sort; sent at once
 * @param adjusted        commands sent differently from how they were logged, by what changed
 * @param notes           how this log was interpreted (timestamp resolution, synthesised values)
 * @param failure         why the replay stopped early (a bad line under --strict), or null
 * @param warmup          the replay began with a warm-up that the run's figures leave out (commands count it)
 * @param intervalPositions where in the log each statistics block ({@code --stats-interval}) ended, in
 *                        the order of the run's intervals; empty without blocks
 * @param originalReplies what the original server answered the commands sent, where the log holds its
 *                        replies (a packet capture); null otherwise
 * @param limit           commands in flight, the read-ahead's memory, and what held the replay back
 */
public record ReplayResult(RunResult run, String log, LogFormat format, String protocol, String speed, int loops,
                           long[] sendLagNanos, double originalSeconds, double replaySeconds, double expectedSeconds,
                           Map<String, Long> commands, long commandsRead, long lines, long badLines,
                           List<String> firstBadLines, Map<String, Long> skipped, long filtered, long late,
                           Map<String, Long> adjusted, List<String> notes, String failure, boolean warmup,
                           List<LogPosition> intervalPositions, OriginalReplies originalReplies, ReplayLimit limit) {

    /** Lines read but not replayed: bad, skipped, filtered. */
    public long linesSkipped() {
        return badLines + skipped.values().stream().mapToLong(Long::longValue).sum() + filtered;
    }

    public long replayed() {
        return commands.values().stream().mapToLong(Long::longValue).sum();
    }
}
