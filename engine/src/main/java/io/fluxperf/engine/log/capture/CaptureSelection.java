package io.fluxperf.engine.log.capture;

import java.util.List;

/**
 * The servers of a capture that a replay reads, each with the protocol its connections are read
 * by ({@code protocols.get(i)} for {@code servers.get(i)}).
 */
public record CaptureSelection(List<Endpoint> servers, List<CaptureProtocol> protocols) {
    public CaptureSelection {
        servers = List.copyOf(servers);
        protocols = List.copyOf(protocols);
        if (servers.size() != protocols.size()) {
            throw new IllegalArgumentException("a protocol per server");
        }
    }

    /** The index of the server at that address and port, or -1. */
    int indexOf(long hi, long lo, int port) {
        for (int i = 0; i < servers.size(); i++) {
            if (servers.get(i).is(hi, lo, port)) {
                return i;
            }
        }
        return -1;
    }
}
