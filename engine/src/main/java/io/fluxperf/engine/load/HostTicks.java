package io.fluxperf.engine.load;

import io.fluxperf.engine.host.HostTuning;

/** The host policy's schedule while the load runs ({@link HostTuning.Load#tick}): ticked on every wake. */
final class HostTicks implements IntervalConsumer {
    private final HostTuning.Load host;
    private long next = Long.MAX_VALUE;

    HostTicks(HostTuning.Load host) {
        this.host = host;
    }

    @Override
    public boolean readsFigures() {
        return false;
    }

    @Override
    public long nextDueNanos() {
        return next;
    }

    @Override
    public void due(long nowNanos) {
        next = host.tick(nowNanos);
    }
}
