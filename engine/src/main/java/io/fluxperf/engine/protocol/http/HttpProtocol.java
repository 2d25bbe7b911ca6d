package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Command;

/**
 * HTTP/1.1 (RFC 9112) over keep-alive connections: GET, POST, PUT and DELETE of a path template
 * ({@code --path /items/__key__}), the user's headers ({@code --header "Name: value"}), bodies
 * of {@code --bytes} for POST and PUT, responses counted as OK by status class
 * ({@code --http-ok}, 2xx by default). See {@link HttpClientCodec} for the rules.
 *
 * <p>Host: the codec is not told the server's address, so requests carry
 * {@code Host: localhost} unless the user gives a {@code Host} header. Servers with virtual hosts
 * need {@code --header "Host: name"}.
 */
public final class HttpProtocol implements Protocol {
    public static final String NAME = "http";

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

    /**
     * The request head of the options last seen. Every connection of a run has the same options,
     * and with a connection per request, building the head for each was 1.3 % of the load thread
     * (its header parsing and strings). Immutable, so event loops may share it.
     */
    private volatile HeadFor cached;

    private record HeadFor(ProtocolOptions options, HttpRequestHead head) {
    }

    @Override
    public ProtocolCodec newCodec(ProtocolOptions options) {
        return new HttpClientCodec(head(options), options.httpOkClasses());
    }

    HttpRequestHead head(ProtocolOptions options) {
        HeadFor c = cached;
        if (c == null || c.options() != options) {
            c = new HeadFor(options, HttpRequestHead.of(options.httpHeaders(), HttpRequestHead.DEFAULT_HOST));
            cached = c;
        }
        return c.head();
    }
}
