package io.fluxperf.engine.config;

import io.fluxperf.engine.UserError;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One setting of a run, declared once in {@link Settings}: its flag, its config key, its type and
 * check, its default, and the lines that describe it in {@code --help} and in docs/run.md's option
 * tables. A typed key, as Netty's {@code ChannelOption<T>}: a {@link RunConfig} holds a value for
 * each ({@link RunConfig#get}), {@link ConfigResolver} takes it from the flag, else the file, else
 * the default, a run directory's config.toml writes it under its key, and the cli makes its option
 * from it. Immutable: each {@code with}-style method returns a changed copy.
 *
 * @param <T> the value's type
 */
public final class Setting<T> {
    /** Where the setting's key lives in a config file, and so who reads and resolves it. */
    public enum Scope {
        /** A key of [general], resolved here: the flag, else the file, else the default. */
        GENERAL,
        /** The same, and part of {@link ConnectionOptions}. */
        CONNECTION,
        /**
         * A key of [general] about the servers: read and resolved as the others are; {@code PoolResolver}
         * combines them into the run's servers and refuses what does not go together.
         */
        POOL,
        /**
         * A key of each [[workload]] table, read by its type ({@link Setting#readsFromWorkloadTable})
         * unless it has a form of its own; the flag replaces it in every workload (rpc-perf's rules).
         */
        WORKLOAD,
        /** A flag only, no key. */
        COMMAND_LINE
    }

    /** Which commands take the flag. */
    public enum Commands {
        /** {@code run} (and {@code sweep}, which takes run's flags). */
        RUN,
        /** {@code run} and {@code replay}, with the same meaning: where and how to connect. */
        RUN_AND_REPLAY,
        /** No command makes an option of it: another option sets it (e.g. --distribution ketama). */
        NONE
    }

    /** The table of docs/run.md that lists the setting. */
    public enum Table {
        WORKLOAD("Workload"),
        TIME("Windows and time"),
        CONNECTIONS("Connections"),
        OUTPUT("Output");

        private final String heading;

        Table(String heading) {
            this.heading = heading;
        }

        /** The table's heading in docs/run.md ({@code ### Workload}). */
        public String heading() {
            return heading;
        }
    }

    private final String name;
    private final SettingType<T> type;
    private final Supplier<T> defaultValue;
    private final Scope scope;
    private final List<String> flags;
    private final String label;
    private final boolean optionalValue;
    private final String help;
    private final Commands commands;
    private final String key;
    private final boolean recorded;
    private final Table table;
    private final String doc;
    private final String docDefault;
    /** Another setting whose flag this one shares, taking the values its type reads; null: none. */
    private final Supplier<Setting<List<String>>> among;
    /** A [[workload]] key with a form of its own (a table, a list), which its reader reads apart. */
    private final boolean ownForm;
    /** A [[workload]] key's value in a resolved workload, as config.toml writes it (null: not written); null: none. */
    private final Function<WorkloadConfig, T> inWorkload;

    private Setting(String name, SettingType<T> type, Supplier<T> defaultValue, Scope scope, List<String> flags,
                    String label, boolean optionalValue, String help, Commands commands, String key, boolean recorded,
                    Table table, String doc, String docDefault, Supplier<Setting<List<String>>> among, boolean ownForm,
                    Function<WorkloadConfig, T> inWorkload) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.scope = scope;
        this.flags = flags;
        this.label = label;
        this.optionalValue = optionalValue;
        this.help = help;
        this.commands = commands;
        this.key = key;
        this.recorded = recorded;
        this.table = table;
        this.doc = doc;
        this.docDefault = docDefault;
        this.among = among;
        this.ownForm = ownForm;
        this.inWorkload = inWorkload;
    }

    /**
     * A setting called {@code name} (its long flag without dashes, and its key), of {@code scope},
     * with no default (absent unless given); the {@code with}-style methods add the rest.
     */
    static <T> Setting<T> of(String name, Scope scope, SettingType<T> type) {
        return new Setting<>(name, type, () -> null, scope, List.of("--" + name), null, false, "", Commands.RUN,
                scope == Scope.COMMAND_LINE ? null : name, scope != Scope.COMMAND_LINE, null, "", "", null, false, null);
    }

    Setting<T> byDefault(T value) {
        return byDefault(() -> value);
    }

    /** A default known only when asked (the default protocol is the first registered one). */
    Setting<T> byDefault(Supplier<T> value) {
        return new Setting<>(name, type, value, scope, flags, label, optionalValue, help, commands, key, recorded,
                table, doc, docDefault, among, ownForm, inWorkload);
    }

    /** The flag's names, short ones first ({@code -t}, {@code --threads}), its value's label and its --help line. */
    Setting<T> flag(String label, String help, String... names) {
        return new Setting<>(name, type, defaultValue, scope, names.length == 0 ? flags : List.of(names), label,
                optionalValue, help, commands, key, recorded, table, doc, docDefault, among, ownForm, inWorkload);
    }

    /** A flag whose value may be left out ({@code --tcp-nodelay} or {@code --tcp-nodelay=false}). */
    Setting<T> valueOptional() {
        return new Setting<>(name, type, defaultValue, scope, flags, label, true, help, commands, key, recorded,
                table, doc, docDefault, among, ownForm, inWorkload);
    }

    Setting<T> commands(Commands v) {
        return new Setting<>(name, type, defaultValue, scope, flags, label, optionalValue, help, v, key, recorded,
                table, doc, docDefault, among, ownForm, inWorkload);
    }

    /** The key, when it is not the setting's name (null: none). */
    Setting<T> key(String v) {
        return new Setting<>(name, type, defaultValue, scope, flags, label, optionalValue, help, commands, v, recorded,
                table, doc, docDefault, among, ownForm, inWorkload);
    }

    /**
     * Left out of a run directory's config.toml: an output (where the run writes, or serves), which
     * running the file again must not write over or bind again.
     */
    Setting<T> output() {
        return new Setting<>(name, type, defaultValue, scope, flags, label, optionalValue, help, commands, key, false,
                table, doc, docDefault, among, ownForm, inWorkload);
    }

    /** The setting's row in docs/run.md: its table, what it means, and its default in words. */
    Setting<T> doc(Table table, String meaning, String byDefault) {
        return new Setting<>(name, type, defaultValue, scope, flags, label, optionalValue, help, commands, key, recorded,
                table, meaning, byDefault, among, ownForm, inWorkload);
    }

    /**
     * Its values may also come among those of {@code other}'s flag, which has the same name: the
     * last of them that this setting's type reads is its flag ({@code --distribution modula} among
     * the key distributions). The other setting's reader skips them. A supplier, for a setting
     * declared later.
     */
    Setting<T> sharesFlagOf(Supplier<Setting<List<String>>> other) {
        return new Setting<>(name, type, defaultValue, scope, flags, label, optionalValue, help, commands, key, recorded,
                table, doc, docDefault, other, ownForm, inWorkload);
    }

    /**
     * A [[workload]] key whose form in a file is not its flag's (a table, a weighted list, a number
     * where the flag takes text): its reader reads it apart, and the table's generic reading
     * ({@link #readsFromWorkloadTable}) leaves it out.
     */
    Setting<T> ownFormInWorkload() {
        return new Setting<>(name, type, defaultValue, scope, flags, label, optionalValue, help, commands, key, recorded,
                table, doc, docDefault, among, true, inWorkload);
    }

    /**
     * How a resolved workload holds this [[workload]] key's value, for a run directory's config.toml
     * to write it: null where the key goes without saying (one key per request, the exponent of no
     * zipf).
     */
    Setting<T> inWorkload(Function<WorkloadConfig, T> get) {
        return new Setting<>(name, type, defaultValue, scope, flags, label, optionalValue, help, commands, key, recorded,
                table, doc, docDefault, among, ownForm, get);
    }

    /** The long flag without its dashes ({@code threads}). */
    public String name() {
        return name;
    }

    public SettingType<T> type() {
        return type;
    }

    public Scope scope() {
        return scope;
    }

    /** The default, or null when absent unless given. */
    public T defaultValue() {
        return defaultValue.get();
    }

    /** The flag's names, short ones first; the last is the long one ({@code --threads}). */
    public List<String> flags() {
        return flags;
    }

    /** The long flag, which messages name ({@code --threads}). */
    public String flag() {
        return flags.get(flags.size() - 1);
    }

    /** The label of the flag's value in --help ({@code N}), or null for a flag without a value. */
    public String label() {
        return label;
    }

    /** The flag may be given without a value ({@code --tcp-nodelay[=true|false]}). */
    public boolean optionalValue() {
        return optionalValue;
    }

    /** The flag's line in --help. */
    public String help() {
        return help;
    }

    public Commands commands() {
        return commands;
    }

    /** The config file's key ([general] or [[workload]] as {@link #scope} says), or null for none. */
    public String key() {
        return key;
    }

    /** Written to a run directory's config.toml (keys of [general] that are no output). */
    public boolean recorded() {
        return recorded && key != null && isGeneral();
    }

    /** A key of [general]: read, checked and resolved by precedence with the others. */
    public boolean isGeneral() {
        return scope == Scope.GENERAL || scope == Scope.CONNECTION || scope == Scope.POOL;
    }

    /** A key of each [[workload]] read from the table by this declaration's type (no form of its own). */
    public boolean readsFromWorkloadTable() {
        return scope == Scope.WORKLOAD && key != null && !ownForm;
    }

    /**
     * This [[workload]] key's value in {@code w} as a run directory's config.toml writes it, or
     * null when it goes without saying (or the setting is not read from the table).
     */
    public T valueIn(WorkloadConfig w) {
        return inWorkload == null ? null : inWorkload.apply(w);
    }

    /** Whether a resolved workload says this key's value ({@link #inWorkload}). */
    boolean isInWorkload() {
        return inWorkload != null;
    }

    /** The setting whose flag this one shares ({@link #sharesFlagOf}), or null. */
    Setting<List<String>> sharesFlagWith() {
        return among == null ? null : among.get();
    }

    /** Whether this setting's type reads {@code given} as its flag's value. */
    boolean takes(Object given) {
        try {
            type.fromFlag(given);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The table of docs/run.md that lists it, or null when none does. */
    public Table table() {
        return table;
    }

    /** What it means, in docs/run.md's table. */
    public String doc() {
        return doc;
    }

    /** Its default in words, in docs/run.md's table. */
    public String docDefault() {
        return docDefault;
    }

    /**
     * The setting's row in its docs/run.md table, as made from this declaration: its flags and
     * value label, what it means ({@code {range}} in it: the values a number may take), its
     * default; null when no table lists it.
     */
    public String docRow() {
        if (table == null) {
            return null;
        }
        String usage = String.join(", ", flags) + (label == null ? "" : optionalValue ? "[=" + label + "]" : " " + label);
        String meaning = type.range() == null ? doc : doc.replace("{range}", type.range());
        return "| `" + usage.replace("|", "\\|") + "` | " + meaning + " | " + docDefault + " |";
    }

    /** A flag's value (as {@link SettingType#flagClass}), checked, or a {@link UserError} naming the flag. */
    public T fromFlag(Object given) {
        return checked(flag(), given);
    }

    /**
     * {@code given} checked as this setting's value, or a {@link UserError} naming {@code place}: for
     * a command with a flag of its own for the same thing ({@code serve --threads}, {@code mcb -t}),
     * so that its limit and message are this setting's.
     */
    public T checked(String place, Object given) {
        Objects.requireNonNull(given, name);
        try {
            return type.fromFlag(given);
        } catch (IllegalArgumentException e) {
            throw new UserError(place + ": " + e.getMessage());
        }
    }

    /** The value of this setting's key in {@code t}, checked, or null when absent. */
    T read(TomlTable t) {
        return type.read(t, key);
    }

    /** {@code value} as TOML, as a config file gives it under {@link #key}. */
    public String toml(T value) {
        return type.toml(value);
    }

    @Override
    public String toString() {
        return name;
    }
}
