package io.fluxperf.engine.metrics;

import io.fluxperf.engine.request.Outcome;
import io.fluxperf.trace.LatencyHistograms;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * One server's part of an interval in a run with several (a pool member, a cluster node): the
 * requests that ended there by outcome and their latency, and the redirects it answered with (a
 * cluster node's MOVED and ASK). A redirected request counts where it ended, so the servers'
 * requests add up to the run's; the redirect counts where it was sent first. Written by one thread
 * only; a kept copy ({@link #kept()}) holds its histogram encoded.
 */
public final class ServerStats {
    /**
     * The name of the figure, after the servers', of requests a run with several servers sent to
     * none (their keys live on several): they end as errors there, so that the figures add up.
     */
    public static final String NOT_SENT = "(not sent)";

    private final String name;
    private final String role;
    private final OutcomeCounts outcomes = new OutcomeCounts();
    /** Int counts in one load thread's interval ({@link #intervalCopy()}), long ones in sums. */
    private final AbstractHistogram latency;
    private final KeptHistogram keptLatency;
    private long sent;
    private long moved;
    private long ask;

    /**
     * @param name the server as the report names it (HOST:PORT)
     * @param role "master" or "replica" for a cluster's node, null for a pool's server
     */
    public ServerStats(String name, String role) {
        this(name, role, LatencyHistograms.create(), null);
    }

    private ServerStats(String name, String role, AbstractHistogram latency, KeptHistogram kept) {
        this.name = name;
        this.role = role;
        this.latency = latency;
        this.keptLatency = kept;
    }

    /** A server's figures read back from a run's files (a run directory). */
    public static ServerStats restored(String name, String role, OutcomeCounts outcomes, long sent, long moved, long ask,
                                       Histogram latency) {
        ServerStats s = new ServerStats(name, role);
        s.outcomes.add(outcomes);
        s.sent = sent;
        s.moved = moved;
        s.ask = ask;
        if (latency != null) {
            s.latency.add(latency);
        }
        return s;
    }

    public String name() {
        return name;
    }

    /** The figure of requests sent to no server ({@link #NOT_SENT}), shown only when it has some. */
    public boolean isNotSent() {
        return role == null && NOT_SENT.equals(name);
    }

    /** Whether a report shows this figure: every server's, and the not-sent one when it has requests. */
    public boolean shown() {
        return !isNotSent() || outcomes.requests() > 0;
    }

    /** "master" or "replica" for a cluster's node; null for a server of a pool. */
    public String role() {
        return role;
    }

    /** A request ended here; latency as the run measures it (from the intended time in open loop). */
    public void record(Outcome outcome, long latencyNanos) {
        outcomes.increment(outcome);
        LatencyHistograms.record(latency, latencyNanos);
    }

    /** A request went out to this server (redirected ones each time). */
    public void recordSent() {
        sent++;
    }

    /** This server answered a request with a redirect: MOVED when {@code moved}, else ASK. */
    public void recordRedirect(boolean movedForGood) {
        if (movedForGood) {
            moved++;
        } else {
            ask++;
        }
    }

    public void add(ServerStats other) {
        outcomes.add(other.outcomes);
        latency.add(other.latency());
        sent += other.sent;
        moved += other.moved;
        ask += other.ask;
    }

    /** Bytes of its latency histogram, as HdrHistogram estimates them. */
    public long histogramBytes() {
        return latency().getEstimatedFootprintInBytes();
    }

    public void reset() {
        outcomes.reset();
        latency.reset();
        sent = 0;
        moved = 0;
        ask = 0;
    }

    /**
     * The same figures under another role (a cluster's replica promoted to master): a view that
     * shares this one's histogram, for a window's report.
     */
    public ServerStats withRole(String newRole) {
        ServerStats c = new ServerStats(name, newRole, latency, keptLatency);
        c.outcomes.add(outcomes);
        c.sent = sent;
        c.moved = moved;
        c.ask = ask;
        return c;
    }

    /** An empty one of the same server, for sums (long counts). */
    public ServerStats emptyCopy() {
        return new ServerStats(name, role);
    }

    /** An empty one of the same server for a load thread's interval (int counts, as {@link WorkloadStats#interval()}). */
    public ServerStats intervalCopy() {
        return new ServerStats(name, role, LatencyHistograms.createInterval(), null);
    }

    /** A copy with the same figures (a new histogram). */
    public ServerStats copy() {
        ServerStats c = emptyCopy();
        c.add(this);
        return c;
    }

    /** A read-only copy whose histogram is kept encoded, for a window kept after its report. */
    public ServerStats kept() {
        ServerStats c = new ServerStats(name, role, null, KeptHistogram.of(latency()));
        c.outcomes.add(outcomes);
        c.sent = sent;
        c.moved = moved;
        c.ask = ask;
        return c;
    }

    public OutcomeCounts outcomes() {
        return outcomes;
    }

    /** The latency histogram; a kept copy's is decoded anew on each call. */
    public AbstractHistogram latency() {
        return latency != null ? latency : keptLatency.histogram();
    }

    public long sent() {
        return sent;
    }

    /** Redirects this server answered with because the key's shard belongs to another node now (MOVED). */
    public long moved() {
        return moved;
    }

    /** Redirects this server answered with because the key's shard is being moved (ASK). */
    public long ask() {
        return ask;
    }
}
