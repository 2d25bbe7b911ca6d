package io.fluxperf.engine.config;

import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The checks the command line and the config file share. Each throws an
 * {@link IllegalArgumentException} whose message is the problem only ("must be at least 1, not
 * 0"); the caller puts the place (flag or key path) in front.
 */
final class Checks {
    /**
     * The methods a workload can name: every command but flush (which --flush / flush = true asks
     * for) and command (which --command / a template asks for). Which of them the chosen protocol
     * speaks is checked later.
     */
    static final String METHODS = Arrays.stream(Command.values())
            .filter(c -> c != Command.FLUSH && c != Command.COMMAND)
            .map(Command::label)
            .collect(Collectors.joining(", "));

    private Checks() {
    }

    /** "must be at least MIN, not V" / "must be at most MAX, not V", or null when V is in range. */
    static String outside(long v, long min, long max) {
        return outside(BigInteger.valueOf(v), min, max);
    }

    static String outside(BigInteger v, long min, long max) {
        if (v.compareTo(BigInteger.valueOf(min)) < 0) {
            return "must be at least " + min + ", not " + v;
        }
        if (v.compareTo(BigInteger.valueOf(max)) > 0) {
            return "must be at most " + max + ", not " + v;
        }
        return null;
    }

    static void range(long v, long min, long max) {
        String problem = outside(v, min, max);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    static Command method(String text) {
        Command c = Command.parse(text);
        if (c == null || c == Command.FLUSH || c == Command.COMMAND) {
            throw new IllegalArgumentException("unknown method '" + text + "'; expected one of " + METHODS);
        }
        return c;
    }

    /** A method of {@code protocol}'s: an unknown one, or one it does not speak, is told with the methods it speaks. */
    static Command method(String text, Protocol protocol) {
        Command c = Command.parse(text);
        if (c == null || c == Command.FLUSH || c == Command.COMMAND) {
            throw new IllegalArgumentException("unknown method '" + text + "'; " + protocol.name() + " speaks "
                    + methods(protocol));
        }
        if (!protocol.supports(c)) {
            throw new IllegalArgumentException("protocol " + protocol.name() + " does not support " + c.label()
                    + "; it speaks " + methods(protocol));
        }
        return c;
    }

    /** The methods a workload of {@code protocol} can name, in {@link Command}'s order. */
    static String methods(Protocol protocol) {
        return Arrays.stream(Command.values())
                .filter(c -> c != Command.FLUSH && c != Command.COMMAND && protocol.supports(c))
                .map(Command::label)
                .collect(Collectors.joining(", "));
    }

    /** A command template: words with placeholders (checked by parsing it). */
    static String template(String text) {
        io.fluxperf.engine.request.CommandTemplate.parse(text);
        return text;
    }

    /** An HTTP path template: starts with '/', no spaces. */
    static String path(String text) {
        if (!text.startsWith("/")) {
            throw new IllegalArgumentException("'" + text + "' is not a path; it must start with /");
        }
        if (text.chars().anyMatch(c -> c <= ' ')) {
            throw new IllegalArgumentException("'" + text + "' has a space or control character; encode it (%20)");
        }
        return text;
    }

    static KeyDistribution distribution(String text) {
        KeyDistribution d = KeyDistribution.parse(text);
        if (d == null) {
            throw new IllegalArgumentException("unknown distribution '" + text + "'; expected one of "
                    + Arrays.stream(KeyDistribution.values()).map(KeyDistribution::label).collect(Collectors.joining(", ")));
        }
        return d;
    }

    /** The registered protocol's name. */
    static String protocol(String text) {
        Protocol p = Protocols.find(text.trim());
        if (p == null) {
            throw new IllegalArgumentException("unknown protocol '" + text + "'; expected " + Protocols.names());
        }
        return p.name();
    }

    /** A rate in requests per second: finite, at least 0 (0 = unlimited) and at most {@link RateLimits#MAX}. */
    static double rate(double r) {
        if (Double.isNaN(r) || Double.isInfinite(r)) {
            throw new IllegalArgumentException("must be a finite number, not " + r);
        }
        if (r < 0) {
            throw new IllegalArgumentException("must be at least 0 (0: no pacing), not " + plain(r));
        }
        RateLimits.checkMax(r, plain(r));
        return r;
    }

    /** --rate as typed: a plain decimal number, at least 0 (0 = unlimited) and at most {@link RateLimits#MAX}. */
    static double rate(String text) {
        return RateLimits.parse(text);
    }

    /** How keys are placed on several servers, as a flag names it. */
    static ServerDistribution serverDistribution(String text) {
        ServerDistribution d = ServerDistribution.parse(text);
        if (d == null) {
            throw new IllegalArgumentException("expected ketama or modula, not '" + text + "'");
        }
        return d;
    }

    /** The same as [general]'s key, which a key distribution may be mistaken for. */
    static ServerDistribution serverDistributionKey(String text) {
        ServerDistribution d = ServerDistribution.parse(text);
        if (d == null) {
            throw new IllegalArgumentException("expected ketama or modula (how keys are placed on the servers), not '"
                    + text + "'; a key distribution (uniform, zipf, sequential) belongs in a [[workload]] table");
        }
        return d;
    }

    static Arrivals arrivals(String text) {
        Arrivals a = Arrivals.parse(text);
        if (a == null) {
            throw new IllegalArgumentException("unknown arrivals '" + text + "'; expected one of "
                    + Arrays.stream(Arrivals.values()).map(Arrivals::label).collect(Collectors.joining(", ")));
        }
        return a;
    }

    /** A PNG file to write: a path whose name ends in .png. */
    static java.nio.file.Path png(String text) {
        java.nio.file.Path p;
        try {
            p = java.nio.file.Path.of(text);
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("'" + text + "' is not a file name");
        }
        if (p.getFileName() == null || !p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".png")) {
            throw new IllegalArgumentException("must name a .png file, not '" + text + "'");
        }
        // written at the run's end: a long run must not learn only then that it cannot be
        java.nio.file.Path parent = p.toAbsolutePath().getParent();
        if (parent == null || !java.nio.file.Files.isDirectory(parent)) {
            throw new IllegalArgumentException("cannot write " + text + ": " + (parent != null && java.nio.file.Files.exists(parent)
                    ? parent + " is not a directory" : "no such directory " + parent));
        }
        if (!java.nio.file.Files.isWritable(parent) || java.nio.file.Files.exists(p) && !java.nio.file.Files.isWritable(p)) {
            throw new IllegalArgumentException("cannot write " + text + ": permission denied");
        }
        return p;
    }

    /** A hit rate to warm up to, in percent: 0 (off) to 100. */
    static double hitrate(double h) {
        if (!(h >= 0 && h <= 100)) {
            throw new IllegalArgumentException("must be a percentage from 0 (off) to 100, not " + plain(h));
        }
        return h;
    }

    static java.time.Duration positive(java.time.Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("must be greater than 0, not " + DurationParser.format(d));
        }
        return d;
    }

    static java.time.Duration notNegative(java.time.Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("must be at least 0, not " + DurationParser.format(d));
        }
        return d;
    }

    /** A file this process can read (a PEM file of certificates). */
    static java.nio.file.Path readable(String text) {
        java.nio.file.Path p = java.nio.file.Path.of(text);
        if (!java.nio.file.Files.isReadable(p)) {
            throw new IllegalArgumentException(text + ": no such readable file");
        }
        return p;
    }

    static WorkloadShape.ValueKind valueKind(String text) {
        WorkloadShape.ValueKind k = WorkloadShape.ValueKind.parse(text);
        if (k == null) {
            throw new IllegalArgumentException("unknown value kind '" + text + "'; expected bytes or i64");
        }
        return k;
    }

    static WorkloadShape.ValueMode valueMode(String text) {
        WorkloadShape.ValueMode m = WorkloadShape.ValueMode.parse(text);
        if (m == null) {
            throw new IllegalArgumentException("unknown values '" + text + "'; expected per-key, fixed or fresh");
        }
        return m;
    }

    static double compressionRatio(double r) {
        if (!(r >= 1) || Double.isInfinite(r)) {
            throw new IllegalArgumentException("must be a number of at least 1 (1: not compressible), not " + plain(r));
        }
        return r;
    }

    static double exponent(double e) {
        if (!(e > 0) || Double.isInfinite(e)) {
            throw new IllegalArgumentException("must be a number greater than 0, not " + plain(e));
        }
        return e;
    }

    /**
     * The shape of a server address: HOST:PORT, [IPv6]:PORT or unix:/path (it is resolved when the
     * run starts). Returns it trimmed.
     */
    static String server(String text) {
        String t = text.trim();
        String forms = "write HOST:PORT, [IPv6]:PORT or unix:/path";
        if (t.startsWith("unix:")) {
            if (t.length() == "unix:".length()) {
                throw new IllegalArgumentException("'" + t + "' has no socket path; " + forms);
            }
            return t;
        }
        String host;
        String port;
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0 || close + 1 >= t.length() || t.charAt(close + 1) != ':') {
                throw new IllegalArgumentException("'" + t + "' is not a server address; " + forms);
            }
            host = t.substring(1, close);
            port = t.substring(close + 2);
            if (!host.contains(":") || !host.matches("[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?")) {
                throw new IllegalArgumentException("'" + host + "' in '" + t + "' is not an IPv6 address; " + forms);
            }
        } else {
            int colon = t.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + t + "' has no port; " + forms);
            }
            host = t.substring(0, colon);
            port = t.substring(colon + 1);
            if (host.contains(":")) {
                throw new IllegalArgumentException("'" + t + "' looks like an IPv6 address without brackets; " + forms);
            }
            if (!host.matches("[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_.])?")) {
                throw new IllegalArgumentException("'" + t + "' is not a server address; " + forms);
            }
        }
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("port must be between 1 and 65535, not '" + port + "'");
        }
        return t;
    }

    /** 5 rather than 5.0, 0.5 as is. */
    static String plain(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }

    /** The admin endpoint's {@code [ADDR:]PORT} ({@link AdminAddress}), as given. */
    static String admin(String v) {
        AdminAddress.parse(v);
        return v.strip();
    }
}
