package io.fluxperf.cli;

import io.fluxperf.engine.config.Flags;
import io.fluxperf.engine.config.Setting;
import io.fluxperf.engine.config.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The options a command makes from {@link Settings}: each setting the command takes becomes an
 * option with the setting's flags, value label and --help line, and what the command line gives
 * lands in one typed map, by setting ({@link #flags}), that {@code ConfigResolver} checks and
 * merges over the config file. A new setting is thus one declaration in {@code Settings}, its row
 * in docs/run.md and the code that reads it: no {@code @Option}, no field.
 *
 * <p>A command declares {@code modelTransformer = SettingOptions.Run.class} (or {@code Replay},
 * {@code Sweep}), which picocli applies when it builds the command. Every setting of {@code run}
 * is made here; a command's own option of the same name (replay's {@code --distribution}, which
 * names only the servers' placement) is left to it. picocli's type
 * conversion stays (an Integer flag given "abc" is its one-sentence error); the setting's check is
 * {@code ConfigResolver}'s, naming the flag.
 */
final class SettingOptions {
    /** The first of a command's own output options, before which the output settings' options stand. */
    private static final String OUTPUT_ANCHOR = "--json";

    private final Map<Setting<?>, Object> given = new LinkedHashMap<>();

    /** The flags given on the command line under their settings, unchecked; {@code b} gets each. */
    Flags.Builder addTo(Flags.Builder b) {
        given.forEach(b::set);
        return b;
    }

    /** The flags given, alone. */
    Flags flags() {
        return addTo(Flags.builder()).build();
    }

    /** Whether the flag of {@code s} was given. */
    boolean has(Setting<?> s) {
        return given.containsKey(s);
    }

    /** The flag of {@code s} checked by its setting, or null when not given. */
    <T> T value(Setting<T> s) {
        return flags().value(s);
    }

    /** A command whose settings' options are made here. */
    interface Owner {
        SettingOptions settingOptions();
    }

    /**
     * Adds to {@code spec} an option for each setting {@code which} keeps, unless the spec has one by
     * that name. In --help they stand grouped as docs/run.md's tables group them: the workload's,
     * time's and connections' before {@link ConnectionFlags}' options, where the command's other
     * options of connecting are, and the outputs' before the command's own output options
     * ({@code --json}).
     */
    static void addOptions(CommandSpec spec, SettingOptions into, Predicate<Setting<?>> which) {
        List<Setting<?>> taken = new ArrayList<>();
        for (Setting<?> s : Settings.all()) {
            if (which.test(s) && s.flags().stream().noneMatch(f -> spec.optionsMap().containsKey(f))) {
                taken.add(s);
            }
        }
        taken.sort(Comparator.comparingInt(s -> s.table() == null ? Setting.Table.values().length : s.table().ordinal()));
        List<OptionSpec> order = new ArrayList<>(spec.options());
        for (OptionSpec o : order) {
            spec.remove(o);
        }
        for (Setting<?> s : taken) {
            int at = s.table() == Setting.Table.OUTPUT ? indexOf(order, OUTPUT_ANCHOR) : order.size();
            if (at == order.size()) {
                at = indexOf(order, ConnectionFlags.FIRST_OPTION);
            }
            order.add(at, option(s, into));
        }
        for (OptionSpec o : order) {
            spec.addOption(o);
        }
    }

    /** Where {@code name}'s option is in {@code options}, or their end. */
    private static int indexOf(List<OptionSpec> options, String name) {
        for (int i = 0; i < options.size(); i++) {
            if (List.of(options.get(i).names()).contains(name)) {
                return i;
            }
        }
        return options.size();
    }

    private static OptionSpec option(Setting<?> s, SettingOptions into) {
        Class<?> type = s.type().flagClass();
        Binding binding = new Binding(s, into);
        OptionSpec.Builder b = OptionSpec.builder(s.flags().toArray(String[]::new))
                .description(s.help())
                .getter(binding)
                .setter(binding);
        if (type == List.class) {
            b.type(List.class).auxiliaryTypes(String.class).arity("1");
        } else {
            b.type(type);
        }
        if (s.label() != null) {
            b.paramLabel(s.label());
        }
        if (type == Boolean.class) {
            b.arity(s.optionalValue() ? "0..1" : "0");
        }
        if (type == Duration.class) {
            b.converters(new DurationConverter());
        }
        return b.build();
    }

    /** Whether {@code o} was made here from a setting (not declared by hand). */
    static boolean made(OptionSpec o) {
        return o.getter() instanceof Binding;
    }

    /** Where an option made from setting {@code s} keeps its value: {@code into}'s map, under {@code s}. */
    private record Binding(Setting<?> s, SettingOptions into) implements CommandLine.Model.IGetter, CommandLine.Model.ISetter {
        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) into.given.get(s);
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T set(T value) {
            return (T) (value == null ? into.given.remove(s) : into.given.put(s, value));
        }
    }

    private static boolean run(Setting<?> s) {
        return s.commands() == Setting.Commands.RUN || s.commands() == Setting.Commands.RUN_AND_REPLAY;
    }

    /** {@code run}'s options: the settings of {@code run}. */
    public static final class Run implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            addOptions(spec, ((Owner) spec.userObject()).settingOptions(), SettingOptions::run);
            return spec;
        }
    }

    /** {@code replay}'s options: the settings of where and how to connect, which it shares with {@code run}. */
    public static final class Replay implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            addOptions(spec, ((Owner) spec.userObject()).settingOptions(),
                    s -> s.commands() == Setting.Commands.RUN_AND_REPLAY);
            return spec;
        }
    }

    /** {@code sweep}'s options: {@code run}'s, into the {@code run} it mixes in (a mixin's own transformer does not run). */
    public static final class Sweep implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec spec) {
            addOptions(spec, ((Owner) spec.mixins().get("run").userObject()).settingOptions(), SettingOptions::run);
            return spec;
        }
    }
}
