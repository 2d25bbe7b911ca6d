package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.log.capture.CaptureProtocol;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.http.log.HttpCapture;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOption;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.ReplyClasses;
import io.fluxperf.engine.protocol.http.target.HttpTargetServer;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.target.TargetFactory;
import java.util.List;

/**
 * HTTP/1.1 (RFC 9112) over keep-alive connections: GET, POST, PUT and DELETE of a path template
 * ({@code --path /items/__key__}; {@code /} without one), the user's headers
 * ({@code --header "Name: value"}), bodies of {@code --bytes} for POST and PUT, responses
 * counted as OK by status class ({@code --http-ok}, 2xx by default) and reported per class. See
 * {@link HttpClientCodec} for the rules; the embedded server is {@link HttpTargetServer}.
 *
 * <p>Host: requests name the server as {@code --server} gives it, unless the user gives a
 * {@code Host} header; the embedded target and Unix sockets get {@code Host: localhost}.
 */
public final class HttpProtocol implements Protocol {
    public static final String NAME = "http";
    /** Status classes 1xx to 5xx, as {@link HttpClientCodec#replyClass()} numbers them. */
    static final ReplyClasses STATUS_CLASSES = ReplyClasses.of("Status", "1xx", "2xx", "3xx", "4xx", "5xx");

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int defaultPort() {
        return 80;
    }

    @Override
    public boolean supports(Command command) {
        return switch (command) {
            case GET, POST, PUT, DELETE -> true;
            default -> false;
        };
    }

    @Override
    public List<ProtocolOption> options() {
        return HttpOptions.DECLARED;
    }

    /**
     * The request head is encoded once per run and shared by its codecs: with a connection per
     * request, building it for each was 1.3 % of the load thread (its header parsing and strings).
     */
    @Override
    public CodecFactory codecs(ProtocolOptions options, String server) {
        HttpOptions http = HttpOptions.of(options, server);
        HttpRequestHead head = HttpRequestHead.of(http.headers(), HttpRequestHead.DEFAULT_HOST);
        return () -> new HttpClientCodec(head, http.okClasses());
    }

    /** An HTTP/1.x status line. */
    @Override
    public boolean looksLikeItsReply(byte[] start) {
        return HttpIdleRoundTrip.isStatusLine(start);
    }

    /** A GET of the run's path ({@link HttpIdleRoundTrip}). */
    @Override
    public io.fluxperf.engine.protocol.IdleRoundTrip idleRoundTrip(ProtocolOptions options, String server,
            List<io.fluxperf.engine.config.WorkloadConfig> workloads) {
        HttpOptions http = HttpOptions.of(options, server);
        return new HttpIdleRoundTrip(HttpRequestHead.of(http.headers(), HttpRequestHead.DEFAULT_HOST), workloads);
    }

    @Override
    public ReplyClasses replyClasses() {
        return STATUS_CLASSES;
    }

    /** Connections read from a packet capture: requests and their responses ({@link HttpCapture}). */
    @Override
    public CaptureProtocol capture() {
        return HttpCapture.INSTANCE;
    }

    @Override
    public TargetFactory target() {
        return HttpTargetServer::start;
    }
}
