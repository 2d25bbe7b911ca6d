package io.fluxperf.engine.protocol;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.target.TargetFactory;
import io.fluxperf.engine.target.TargetOptions;
import io.fluxperf.engine.target.TargetServer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The registry of protocols: every {@link Protocol} listed in
 * {@code META-INF/services/io.fluxperf.engine.protocol.Protocol}, in the file's order. A new
 * protocol is one new package plus one line there; nothing else in the engine names it.
 */
public final class Protocols {
    private static final List<Protocol> ALL = load();

    private Protocols() {
    }

    private static List<Protocol> load() {
        List<Protocol> found = new ArrayList<>();
        ServiceLoader.load(Protocol.class, Protocols.class.getClassLoader()).forEach(found::add);
        Set<String> names = new HashSet<>();
        for (Protocol p : found) {
            if (!names.add(p.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalStateException("two registered protocols are named " + p.name());
            }
        }
        if (found.stream().filter(Protocol::isDefault).count() != 1) {
            throw new IllegalStateException("exactly one registered protocol must be the default, not "
                    + found.stream().filter(Protocol::isDefault).map(Protocol::name).toList());
        }
        return List.copyOf(found);
    }

    public static List<Protocol> all() {
        return ALL;
    }

    /** The protocol with this name (any case), or null. */
    public static Protocol find(String name) {
        for (Protocol p : ALL) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        return null;
    }

    /** The protocol of a run that names none. */
    public static Protocol defaultProtocol() {
        return ALL.stream().filter(Protocol::isDefault).findFirst().orElseThrow();
    }

    /** "memcache, memcache-binary, redis, http": for messages and help. */
    public static String names() {
        return ALL.stream().map(Protocol::name).collect(Collectors.joining(", "));
    }

    /** The protocol whose {@link Protocol#logFormats()} holds {@code format}, or null. */
    public static Protocol ofLogFormat(LogFormat format) {
        return ALL.stream().filter(p -> p.logFormats().contains(format)).findFirst().orElse(null);
    }

    /** Every protocol's log formats, in registry order and each protocol's own. */
    public static List<LogFormat> logFormats() {
        return ALL.stream().flatMap(p -> p.logFormats().stream()).toList();
    }

    /** The names of the protocols that have an embedded server. */
    public static List<String> withTarget() {
        return ALL.stream().filter(p -> p.target() != null).map(Protocol::name).toList();
    }

    /**
     * Every protocol's options by flag name, each listed once (protocols that read the same option
     * declare it alike), in registry order: what a config file's {@code [general]} table may hold.
     */
    public static Map<String, ProtocolOption> allOptions() {
        Map<String, ProtocolOption> out = new LinkedHashMap<>();
        for (Protocol p : ALL) {
            for (ProtocolOption o : p.options()) {
                ProtocolOption before = out.putIfAbsent(o.flag(), o);
                if (before != null && !before.equals(o)) {
                    throw new IllegalStateException("protocols declare option " + o.flag() + " differently: " + before
                            + " and " + o);
                }
            }
        }
        return out;
    }

    /**
     * Starts the embedded server of the protocol named and returns once it listens.
     *
     * @throws IllegalArgumentException for a protocol without an embedded server, or no such protocol
     * @throws IllegalStateException    when it cannot listen (address in use, unknown host); the message says why
     */
    public static TargetServer startTarget(String protocol, TargetOptions options) {
        Protocol p = find(protocol);
        TargetFactory target = p == null ? null : p.target();
        if (target == null) {
            throw new IllegalArgumentException("no embedded server for protocol '" + protocol + "'; there is one for "
                    + String.join(", ", withTarget()));
        }
        return target.start(options);
    }

    /**
     * The options given that {@code protocol} does not read, as a user error naming the first:
     * a setting that would be silently ignored is a mistake.
     */
    public static void rejectUnknownOptions(Protocol protocol, ProtocolOptions given) {
        Set<String> known = protocol.options().stream().map(ProtocolOption::flag).collect(Collectors.toSet());
        for (ProtocolOptions.Value v : given.values()) {
            if (!known.contains(v.option())) {
                List<String> readers = ALL.stream()
                        .filter(p -> p.options().stream().anyMatch(o -> o.flag().equals(v.option())))
                        .map(Protocol::name).toList();
                throw v.error("protocol " + protocol.name() + " has no such option"
                        + (readers.isEmpty() ? "" : " (" + String.join(", ", readers) + " " + (readers.size() == 1 ? "has" : "have") + ")"));
            }
        }
    }
}
