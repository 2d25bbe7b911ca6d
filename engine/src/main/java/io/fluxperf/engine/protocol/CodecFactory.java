package io.fluxperf.engine.protocol;

/**
 * Makes the codecs of one run, one per connection, from options a {@link Protocol} has already
 * checked. Safe to share between event loops.
 */
@FunctionalInterface
public interface CodecFactory {
    ProtocolCodec newCodec();
}
