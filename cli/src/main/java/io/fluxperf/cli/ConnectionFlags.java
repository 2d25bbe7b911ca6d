package io.fluxperf.cli;

import io.fluxperf.engine.config.Flags;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The flags of the protocol's settings that {@code run} and {@code replay} share, and
 * {@code --no-host-tuning}: the same names, meanings and checks in both. Where and how to connect
 * ({@code --server}, {@code --threads}, {@code --tls}, …) are settings of both commands, made into
 * options from {@code Settings} ({@link SettingOptions}).
 */
final class ConnectionFlags {
    /** The first of these options in --help; the options made from {@code Settings} stand before it. */
    static final String FIRST_OPTION = "--user";

    @Option(names = "--user", paramLabel = "NAME", description = "redis ACL user for AUTH.")
    String user;

    @Option(names = "--password", paramLabel = "SECRET", description = "redis AUTH password.")
    String password;

    @Option(names = "--db", paramLabel = "N", description = "redis database (SELECT N).")
    Integer db;

    @Option(names = "--resp", paramLabel = "2|3", description = "redis protocol version; 3 switches with HELLO 3 (default 2).")
    Integer resp;

    @Option(names = "--header", paramLabel = "'NAME: VALUE'", description = "HTTP request header; repeatable.")
    List<String> headers;

    @Option(names = "--http-ok", paramLabel = "CLASSES", description = "HTTP status classes counted ok, e.g. 2xx,3xx (default 2xx).")
    String httpOk;

    @Option(names = "--meta-flags", paramLabel = "FLAGS",
            description = "memcache-meta: flags on every request: q (quiet mode, batches end with mn), O (opaque tokens), "
                    + "b (base64 keys), N (incr and decr create a missing key); e.g. --meta-flags qO.")
    String metaFlags;

    @Option(names = "--meta-get-flags", paramLabel = "FLAGS",
            description = "memcache-meta: the return flags of each mg, from v t f k s c h (default v).")
    String metaGetFlags;

    @Option(names = "--no-host-tuning",
            description = "Leave the JIT's compiler threads and the run's own thread at their priority, without yielding "
                    + "(for comparing with and without; see docs/internals.md).")
    boolean noHostTuning;

    /** Puts the protocol's options of these flags into {@code b}, for {@code ConfigResolver}. */
    Flags.Builder applyTo(Flags.Builder b) {
        return b.protocolOption("header", headers).protocolOption("http-ok", httpOk).protocolOption("user", user)
                .protocolOption("password", password).protocolOption("db", db).protocolOption("resp", resp)
                .protocolOption("meta-flags", metaFlags).protocolOption("meta-get-flags", metaGetFlags);
    }
}
