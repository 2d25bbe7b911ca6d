package io.fluxperf.engine.metrics;

import org.HdrHistogram.Histogram;

/**
 * What the kernel says of the load connections' TCP (their {@code TCP_INFO}), sampled about once a
 * second per connection on the load thread's own loop: segments retransmitted, segments the kernel
 * holds as lost, and the smoothed round-trip time. On a real network this tells packet loss
 * (retransmits, lost) from a slow server (a long service time over a short RTT). Written by one
 * thread; the run's thread adds the threads' together at a window's end.
 *
 * <p>Retransmits are counted as they grow between two samples of a connection, so segments
 * retransmitted after a connection's last sample, just before it closed, are not seen. Lost is a
 * level, not a count: the most segments marked lost at once (over a thread's connections at one
 * sample, summed over threads; over windows the largest).
 */
public final class TcpHealth {
    /** RTTs in µs up to a minute, 2 significant digits: small enough to keep with every window. */
    private static final long HIGHEST_MICROS = 60_000_000L;

    private long samples;
    private long retransmits;
    private long lost;
    /** Lost summed over the connections of the sampling round going on. */
    private long roundLost;
    private final Histogram rttMicros = new Histogram(1, HIGHEST_MICROS, 2);

    /**
     * One connection's sample.
     *
     * @param rttMicros   the kernel's smoothed RTT (tcpi_rtt), µs
     * @param retransmits segments retransmitted since the connection's previous sample
     * @param lostNow     segments marked lost now (tcpi_lost)
     */
    public void record(long rttMicros, long retransmits, long lostNow) {
        samples++;
        this.retransmits += retransmits;
        roundLost += lostNow;
        this.rttMicros.recordValue(Math.max(1, Math.min(HIGHEST_MICROS, rttMicros)));
    }

    /** A sampling round over the thread's connections is over: its lost segments count if they are the most. */
    public void roundDone() {
        lost = Math.max(lost, roundLost);
        roundLost = 0;
    }

    /** Adds another thread's figures of the same interval (its lost segments add up too). */
    public void add(TcpHealth o) {
        samples += o.samples;
        retransmits += o.retransmits;
        lost += o.lost;
        rttMicros.add(o.rttMicros);
    }

    /** Adds a later interval's figures (lost is the larger of the two: it is a level). */
    public void addLater(TcpHealth o) {
        samples += o.samples;
        retransmits += o.retransmits;
        lost = Math.max(lost, o.lost);
        rttMicros.add(o.rttMicros);
    }

    /** Figures read back from a run's files (a run directory): the counts and the RTTs as they were written. */
    public static TcpHealth restored(long samples, long retransmits, long lost, Histogram rttMicros) {
        TcpHealth t = new TcpHealth();
        t.samples = samples;
        t.retransmits = retransmits;
        t.lost = lost;
        if (rttMicros != null) {
            t.rttMicros.add(rttMicros);
        }
        return t;
    }

    /** The smoothed RTTs sampled, µs (a copy). */
    public Histogram rttMicros() {
        return rttMicros.copy();
    }

    /** Bytes of its RTT histogram, as HdrHistogram estimates them. */
    public long histogramBytes() {
        return rttMicros.getEstimatedFootprintInBytes();
    }

    public void reset() {
        samples = retransmits = lost = roundLost = 0;
        rttMicros.reset();
    }

    public TcpHealth copy() {
        TcpHealth c = new TcpHealth();
        c.add(this);
        return c;
    }

    /** The figures as numbers (all 0 when no connection was sampled). */
    public TcpFigures figures() {
        boolean any = rttMicros.getTotalCount() > 0;
        return new TcpFigures(samples, retransmits, lost, any ? rttMicros.getValueAtPercentile(50) : 0,
                any ? rttMicros.getMaxValue() : 0);
    }
}
