package io.fluxperf.engine.protocol.memcache;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.capture.CaptureProtocol;
import io.fluxperf.engine.protocol.memcache.log.MemcacheCapture;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.DatagramFraming;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.memcache.log.MemcacheLogFormats;
import io.fluxperf.engine.protocol.memcache.target.MemcacheTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetFactory;
import java.util.List;

/**
 * memcached's text protocol (protocol.txt in memcached's repository), over TCP, Unix sockets or
 * UDP ({@link MemcacheUdpFraming}); the protocol of a run that names none. The embedded server
 * ({@link MemcacheTargetServer}) speaks it and the binary protocol on the same port.
 */
public final class MemcacheProtocol implements Protocol {
    public static final String NAME = "memcache";
    private static final DatagramFraming UDP = new MemcacheUdpFraming();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int defaultPort() {
        return 11211;
    }

    @Override
    public boolean isDefault() {
        return true;
    }

    @Override
    public boolean supports(Command command) {
        return switch (command) {
            // the text codec's commands; COMMAND is a replayed log's workload for verbs its plan did not see
            case GET, GETS, SET, ADD, REPLACE, APPEND, PREPEND, CAS, DELETE, INCR, DECR, TOUCH, FLUSH, COMMAND -> true;
            default -> false;
        };
    }

    @Override
    public CodecFactory codecs(ProtocolOptions options, String server) {
        return MemcacheTextCodec::new;
    }

    @Override
    public DatagramFraming datagramFraming() {
        return UDP;
    }

    /** Connections read from a packet capture, text and binary ({@link MemcacheCapture}). */
    @Override
    public CaptureProtocol capture() {
        return MemcacheCapture.INSTANCE;
    }

    @Override
    public List<LogFormat> logFormats() {
        return MemcacheLogFormats.ALL;
    }

    /** A text protocol reply line: {@code VERSION}, {@code VALUE}, {@code END}, {@code STORED}, {@code ERROR} and the rest. */
    @Override
    public boolean looksLikeItsReply(byte[] start) {
        return MemcacheIdleRoundTrip.isTextReply(start);
    }

    /** {@code version} ({@link MemcacheIdleRoundTrip}). */
    @Override
    public io.fluxperf.engine.protocol.IdleRoundTrip idleRoundTrip(ProtocolOptions options, String server,
            java.util.List<io.fluxperf.engine.config.WorkloadConfig> workloads) {
        return MemcacheIdleRoundTrip.text();
    }

    @Override
    public TargetFactory target() {
        return MemcacheTargetServer::start;
    }
}
