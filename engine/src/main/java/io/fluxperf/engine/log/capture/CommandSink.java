package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.LogEntry;

/**
 * Where a {@link ConnectionReader} puts what it reads from one connection: the capture's side of
 * the contract described there. The capture gives each command its send time (the capture time of
 * its first byte's packet), its place (that packet's number) and its original client (the
 * connection), keeps each command until its reply is known, and counts and names what is cut or
 * lost.
 */
public interface CommandSink {
    /**
     * A command starts at the byte just given: an entry, reset, with its time, place and client
     * already set, for the reader to fill (verb, command, keys, arguments, value).
     */
    LogEntry begin();

    /**
     * The bytes since {@link #begin()} were no command after all: a connection picked up mid-stream
     * tried a boundary that did not hold.
     */
    void abandon();

    /** The command begun is whole and is to be replayed; returns its handle. */
    long complete();

    /**
     * The command begun is whole but is not replayed (an admin command, a flush without
     * {@code --allow-flush}, a command the replay cannot send); returns its handle.
     *
     * @param reason what such commands are, for the report ("admin command (stats)")
     */
    long skip(String reason);

    /** A gap fell inside the command begun, where its protocol states the length: not replayed; returns its handle. */
    long cut();

    /**
     * The original server's answer to command {@code handle}: one of {@code LogEntry.REPLY_*}.
     * A handle settled twice keeps its first answer; an unknown handle is ignored.
     */
    void settle(long handle, byte reply);

    /**
     * The client's stream cannot be read on from here: a gap where the framing is (then
     * {@code why} is null and the capture names the gap), or bytes that are not the protocol's
     * ({@code why} says what they are, e.g. "bytes that are no redis command ('\x16\x03')").
     */
    void requestsLost(String why);

    /** The server's stream cannot be read on from here: the commands from here on have no known reply. */
    void repliesLost();

    /**
     * A whole reply came for a command the reader could not read (after {@link #requestsLost}):
     * it counts the commands a lost stream did not replay.
     */
    void unreadCommandAnswered();

    /**
     * A connection picked up mid-stream: its first provable command boundary came after
     * {@code bytesBefore} bytes of its stream (the rest of a command the capture began inside).
     */
    void pickedUp(long bytesBefore);
}
