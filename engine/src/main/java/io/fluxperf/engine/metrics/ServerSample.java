package io.fluxperf.engine.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * One server's line of a statistics block in a run with several servers: its responses by
 * outcome, their rate over the interval, its latency percentiles (ns), and the redirects it
 * answered with (a cluster's MOVED and ASK).
 */
public record ServerSample(String server, String role, long responses, long ok, long miss, long error, long timeout,
                           long closed, double rate, long latencyP50, long latencyP99, long latencyP999, long moved,
                           long ask) {
    /** The samples of {@code servers} over an interval of {@code seconds}, each one a report shows ({@link ServerStats#shown()}). */
    public static List<ServerSample> of(List<ServerStats> servers, double seconds) {
        List<ServerSample> out = new ArrayList<>();
        for (ServerStats s : servers) {
            OutcomeCounts o = s.outcomes();
            boolean timed = s.latency().getTotalCount() > 0;
            if (!s.shown()) {
                continue;
            }
            out.add(new ServerSample(s.name(), s.role(), o.requests(), o.ok(), o.miss(), o.error(), o.timeout(), o.closed(),
                    seconds > 0 ? o.requests() / seconds : 0, timed ? s.latency().getValueAtPercentile(50) : 0,
                    timed ? s.latency().getValueAtPercentile(99) : 0, timed ? s.latency().getValueAtPercentile(99.9) : 0,
                    s.moved(), s.ask()));
        }
        return out;
    }
}
