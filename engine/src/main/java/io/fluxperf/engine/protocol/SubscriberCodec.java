package io.fluxperf.engine.protocol;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * One subscriber connection's side of publish/subscribe: what it sends once (its handshake and
 * its subscriptions), then the decoding of what the server pushes: each subscription's
 * confirmation and each message, whose payload goes to a {@link MessageSink}. Not thread-safe: one
 * per connection, on its event loop.
 */
public interface SubscriberCodec {
    /**
     * Writes the connection's handshake (a password, a protocol version) and its subscription to
     * every one of {@code channels}.
     *
     * @return how many confirmations the server will send: one per channel
     */
    int writeSubscribe(List<byte[]> channels, ByteBuf out);

    /**
     * Decodes whole frames from {@code in}'s reader index on (handshake replies, confirmations,
     * messages), telling {@code sink} of each confirmation and message; a partial frame is left for
     * the next call, never thrown for. Nothing is allocated per message.
     *
     * @throws HandshakeRefused   when the server refused the handshake (a wrong password)
     * @throws ProtocolException  when the bytes are no push of a subscribed connection, or the server
     *                            refused a subscription
     */
    void decode(ByteBuf in, MessageSink sink) throws ProtocolException;

    /** Where a subscriber connection's codec puts what it decoded. */
    interface MessageSink {
        /** The subscription to one channel is confirmed. */
        void subscribed();

        /** A message arrived: its payload is {@code in[start, start + length)}, readable during the call only. */
        void message(ByteBuf in, int start, int length);
    }
}
