package io.fluxperf.engine.target;

/** Starts a protocol's embedded server ({@link io.fluxperf.engine.protocol.Protocol#target()}). */
@FunctionalInterface
public interface TargetFactory {
    /**
     * Starts a server and returns once it listens.
     *
     * @throws IllegalStateException when it cannot listen (address in use, unknown host); the message says why
     */
    TargetServer start(TargetOptions options);
}
