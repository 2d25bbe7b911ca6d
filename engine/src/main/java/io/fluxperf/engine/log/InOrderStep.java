package io.fluxperf.engine.log;

/**
 * What a reader does to each command in the log's order, beyond its own line: the state a format
 * carries from line to line other than clients and verbs (spreading a second's commands evenly over
 * it, dropping the fetch memcached logs inside a store). A reader of the whole log applies its step
 * to each command as it reads it; a log read in parts by several threads
 * ({@link LogFormat.PreparedLog#splits()}) has its parts read without it, and the thread that puts
 * the parts back in order applies it to each command, after numbering its client as one reader
 * would. So both give the same commands.
 *
 * <p>Single-threaded (one pass's), allocation-free per command.
 */
@FunctionalInterface
public interface InOrderStep {
    /**
     * Completes {@code e}, the log's next command (its client numbered in the log's order); it may
     * mark an earlier command of the pass that is still unsent ({@link LogEntry#inWindow}) dropped.
     */
    void apply(LogEntry e);
}
