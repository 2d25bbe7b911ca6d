package io.fluxperf.engine.protocol;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.capture.CaptureProtocol;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetFactory;
import java.util.List;

/**
 * A wire protocol as a plug-in: everything the engine, the embedded targets and replay need to
 * know about it, behind one interface. The engine knows protocols only through it; each lives in
 * a package of its own ({@code io.fluxperf.engine.protocol.NAME} and its sub-packages) and is
 * listed once, in {@code META-INF/services/io.fluxperf.engine.protocol.Protocol}, which
 * {@link Protocols} reads.
 */
public interface Protocol {
    /** The name users type ({@code --protocol memcache}). */
    String name();

    /** The port its servers usually listen on. */
    int defaultPort();

    /** The protocol of a run that names none; exactly one registered protocol says so. */
    default boolean isDefault() {
        return false;
    }

    /** Whether a workload of this protocol may use {@code command}. */
    boolean supports(Command command);

    /**
     * Whether this protocol's embedded target ({@link #target()}) answers {@code command}, so that a
     * run without a server may send it. The commands the client supports, unless the protocol
     * says otherwise (redis' scripts need a real redis).
     */
    default boolean targetAnswers(Command command) {
        return supports(command);
    }

    /** The options this protocol reads (redis: {@code --db}, HTTP: {@code --header}, …). */
    default List<ProtocolOption> options() {
        return List.of();
    }

    /**
     * Reads and checks this protocol's options once per run and returns what makes the run's
     * codecs, one per connection.
     *
     * @param options the values the user gave for {@link #options()}; no others
     * @param server  the target as the user named it (HOST:PORT or unix:/path), or null for the
     *                embedded target
     * @throws io.fluxperf.engine.UserError for a bad value, naming its place
     */
    CodecFactory codecs(ProtocolOptions options, String server);

    /**
     * The options a run against this protocol's embedded target may keep of {@code given}: the
     * in-process warm-up runs the user's settings against it, less those that only a real server
     * takes (redis: a password, which the embedded server has none of).
     */
    default ProtocolOptions forEmbeddedTarget(ProtocolOptions given) {
        return given;
    }

    /** How replies fall into classes for the report (HTTP's status classes); none by default. */
    default ReplyClasses replyClasses() {
        return ReplyClasses.NONE;
    }

    /** How requests and replies are framed over UDP, or null when the protocol has no UDP. */
    default DatagramFraming datagramFraming() {
        return null;
    }

    /** The command logs whose commands replay sends with this protocol, in the order to try them on a log. */
    default List<LogFormat> logFormats() {
        return List.of();
    }

    /**
     * How this protocol's traffic is read from a packet capture (its requests replayed, its replies
     * told apart), or null when it is not. Several protocols may share one reading (memcache's text
     * and binary protocols are read by one, since real clients mix them on one port): only one of
     * them returns it.
     */
    default CaptureProtocol capture() {
        return null;
    }

    /** What the engine needs to load a cluster of this protocol's servers ({@code --cluster}), or null when it has none. */
    default ClusterProtocol cluster() {
        return null;
    }

    /**
     * Publish/subscribe ({@link io.fluxperf.engine.request.Command#PUBLISH} with subscribers): the
     * codecs of subscriber connections, or null when the protocol has none.
     */
    default PubSubProtocol pubSub() {
        return null;
    }

    /** How to read the server's own clock (sharded runs compare agents' clocks by it), or null when it has none. */
    default ServerClock serverClock() {
        return null;
    }

    /**
     * This protocol's no-op for the latency floor, with the run's options and workloads (HTTP
     * gets its path and headers from them), or null when it has none.
     *
     * @param server the target as the user named it, or null for the embedded target
     */
    default IdleRoundTrip idleRoundTrip(ProtocolOptions options, String server,
                                        java.util.List<io.fluxperf.engine.config.WorkloadConfig> workloads) {
        return null;
    }

    /**
     * Whether {@code start}, the first bytes of a reply (at most {@link UnexpectedReply#START}),
     * look like a reply of this protocol's servers: how a run pointed at another kind of server is
     * told which {@code --protocol} to try ({@link UnexpectedReply#hint}). None by default.
     */
    default boolean looksLikeItsReply(byte[] start) {
        return false;
    }

    /** Starts an embedded server of this protocol, or null when it has none. */
    default TargetFactory target() {
        return null;
    }
}
