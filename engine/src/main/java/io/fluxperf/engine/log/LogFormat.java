package io.fluxperf.engine.log;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * A kind of command log that replay reads: its name for {@code --format}, how its first line looks,
 * and how to read it. A protocol lists the formats whose commands it sends
 * ({@link io.fluxperf.engine.protocol.Protocol#logFormats()}); the format's reader lives in the
 * protocol's package.
 */
public interface LogFormat {
    /** The name {@code --format} takes, e.g. {@code redis-monitor}. */
    String label();

    /**
     * Whether {@code firstLine}, the first line of a log that is neither blank nor the {@code OK}
     * that redis-cli and memcached print first, is a line of this format.
     */
    boolean recognizes(String firstLine);

    /**
     * Commands a replay of this format reads ahead and sorts by time when {@code --read-ahead} is
     * not given: as far as its lines may be out of order. A log written by several threads
     * (memcached's workers, twemcache's per-thread buffers, the event loops of a trace) needs a
     * wide window; one written in order needs little, and a smaller window keeps the reader's
     * entries in the CPU's caches.
     */
    default int readAhead() {
        return 16_384;
    }

    /**
     * Whether a log of this format may hold any bytes (a raw protocol stream with binary values);
     * otherwise a NUL byte near its start means the file is not such a log.
     */
    default boolean binary() {
        return false;
    }

    /** Whether the format takes a sidecar file of send times ({@code --times}). */
    default boolean takesSendTimes() {
        return false;
    }

    /**
     * Readies replays of {@code log}: what must be read once before the first pass (a log whose
     * times have a resolution of seconds counts its commands per second), and the notes the
     * report shows.
     *
     * @param sendTimes the {@code --times} file, or null; only when {@link #takesSendTimes()}
     * @throws io.fluxperf.engine.UserError when the log cannot be read, naming it
     */
    PreparedLog prepare(Path log, Path sendTimes);

    /** A log readied for replay: as many passes over it as {@code --loop} asks. */
    interface PreparedLog {
        /** A new reader at the log's start. */
        LogReader open(ReaderContext ctx);

        /** What the report says about how this log was read (e.g. where send times came from). */
        List<String> notes();

        /**
         * Whether the log may be read in parts, each a run of whole lines, by several threads:
         * true where every line parses on its own, given the client and verb tables
         * ({@link ReaderContext#part} shares them) and what {@link #inOrder} does in the log's order.
         */
        default boolean splits() {
            return false;
        }

        /**
         * A reader of parts of the log (only where {@link #splits()}): it reads the lines of
         * {@code part}'s stream, and after each part's end reads the next one once
         * {@link LineLogReader#restart} is called.
         */
        default LineLogReader openPart(LogInput part, ReaderContext ctx) {
            throw new UnsupportedOperationException("this log is read by one thread");
        }

        /**
         * What the thread that puts a split log's parts back in order does to each command, one pass's
         * ({@link InOrderStep}); null when a part's reader gives each command whole. Only where
         * {@link #splits()}.
         *
         * @param ctx the context of the whole pass (not a part's)
         */
        default InOrderStep inOrder(ReaderContext ctx) {
            return null;
        }

        /** A log whose passes {@code open} makes and whose parts {@code openPart} reads, with these notes. */
        static PreparedLog splitting(Function<ReaderContext, LogReader> open,
                                     java.util.function.BiFunction<LogInput, ReaderContext, LineLogReader> openPart,
                                     List<String> notes) {
            return splitting(open, openPart, ctx -> null, notes);
        }

        /**
         * A log whose passes {@code open} makes and whose parts {@code openPart} reads, each pass of
         * a split read completing the parts' commands with the step {@code inOrder} makes, with these notes.
         */
        static PreparedLog splitting(Function<ReaderContext, LogReader> open,
                                     java.util.function.BiFunction<LogInput, ReaderContext, LineLogReader> openPart,
                                     Function<ReaderContext, InOrderStep> inOrder, List<String> notes) {
            List<String> kept = List.copyOf(notes);
            return new PreparedLog() {
                @Override
                public LogReader open(ReaderContext ctx) {
                    return open.apply(ctx);
                }

                @Override
                public List<String> notes() {
                    return kept;
                }

                @Override
                public boolean splits() {
                    return true;
                }

                @Override
                public LineLogReader openPart(LogInput part, ReaderContext ctx) {
                    return openPart.apply(part, ctx);
                }

                @Override
                public InOrderStep inOrder(ReaderContext ctx) {
                    return inOrder.apply(ctx);
                }
            };
        }

        /** A log whose passes {@code open} makes, with these notes. */
        static PreparedLog of(Function<ReaderContext, LogReader> open, List<String> notes) {
            List<String> kept = List.copyOf(notes);
            return new PreparedLog() {
                @Override
                public LogReader open(ReaderContext ctx) {
                    return open.apply(ctx);
                }

                @Override
                public List<String> notes() {
                    return kept;
                }
            };
        }
    }
}
