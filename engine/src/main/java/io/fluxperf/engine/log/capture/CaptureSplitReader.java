package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.ReaderContext;
import java.io.IOException;

/**
 * A packet capture read by several threads, split by connection ({@code --reader-threads}): the
 * commands, their order, client numbers and places, and what is counted (cut, skipped, lost
 * streams, bad lines) are exactly those {@link CaptureReader} gives on one thread.
 *
 * <h2>How</h2>
 * <ul>
 * <li>{@link SplitFileThread} reads the file and decodes its packets, and gives each TCP segment to the
 *     share its connection's hash names, in {@link SplitChunk}s of at most {@link SplitChunk#ITEMS}
 *     items and about {@link SplitChunk#BYTES} payload bytes.</li>
 * <li>Each {@link SplitShare} runs a {@link CaptureReader} of its own over its connections and writes
 *     what it does as {@link SplitEvents}.</li>
 * <li>{@link SplitMerger}, on the thread calling {@link #next}, takes the events in packet order and
 *     numbers clients and verbs as one reader does.</li>
 * <li>{@link SplitRing} bounds the chunks read and not yet given out to {@code 2 × threads + 2}, so
 *     memory is bounded by their bytes, whatever the capture's size.</li>
 * </ul>
 */
public final class CaptureSplitReader implements LogReader {
    private final LogInput input;
    private final ReaderContext ctx;
    private final SplitRing ring;
    private final SplitMerger merger;
    private boolean ended;

    /**
     * Starts the file thread and {@code threads} share threads over {@code input}.
     *
     * @param selection the servers whose connections are read
     */
    public CaptureSplitReader(LogInput input, ReaderContext ctx, CaptureSelection selection, int threads) {
        if (threads < 2) {
            throw new IllegalArgumentException("a split read takes 2 threads or more, not " + threads);
        }
        this.input = input;
        this.ctx = ctx;
        CaptureFile file = new CaptureFile(ctx.name, input.stream());
        String snapReason = "commands cut by the capture's " + file.largestSnapLength() + "-byte snap length (never sent half)";
        this.ring = new SplitRing(threads);
        this.merger = new SplitMerger(ctx, ring, threads);
        SplitShare[] shares = new SplitShare[threads];
        for (int i = 0; i < threads; i++) {
            shares[i] = new SplitShare(i, ring, ctx, selection, snapReason);
        }
        Thread fileThread = new Thread(new SplitFileThread(input, file, ring, threads), "capture-file");
        fileThread.setDaemon(true);
        ring.start(fileThread, shares);
    }

    @Override
    public boolean next(LogEntry e) throws IOException {
        if (merger.next(e)) {
            return true;
        }
        end();
        return false;
    }

    private void end() throws IOException {
        if (ended) {
            return;
        }
        ended = true;
        Throwable f = ring.readFailure();
        if (f != null) {
            if (f instanceof IOException io) {
                throw io;
            }
            if (f instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(f);
        }
        input.reportEnd(ctx);
    }

    @Override
    public long position() {
        return merger.position;
    }

    @Override
    public long size() {
        return input.fileSize();
    }

    @Override
    public long lines() {
        return merger.lines;
    }

    @Override
    public void close() {
        ring.close();
        input.close();
    }
}
