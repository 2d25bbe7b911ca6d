package io.fluxperf.engine.target;

import io.fluxperf.engine.target.http.HttpTargetServer;
import io.fluxperf.engine.target.memcache.MemcacheTargetServer;
import io.fluxperf.engine.target.resp.RespTargetServer;
import java.util.List;

/** The one registration point of embedded target protocols: a new protocol is one more case here. */
public final class TargetServers {
    private static final List<String> PROTOCOLS = List.of("memcache", "memcache-binary", "redis", "http");

    private TargetServers() {
    }

    /** Protocol names {@link #start} accepts, e.g. {@code memcache}. */
    public static List<String> protocols() {
        return PROTOCOLS;
    }

    /**
     * Starts a server for {@code protocol} and returns once it listens.
     *
     * @throws IllegalArgumentException for a protocol not in {@link #protocols()}
     * @throws IllegalStateException    when it cannot listen (address in use, unknown host); the message says why
     */
    public static TargetServer start(String protocol, TargetOptions options) {
        return switch (protocol) {
            case "memcache", "memcache-binary" -> MemcacheTargetServer.start(options); // it tells them apart per connection
            case "redis" -> RespTargetServer.start(options);
            case "http" -> HttpTargetServer.start(options);
            default -> throw new IllegalArgumentException("unknown target protocol '" + protocol + "'; expected one of "
                    + String.join(", ", PROTOCOLS));
        };
    }
}
