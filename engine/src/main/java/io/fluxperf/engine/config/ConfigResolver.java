package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Turns the command line ({@link Flags}) and the TOML file it names into a checked
 * {@link RunConfig}, following rpc-perf's rules: a flag wins over the file, and {@code --method},
 * {@code --rate} or {@code --bytes} together with {@code [[workload]]} tables in the file is an
 * error. Every problem is a {@link UserError} whose message names the place: the flag
 * ({@code --rate: 'abc' is not a number}), {@code FILE:LINE:COL} for TOML syntax, or the key path
 * ({@code FILE: workload[1].rate (line 14): must be at least 0 (0: no pacing), not -5}).
 *
 * <h2>Settings</h2>
 * Each run-level setting is declared once in {@link Settings}: its flag, its key in [general], its
 * type, check and default. {@link #settings} takes each from the flag, else the file, else the
 * default; what remains here are the rules between settings (TLS options need --tls, a warm-up
 * to a hit rate needs reads, ...). The keys of a file are listed in docs/config.md and, with their
 * flags, in docs/run.md's option tables.
 *
 * <h2>Merging</h2>
 * <ul>
 * <li>Every flag that has a key in [general] replaces the file's value; what neither gives takes
 * its default.</li>
 * <li>Without {@code [[workload]]} tables (or without a file) there is one workload, made from
 * {@code --method} (default get), {@code --rate} (absent or 0 = unlimited), {@code --bytes} and the
 * key-space flags.</li>
 * <li>With {@code [[workload]]} tables, {@code --method}, {@code --rate} and {@code --bytes} are
 * errors; {@code --hit --flush --keyspace --key-length --distribution --exponent --ttl} replace
 * the value in every workload, {@code --keys-per-request} in every get/gets workload. {@code --hit}
 * clears the file's {@code flush} and {@code --flush} clears its {@code hit}.</li>
 * </ul>
 * The workloads themselves, tables rather than scalars, are {@link WorkloadResolver}'s.
 */
public final class ConfigResolver {
    /** How long a warm-up to a hit rate may last when no --warmup bounds it. */
    public static final Duration DEFAULT_HITRATE_WARMUP_BOUND = Duration.ofSeconds(60);

    private ConfigResolver() {
    }

    /**
     * The objectives to check: the file's [[slo]] tables, then the --slo flags (they add to the
     * file's, each being a check of its own); --slo-abort makes every one stop the run.
     */
    private static List<io.fluxperf.engine.slo.Objective> objectives(Flags flags, ConfigFile f,
                                                                     List<WorkloadConfig> workloads) {
        List<io.fluxperf.engine.slo.Objective> all = new java.util.ArrayList<>(f.objectives);
        all.addAll(io.fluxperf.engine.slo.Objectives.parse(flags.value(Settings.SLO)));
        if (Boolean.TRUE.equals(flags.value(Settings.SLO_ABORT))) {
            if (all.isEmpty()) {
                throw new UserError("--slo-abort: stops the run when an objective fails, and there is no --slo or [[slo]]");
            }
            all.replaceAll(o -> o.withAbort(true));
        }
        if (Boolean.TRUE.equals(flags.value(Settings.SLO_STRICT))) {
            if (all.isEmpty()) {
                throw new UserError("--slo-strict: fails an objective too close to call, and there is no --slo or [[slo]]");
            }
            all.replaceAll(o -> o.withStrict(true));
        }
        // named here, before a run directory or any output is made
        io.fluxperf.engine.slo.Evaluator.checkWorkloads(all, workloads.stream().map(WorkloadConfig::name).toList());
        return all;
    }

    /**
     * Reads the file of {@code --config} when given, merges the flags over it, applies the defaults
     * and checks everything.
     *
     * @throws UserError for any bad flag, file or value, with a message that names the place
     */
    public static RunConfig resolve(Flags flags) {
        return resolve(flags, note -> { });
    }

    /**
     * The same, with the notes on an rpc-perf file's keys that change nothing in fluxperf given to
     * {@code notes} (one sentence each, naming the key), for the caller to show.
     */
    public static RunConfig resolve(Flags flags, java.util.function.Consumer<String> notes) {
        Objects.requireNonNull(flags, "flags");
        java.nio.file.Path config = flags.value(Settings.CONFIG);
        String format = flags.value(Settings.CONFIG_FORMAT);
        if (format != null && config == null) {
            throw new UserError("--config-format: says how to read --config, and there is no --config");
        }
        ConfigFile file = config == null ? null : ConfigFile.read(config, format, notes);
        boolean fileWorkloads = file != null && !file.workloads.isEmpty();
        if (fileWorkloads) {
            WorkloadResolver.rejectWorkloadFlags(flags, file);
        }
        ConfigFile f = file != null ? file : ConfigFile.empty();
        SettingValues settings = settings(flags, f);

        Protocol protocol = Protocols.find(settings.get(Settings.PROTOCOL));
        PoolOptions pool = PoolResolver.resolve(settings, flags, f, protocol);
        String server = pool.servers().isEmpty() ? null : ServerSpec.parse(pool.servers().get(0)).address();

        List<WorkloadConfig> workloads = WorkloadResolver.workloads(flags, fileWorkloads ? file : null, protocol);
        if (server == null) {
            for (int i = 0; i < workloads.size(); i++) {
                Command m = workloads.get(i).method();
                if (!protocol.targetAnswers(m)) {
                    String problem = "the embedded " + protocol.name() + " target does not answer " + m.label()
                            + "; give a server with -s HOST:PORT";
                    throw fileWorkloads ? file.workloads.get(i).error("method", problem) : new UserError("--method: " + problem);
                }
            }
        }
        ProtocolOptions protocolOptions = protocolOptions(flags, f.protocolOptions, protocol, server);
        if (workloads.stream().anyMatch(WorkloadConfig::flush) && !protocol.supports(Command.FLUSH)) {
            throw new UserError("--flush: " + protocol.name() + " has no command to flush the server");
        }
        ConnectionOptions connection = connectionOptions(settings, place(flags, f));
        PoolResolver.check(pool, connection, workloads, flags, f);
        if (settings.get(Settings.WARMUP_HITRATE) > 0 && workloads.stream().noneMatch(w -> w.method().isRead())) {
            throw new UserError(place(flags, f).apply(Settings.WARMUP_HITRATE)
                    + ": no workload reads, so there is no hit rate to reach");
        }
        if (settings.get(Settings.WARMUP_HITRATE) > 0 && settings.get(Settings.WARMUP).isZero()) {
            settings = settings.with(Settings.WARMUP, DEFAULT_HITRATE_WARMUP_BOUND);
        }
        // rate ramps
        String ramp = flags.value(Settings.RAMP);
        List<RateRamp> ramps = RampConfig.resolve(ramp, workloads, fileWorkloads
                ? file.workloads.stream().map(w -> w.ratelimit == null ? null : w.ratelimit.ramp()).toList() : List.of());
        if (ramp != null && workloads.stream().noneMatch(WorkloadConfig::isRated)) {
            throw new UserError("--ramp: needs rated workloads (--rate, or a rate in each [[workload]])");
        }
        if (ramps.stream().anyMatch(Objects::nonNull) && !given(flags, f, Settings.DURATION)) {
            // one window per step, each step's percentiles alone
            settings = settings.with(Settings.DURATION, RampConfig.interval(ramps));
            if (!given(flags, f, Settings.WINDOWS)) {
                settings = settings.with(Settings.WINDOWS, RampConfig.windowsFor(ramps, settings.get(Settings.SEED)));
            }
        }
        checkOnePerWindow(flags, file, fileWorkloads, workloads, settings.get(Settings.DURATION));
        try {
            // a run of probes beside unpaced workloads gets one more thread: the probes' own, with its own connections
            boolean mixed = workloads.stream().anyMatch(WorkloadConfig::isRated) && workloads.stream().anyMatch(w -> !w.isRated());
            int threads = settings.get(Settings.THREADS);
            return RunConfig.builder().settings(settings).threads(mixed ? threads + 1 : threads).server(server).pool(pool)
                    .workloads(workloads).protocolOptions(protocolOptions)
                    .objectives(objectives(flags, f, workloads)).ramps(ramps)
                    .build();
        } catch (IllegalArgumentException e) {
            throw fileWorkloads ? file.toml.error(e.getMessage()) : new UserError("the command line: " + e.getMessage());
        }
    }

    /**
     * The protocol options the flags give, after {@code before} (a config file's), each placed at
     * its flag; not yet checked (that takes the protocol: {@link #protocolOptions}).
     */
    public static ProtocolOptions given(Flags flags, ProtocolOptions before) {
        ProtocolOptions options = before;
        for (ProtocolOptions.Value v : flags.protocolOptions().values()) {
            options = options.with(v.option(), v.text(), v.place());
        }
        return options;
    }

    /**
     * Every setting of [general] ({@link Setting#isGeneral}, the servers' too): the flag, checked,
     * else the file's value (checked as it was read), else the default.
     */
    static SettingValues settings(Flags flags, ConfigFile f) {
        SettingValues v = Settings.defaults();
        for (Setting<?> s : Settings.all()) {
            if (s.isGeneral()) {
                v = resolve(v, s, flags, f.general);
            }
        }
        return v;
    }

    private static <T> SettingValues resolve(SettingValues v, Setting<T> s, Flags flags, SettingValues file) {
        T flag = flags.value(s);
        return flag != null ? v.with(s, flag) : file.has(s) ? v.with(s, file.get(s)) : v;
    }

    private static boolean given(Flags flags, ConfigFile f, Setting<?> s) {
        return flags.has(s) || f.general.has(s);
    }

    /** Where a setting's value came from, to start a message with: its flag, or its key in the file. */
    private static java.util.function.Function<Setting<?>, String> place(Flags flags, ConfigFile f) {
        return s -> flags.has(s) || f.toml == null ? s.flag() : f.place(s);
    }

    /**
     * {@code path} as fluxperf's own TOML, with a comment on each key it mapped or could not map:
     * an rpc-perf file translated (and checked as a run would check it), or a fluxperf file as it is.
     *
     * @param format --config-format, or null to tell by the file's shape
     */
    public static String convert(java.nio.file.Path path, String format) {
        TomlConfigFile toml = TomlConfigFile.read(path, null); // FILE is convert's argument, not --config
        if (toml.isEmpty()) {
            // an empty file would convert to an empty file: nothing of a workload to print
            throw new UserError(path + " holds no settings (it is empty or only comments), so there is nothing to convert");
        }
        RpcPerfFormat f = RpcPerfFormat.parse(format);
        if (f == null) {
            f = RpcPerfFormat.detect(toml);
        }
        // a stand-in for a file without a server: where the run goes is for run -s to say, and
        // what only the embedded target refuses (redis' scripts) is no reason not to convert
        Flags check = Flags.builder().set(Settings.CONFIG, path).set(Settings.SERVER, "127.0.0.1:1")
                .set(Settings.CONFIG_FORMAT, f == RpcPerfFormat.FLUXPERF ? "fluxperf" : format).build();
        resolve(check);
        if (f == RpcPerfFormat.FLUXPERF) {
            return toml.text();
        }
        return RpcPerfFormat.translate(f, toml).toToml();
    }

    /**
     * The protocol options of the file, then of the flags (so that a flag's value comes last and
     * wins, and repeated ones add up), checked by the protocol: one it does not read is an error,
     * as is a bad value, named by its flag or key.
     */
    public static ProtocolOptions protocolOptions(Flags flags, ProtocolOptions fromFile, Protocol protocol,
                                                  String server) {
        ProtocolOptions options = fromFile;
        for (ProtocolOptions.Value v : flags.protocolOptions().values()) {
            options = options.with(v.option(), v.text(), v.place());
        }
        Protocols.rejectUnknownOptions(protocol, options);
        protocol.codecs(options, server); // checks every value now, before anything is sent
        return options;
    }

    /**
     * The settings of a command without a config file ({@code replay}): each flag checked, else
     * its default; the servers and connection options as a run would make them from the same
     * flags (the servers checked but for the protocol's cluster mode, which the caller checks
     * once it knows the protocol).
     */
    public static Shared shared(Flags flags) {
        SettingValues settings = settings(flags, ConfigFile.empty());
        ConfigFile none = ConfigFile.empty();
        return new Shared(settings, PoolResolver.resolve(settings, flags, none, null),
                connectionOptions(settings, place(flags, none)));
    }

    /**
     * What {@code replay} takes from the flags it shares with {@code run}.
     *
     * @param settings   every setting: the flag's value or the default
     * @param pool       the servers, as {@link PoolOptions#of}
     * @param connection the connection options, with their combinations checked
     */
    public record Shared(SettingValues settings, PoolOptions pool, ConnectionOptions connection) {
    }

    /** The connection options of the settings, with the combinations that cannot be refused, each naming its place. */
    private static ConnectionOptions connectionOptions(SettingValues v, java.util.function.Function<Setting<?>, String> place) {
        boolean tls = v.get(Settings.TLS);
        boolean udp = v.get(Settings.UDP);
        boolean perRequest = v.get(Settings.CONNECT_PER_REQUEST);
        for (Setting<?> needsTls : List.of(Settings.TLS_CA, Settings.TLS_INSECURE, Settings.SNI)) {
            Object value = v.get(needsTls);
            if (value != null && !Boolean.FALSE.equals(value) && !tls) {
                throw new UserError(place.apply(needsTls) + ": needs --tls");
            }
        }
        if (udp && tls) {
            throw new UserError("--udp: UDP has no TLS; leave out --tls");
        }
        if (udp && perRequest) {
            throw new UserError("--udp: UDP has no connections to open per request; leave out --connect-per-request");
        }
        if (perRequest && v.get(Settings.HOLD_CONNECTIONS) > 0) {
            throw new UserError("--hold-connections: held connections stay open, so they go without --connect-per-request");
        }
        if (perRequest && v.get(Settings.PIPELINE) > 1) {
            // each connection closes after its one request: there is nothing to pipeline behind it
            throw new UserError(place.apply(Settings.PIPELINE) + ": a connection per request carries one request, so"
                    + " --pipeline goes without --connect-per-request");
        }
        return ConnectionOptions.of(v);
    }

    /** Every rated workload sends at least one request per window ({@link RateLimits#belowOnePerWindow}). */
    private static void checkOnePerWindow(Flags flags, ConfigFile file, boolean fileWorkloads,
                                          List<WorkloadConfig> workloads, Duration window) {
        for (int i = 0; i < workloads.size(); i++) {
            double rate = workloads.get(i).rate();
            if (rate <= 0) {
                continue;
            }
            String typed = !fileWorkloads && flags.has(Settings.RATE) ? flags.given(Settings.RATE).toString().trim() : Checks.plain(rate);
            String problem = RateLimits.belowOnePerWindow(rate, typed, window);
            if (problem != null) {
                problem += ", or longer windows (--duration)";
                throw fileWorkloads ? file.workloads.get(i).error("rate", problem)
                        : new UserError((flags.has(Settings.RAMP) ? "--ramp: " : "--rate: ") + problem);
            }
        }
    }
}
