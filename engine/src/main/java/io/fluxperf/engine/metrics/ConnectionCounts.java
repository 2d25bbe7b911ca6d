package io.fluxperf.engine.metrics;

/** Connection events in a window: attempts, successes, failures, closes, and how many are open at its end. */
public final class ConnectionCounts {
    private long attempts;
    private long opened;
    private long failures;
    private long closed;
    private long open;

    public void attempt() {
        attempts++;
    }

    public void opened() {
        opened++;
    }

    public void failed() {
        failures++;
    }

    public void closed() {
        closed++;
    }

    public void setOpen(long open) {
        this.open = open;
    }

    public void add(ConnectionCounts o) {
        attempts += o.attempts;
        opened += o.opened;
        failures += o.failures;
        closed += o.closed;
        open += o.open;
    }

    public void reset() {
        attempts = opened = failures = closed = 0;
    }

    public long attempts() {
        return attempts;
    }

    public long openedCount() {
        return opened;
    }

    public long failures() {
        return failures;
    }

    public long closedCount() {
        return closed;
    }

    public long open() {
        return open;
    }

    public ConnectionCounts copy() {
        ConnectionCounts c = new ConnectionCounts();
        c.add(this);
        return c;
    }
}
