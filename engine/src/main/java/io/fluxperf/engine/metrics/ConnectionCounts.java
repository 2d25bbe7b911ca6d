package io.fluxperf.engine.metrics;

/**
 * Connection events in a window: attempts, successes, failures, closes, and how many are open at
 * its end; and, in a paced run, how long requests that were due waited for a connection with room.
 */
public final class ConnectionCounts {
    private long attempts;
    private long opened;
    private long failures;
    private long closed;
    private long open;
    private long roomWaitNanos;
    private long roomWaitBehindNanos;

    /** Counts read back from a run's files (a run directory). */
    public static ConnectionCounts of(long attempts, long opened, long failures, long closed, long open,
                                      long roomWaitNanos, long roomWaitBehindNanos) {
        ConnectionCounts c = new ConnectionCounts();
        c.attempts = attempts;
        c.opened = opened;
        c.failures = failures;
        c.closed = closed;
        c.open = open;
        c.roomWaitNanos = roomWaitNanos;
        c.roomWaitBehindNanos = roomWaitBehindNanos;
        return c;
    }

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

    /**
     * Adds time in which a paced request was due and no connection it could use had room for it
     * (each holds --pipeline requests): it waited for a reply. The server was slow, or a backlog
     * (after any stall, the client's too) could go out only as fast as replies freed connections.
     * Summed over load threads.
     *
     * @param behind the request was already behind its schedule when the wait began (a backlog
     *               going out); otherwise it was on time and the server held every connection
     */
    public void addRoomWait(long nanos, boolean behind) {
        roomWaitNanos += nanos;
        if (behind) {
            roomWaitBehindNanos += nanos;
        }
    }

    public void add(ConnectionCounts o) {
        attempts += o.attempts;
        opened += o.opened;
        failures += o.failures;
        closed += o.closed;
        open += o.open;
        roomWaitNanos += o.roomWaitNanos;
        roomWaitBehindNanos += o.roomWaitBehindNanos;
    }

    public void reset() {
        attempts = opened = failures = closed = roomWaitNanos = roomWaitBehindNanos = 0;
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

    /** See {@link #addRoomWait}. */
    public long roomWaitNanos() {
        return roomWaitNanos;
    }

    /** The part of {@link #roomWaitNanos()} whose requests were already behind when it began. */
    public long roomWaitBehindNanos() {
        return roomWaitBehindNanos;
    }

    public ConnectionCounts copy() {
        ConnectionCounts c = new ConnectionCounts();
        c.add(this);
        return c;
    }
}
