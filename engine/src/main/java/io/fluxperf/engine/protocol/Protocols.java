package io.fluxperf.engine.protocol;

import io.fluxperf.engine.protocol.http.HttpProtocol;
import io.fluxperf.engine.protocol.memcache.MemcacheProtocol;
import io.fluxperf.engine.protocol.memcachebinary.MemcacheBinaryProtocol;
import io.fluxperf.engine.protocol.resp.RespProtocol;
import java.util.List;
import java.util.stream.Collectors;

/** The registry: a new protocol is one new package plus one line here. */
public final class Protocols {
    private static final List<Protocol> ALL = List.of(new MemcacheProtocol(), new MemcacheBinaryProtocol(), new RespProtocol(), new HttpProtocol());

    private Protocols() {
    }

    public static List<Protocol> all() {
        return ALL;
    }

    /** The protocol with this name, or null. */
    public static Protocol find(String name) {
        for (Protocol p : ALL) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        return null;
    }

    public static String names() {
        return ALL.stream().map(Protocol::name).collect(Collectors.joining(", "));
    }
}
