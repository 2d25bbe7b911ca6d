package io.fluxperf.engine.protocol;

/**
 * Publish/subscribe, for a protocol whose servers fan a message out to the connections subscribed
 * to its channel ({@link Protocol#pubSub()}, redis PUBLISH and SUBSCRIBE): the codecs of the
 * subscriber connections that {@code engine.pubsub} opens to measure what a publish workload's
 * messages take to arrive. The publishing itself is an ordinary request
 * ({@link io.fluxperf.engine.request.Command#PUBLISH}) of the protocol's codec.
 */
@FunctionalInterface
public interface PubSubProtocol {
    /**
     * The codec of one subscriber connection to one server, from the run's options (a password).
     *
     * @param sharded the server is a node of a cluster, whose channels are sharded by key (redis
     *                SSUBSCRIBE); otherwise every channel lives on the one server
     * @throws io.fluxperf.engine.UserError for a bad option, naming its place
     */
    SubscriberCodec subscriberCodec(ProtocolOptions options, boolean sharded);
}
