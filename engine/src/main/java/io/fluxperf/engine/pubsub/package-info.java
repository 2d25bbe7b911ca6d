/**
 * Publish/subscribe measured: a publish workload's subscribers ({@link io.fluxperf.engine.pubsub.PubSubRun}),
 * their connections on an event loop of their own ({@link io.fluxperf.engine.pubsub.SubscriberConnection}),
 * what each received ({@link io.fluxperf.engine.pubsub.Deliveries}) and the run's account of the
 * messages it published ({@link io.fluxperf.engine.pubsub.MessageLedger}), reconciled message by
 * message. Protocol-neutral: a protocol takes part through {@code engine.protocol.PubSubProtocol}.
 */
package io.fluxperf.engine.pubsub;
