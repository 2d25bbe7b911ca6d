package io.fluxperf.engine.connection;

import io.netty.channel.EventLoop;
import java.util.concurrent.TimeUnit;

/**
 * The connect timeouts of one loop's bare sockets. All of them have the same timeout, so their
 * deadlines fall in the order the connects start: a queue in that order, and one timer for its
 * head, do what a Netty timer per connect did (a task object, a priority-queue insert and a
 * removal, for a connect that on loopback is over within microseconds).
 *
 * <p>A doubly linked list through the sockets themselves: adding and removing allocate nothing.
 * Lives on its loop; not thread-safe.
 */
final class ConnectDeadlines implements Runnable {
    private final EventLoop loop;
    private final int timeoutMillis;
    private final long timeoutNanos;
    private SocketWire head;
    private SocketWire tail;
    private boolean timerSet;

    ConnectDeadlines(EventLoop loop, int timeoutMillis) {
        this.loop = loop;
        this.timeoutMillis = timeoutMillis;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    int timeoutMillis() {
        return timeoutMillis;
    }

    /** {@code wire}'s connect started now: it times out after the timeout unless {@link #remove}d first. */
    void add(SocketWire wire) {
        wire.deadlineNanos = System.nanoTime() + timeoutNanos;
        wire.deadlinePrev = tail;
        wire.deadlineNext = null;
        if (tail == null) {
            head = wire;
        } else {
            tail.deadlineNext = wire;
        }
        tail = wire;
        wire.inDeadlines = true;
        if (!timerSet) {
            timerSet = true;
            loop.schedule(this, timeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** {@code wire}'s connect is over (either way); nothing if it was not waiting. */
    void remove(SocketWire wire) {
        if (!wire.inDeadlines) {
            return;
        }
        wire.inDeadlines = false;
        SocketWire prev = wire.deadlinePrev;
        SocketWire next = wire.deadlineNext;
        if (prev == null) {
            head = next;
        } else {
            prev.deadlineNext = next;
        }
        if (next == null) {
            tail = prev;
        } else {
            next.deadlinePrev = prev;
        }
        wire.deadlinePrev = null;
        wire.deadlineNext = null;
    }

    /** Number of connects waiting, for tests. */
    int waiting() {
        int n = 0;
        for (SocketWire w = head; w != null; w = w.deadlineNext) {
            n++;
        }
        return n;
    }

    /** The timer: fails the connects whose time is up, and sets itself for the next deadline, if any. */
    @Override
    public void run() {
        long now = System.nanoTime();
        // timerSet stays true meanwhile: a connect that a failure's listener starts waits for the schedule below
        while (head != null && head.deadlineNanos - now <= 0) {
            SocketWire expired = head;
            remove(expired);
            expired.connectTimedOut();
        }
        if (head != null) {
            loop.schedule(this, head.deadlineNanos - now, TimeUnit.NANOSECONDS);
        } else {
            timerSet = false;
        }
    }
}
