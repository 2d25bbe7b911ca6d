package io.fluxperf.engine.log.capture;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * The ring of chunks a split read hands over, and the waits and wake-ups of its three roles: the file
 * thread fills chunk {@code k} once the merger has given out what its slot held, each share reads it
 * once published, and the merger takes it once every share is done. Kept apart so each role's class
 * holds its work and this one holds every cross-thread field.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 * <li>One writer per field: the file thread writes a chunk's items and {@code seq} (last), each share
 *     only its own {@link SplitEvents} and {@code done} (last), the merger {@code released}.</li>
 * <li>A slot is refilled only after the merger released the chunk it held, so what a share or the
 *     merger reads is never written meanwhile.</li>
 * <li>Each hand-over unparks the thread waiting for it; the bounded park only covers a missed wake-up.</li>
 * </ul>
 */
final class SplitRing {
    /** The longest park of a thread that waits: each hand-over unparks the thread that waits for it, so this only bounds a wait. */
    private static final long PARK_NANOS = 1_000_000L;

    private final SplitChunk[] chunks;
    private Thread fileThread;
    private SplitShare[] shares;

    private volatile boolean fileWaiting;
    /** Chunks read, once the file is read to its end (or a failure); until then Long.MAX_VALUE. */
    private volatile long total = Long.MAX_VALUE;
    private volatile Throwable readFailure;
    private volatile boolean closed;
    /** Chunks given out whole: a chunk's slot is read again once its chunk is. */
    private volatile long released;
    private volatile Thread merger;
    private volatile boolean mergerWaiting;

    /** At most {@code 2 × threads + 2} chunks read and not yet given out: memory bounded by their bytes. */
    SplitRing(int threads) {
        this.chunks = new SplitChunk[2 * threads + 2];
        for (int i = 0; i < chunks.length; i++) {
            chunks[i] = new SplitChunk(threads);
        }
    }

    /** Starts the shares' threads, then the file thread. */
    void start(Thread file, SplitShare[] all) {
        this.fileThread = file;
        this.shares = all;
        for (SplitShare s : all) {
            s.thread.start();
        }
        file.start();
    }

    // ---- the file thread's side ----

    /** The chunk slot of chunk {@code k}, cleared, once the merger has given out what it held; null when closed. */
    SplitChunk take(long k) {
        SplitChunk c = chunks[(int) (k % chunks.length)];
        while (released <= k - chunks.length) {
            fileWaiting = true;
            try {
                if (closed) {
                    return null;
                }
                if (released <= k - chunks.length) {
                    LockSupport.parkNanos(PARK_NANOS);
                }
            } finally {
                fileWaiting = false;
            }
        }
        c.clear();
        return c;
    }

    void publish(SplitChunk c, long k, long pos, long packets) {
        c.position = pos;
        c.packets = packets;
        c.seq = k; // volatile: the shares and the merger see the chunk whole
        for (SplitShare s : shares) {
            if (s.waiting) {
                LockSupport.unpark(s.thread);
            }
        }
    }

    /** The file is read: {@code k} chunks in all, and the failure that ended it, if one did. */
    void finish(long k, Throwable failure) {
        if (failure != null) {
            readFailure = failure;
        }
        total = k;
    }

    /** Wakes every thread that may wait on the file thread, once it is done. */
    void fileDone() {
        wakeMerger();
        for (SplitShare s : shares) {
            LockSupport.unpark(s.thread);
        }
    }

    // ---- a share's side ----

    /** Chunk {@code k} once published; null when closed or when the file held fewer chunks. */
    SplitChunk published(long k, SplitShare s) {
        SplitChunk c = chunks[(int) (k % chunks.length)];
        while (c.seq != k) {
            if (closed || k >= total) {
                return null;
            }
            s.waiting = true;
            try {
                if (c.seq != k && !closed && k < total) {
                    LockSupport.parkNanos(PARK_NANOS);
                }
            } finally {
                s.waiting = false;
            }
        }
        return c;
    }

    void wakeMerger() {
        if (mergerWaiting) {
            Thread m = merger;
            if (m != null) {
                LockSupport.unpark(m);
            }
        }
    }

    // ---- the merger's side ----

    /** Chunk {@code k} once every share is done with it; null once every chunk is given out. */
    SplitChunk done(long k) throws IOException {
        while (true) {
            if (k >= total) {
                return null;
            }
            SplitChunk c = chunks[(int) (k % chunks.length)];
            if (c.seq == k && c.done()) {
                return c;
            }
            if (closed) {
                throw new IOException("the capture's reader was closed");
            }
            merger = Thread.currentThread();
            mergerWaiting = true;
            try {
                if ((c.seq != k || !c.done()) && k < total) {
                    LockSupport.parkNanos(PARK_NANOS);
                }
            } finally {
                mergerWaiting = false;
            }
        }
    }

    /** Chunk {@code k} is given out whole: its slot may be read again. */
    void release(long k) {
        released = k + 1;
        if (fileWaiting) {
            LockSupport.unpark(fileThread);
        }
    }

    Throwable readFailure() {
        return readFailure;
    }

    /** Stops the threads, waiting up to 10 s for each. */
    void close() {
        closed = true;
        LockSupport.unpark(fileThread);
        for (SplitShare s : shares) {
            LockSupport.unpark(s.thread);
        }
        try {
            fileThread.join(10_000);
            for (SplitShare s : shares) {
                s.thread.join(10_000);
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@code t} as the merger throws it: an IOException to throw, or unchecked thrown here. */
    static IOException rethrown(Throwable t) {
        if (t instanceof IOException io) {
            return io;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error err) {
            throw err;
        }
        throw new IllegalStateException(t);
    }
}
