package io.fluxperf.engine.log.capture;

/**
 * The commands of one connection that wait for their replies, oldest first: each a handle (from
 * {@link CommandSink}) and two numbers its protocol reads the reply by (what kind of reply it
 * expects, and e.g. its key count or its opaque). It also knows whether the client's stream is
 * still read: a reply that finds no command waiting after that answered a command that was not
 * read. A ring that doubles when full, so that adding and taking allocate nothing once the
 * connection's deepest pipeline has been seen.
 */
public final class WaitingCommands {
    private long[] handle = new long[16];
    private int[] kind = new int[16];
    private int[] value = new int[16];
    private int head;
    private int count;
    private boolean requestsEnded;

    /** Forgets every command (a new connection). */
    public void clear() {
        head = 0;
        count = 0;
        requestsEnded = false;
    }

    /** The client's stream is read no further: no command will be added. */
    public void requestsEnded() {
        requestsEnded = true;
    }

    /**
     * A whole reply for the oldest command: settles it as {@code reply} (one of
     * {@code LogEntry.REPLY_*}), or, with none waiting, counts it as {@link #noneFor} does.
     */
    public void settleNext(CommandSink out, byte reply) {
        if (!noneFor(out)) {
            out.settle(take(), reply);
        }
    }

    /**
     * Whether no command waits for the reply that just came; if so, and the client's stream is
     * read no further, the reply answered a command that was not read
     * ({@link CommandSink#unreadCommandAnswered()}).
     */
    public boolean noneFor(CommandSink out) {
        if (count > 0) {
            return false;
        }
        if (requestsEnded) {
            out.unreadCommandAnswered();
        }
        return true;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** Adds a command at the end. */
    public void add(long h, int k, int v) {
        if (count == handle.length) {
            grow();
        }
        int slot = (head + count) & (handle.length - 1);
        handle[slot] = h;
        kind[slot] = k;
        value[slot] = v;
        count++;
    }

    /** The oldest command's kind; only when not {@link #isEmpty()}. */
    public int kind() {
        return kind[head];
    }

    /** The oldest command's value; only when not {@link #isEmpty()}. */
    public int value() {
        return value[head];
    }

    /** Takes the oldest command off; returns its handle. */
    public long take() {
        long h = handle[head];
        head = (head + 1) & (handle.length - 1);
        count--;
        return h;
    }

    private void grow() {
        int n = handle.length * 2;
        long[] h = new long[n];
        int[] k = new int[n];
        int[] v = new int[n];
        for (int i = 0; i < count; i++) {
            int slot = (head + i) & (handle.length - 1);
            h[i] = handle[slot];
            k[i] = kind[slot];
            v[i] = value[slot];
        }
        handle = h;
        kind = k;
        value = v;
        head = 0;
    }
}
