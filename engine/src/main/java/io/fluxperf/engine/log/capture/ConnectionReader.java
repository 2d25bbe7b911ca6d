package io.fluxperf.engine.log.capture;

/**
 * Reads one captured connection of a protocol: the client's requests into log entries, and the
 * server's replies into the original outcome of each. Both directions arrive as reassembled TCP
 * byte streams, in order, one segment's bytes per call, with the bytes the capture lacks given as
 * gaps of an exact size. A reader is a resumable state machine over those bytes: it never waits for
 * a whole command before starting on it, holds no more than the command it is reading, and
 * allocates nothing per command.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>At a command's first byte the reader calls {@link CommandSink#begin()} and fills the entry
 *       it gets; when the command is whole it calls {@link CommandSink#complete()} (to be
 *       replayed), or {@link CommandSink#skip} (read whole, not replayed, with the reason), or
 *       {@link CommandSink#cut()} (a gap fell inside a payload whose length the protocol states:
 *       the command is not replayed, the stream goes on after it).</li>
 *   <li>A gap that falls where the framing is (not inside a stated length) makes the rest of the
 *       client's stream unreadable: the reader calls {@link CommandSink#requestsLost} and reads no
 *       more requests on the connection. So do bytes that are not this protocol's.</li>
 *   <li>Each of {@code complete}, {@code skip} and {@code cut} returns the command's handle; the
 *       reader matches replies to handles as its protocol does (in order, or by opaque) and calls
 *       {@link CommandSink#settle} with the original reply class of each. A command that gets no
 *       reply (memcache's {@code noreply}) is settled at once, as {@code REPLY_UNKNOWN} or as what
 *       its silence means.</li>
 *   <li>A gap in the replies inside a stated length is skipped; elsewhere it ends the reading of
 *       replies: {@link CommandSink#repliesLost()}.</li>
 *   <li>A connection picked up mid-stream ({@code reset(false)}: the capture began after it
 *       opened) starts at the first command boundary the reader can prove, at the start of a
 *       segment; the bytes before it are reported with {@link CommandSink#pickedUp}. Its replies
 *       cannot be matched to commands and are not read.</li>
 * </ul>
 */
public interface ConnectionReader {
    /**
     * Readies the reader for a new connection.
     *
     * @param fromStart the capture holds the connection's first byte (its SYN was seen); false: it
     *                  was open before the capture began
     */
    void reset(boolean fromStart);

    /** The client's next bytes in order, {@code b[from, to)}: one segment's, so {@code from} is a segment's start. */
    void request(byte[] b, int from, int to, CommandSink out);

    /** {@code n} bytes of the client's stream that the capture lacks, where the next bytes would be. */
    void requestGap(long n, CommandSink out);

    /** The server's next bytes in order. */
    void reply(byte[] b, int from, int to, CommandSink out);

    /** {@code n} bytes of the server's stream that the capture lacks. */
    void replyGap(long n, CommandSink out);
}
