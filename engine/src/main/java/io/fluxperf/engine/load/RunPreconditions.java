package io.fluxperf.engine.load;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.connection.IoUringClientLoop;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;

/**
 * What a config needs of its protocol and of this machine, checked before a run opens anything
 * (and before the warm-up that shares the config), each refusal one sentence naming the flag.
 */
public final class RunPreconditions {
    private RunPreconditions() {
    }

    /**
     * Whether {@code protocol} and this machine can run {@code config}, as {@link LoadRun}'s constructor checks.
     *
     * @throws UserError naming the flag when not
     */
    public static void check(RunConfig config, Protocol protocol) {
        if (config.connection().udp() && protocol.datagramFraming() == null) {
            throw new UserError("--udp: protocol " + protocol.name() + " has no UDP framing; "
                    + Protocols.all().stream().filter(p -> p.datagramFraming() != null).map(Protocol::name).toList()
                    + " runs over UDP");
        }
        for (WorkloadConfig w : config.workloads()) {
            if (!protocol.supports(w.method())) {
                throw new UserError("--method: " + protocol.name() + " has no command '" + w.method().label() + "'");
            }
        }
        if (config.connection().ioUring()) {
            IoUringClientLoop.ensureAvailable(); // one sentence now, not a stack trace from the first loop
        }
    }

    /** The registered protocol called {@code name}, or a {@link UserError} naming --protocol. */
    static Protocol registered(String name) {
        Protocol found = Protocols.find(name);
        if (found == null) {
            throw new UserError("--protocol: unknown protocol '" + name + "'; expected one of " + Protocols.names());
        }
        return found;
    }
}
