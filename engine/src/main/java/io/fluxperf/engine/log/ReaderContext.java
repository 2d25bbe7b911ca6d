package io.fluxperf.engine.log;

import io.fluxperf.engine.request.Command;
import java.util.Arrays;
import java.util.function.Predicate;

/** What every reader of one pass shares: where to report, verbs, counters and the key rewrite. */
public final class ReaderContext {
    /** The log's name as the user gave it, for messages ({@code app.log:12: …}). */
    public final String name;
    public final BadLines bad;
    public final VerbTable verbs;
    public final LogStats stats;
    /** Prepended to every key (--key-prefix); null for none. */
    public final byte[] keyPrefix;
    /** Replay flush_all / FLUSHALL / FLUSHDB (skipped otherwise). */
    public final boolean allowFlush;
    /** The name of the protocol the commands go out with, for messages. */
    public final String protocol;
    /** Which commands that protocol speaks: they decide which verbs have a {@link Command} of their own. */
    private final Predicate<Command> speaks;
    /** Of a part of a log read by several threads: the clients every part numbers alike; else null. */
    private final ClientTable sharedClients;
    private Command[] byVerb = new Command[64];
    private boolean[] known = new boolean[64];

    public ReaderContext(String name, BadLines bad, VerbTable verbs, LogStats stats, byte[] keyPrefix, boolean allowFlush,
                         String protocol, Predicate<Command> speaks) {
        this.name = name;
        this.bad = bad;
        this.verbs = verbs;
        this.stats = stats;
        this.keyPrefix = keyPrefix;
        this.allowFlush = allowFlush;
        this.protocol = protocol;
        this.speaks = speaks;
        this.sharedClients = null;
    }

    private ReaderContext(ReaderContext whole, BadLines bad, VerbTable verbs, LogStats stats, ClientTable sharedClients) {
        this.name = whole.name;
        this.bad = bad;
        this.verbs = verbs;
        this.stats = stats;
        this.keyPrefix = whole.keyPrefix;
        this.allowFlush = whole.allowFlush;
        this.protocol = whole.protocol;
        this.speaks = whole.speaks;
        this.sharedClients = sharedClients;
    }

    /**
     * The context of one thread that reads parts of this log: its own verbs (in front of this
     * context's, {@link VerbTable#VerbTable(VerbTable)}), counters ({@code stats}, added to this
     * context's when the pass ends) and bad lines ({@code bad}, strict as this context's and
     * {@linkplain BadLines#take taken} into them part by part in the log's order), and clients
     * numbered through {@code sharedClients}.
     */
    public ReaderContext part(LogStats stats, BadLines bad, ClientTable sharedClients) {
        return new ReaderContext(this, bad, new VerbTable(verbs), stats, sharedClients);
    }

    /** A reader's table of original clients: its own, or, for a part of a log, one in front of the shared table. */
    public ClientTable newClientTable() {
        return sharedClients == null ? new ClientTable() : new ClientTable(sharedClients);
    }

    /** {@code app.log:12} */
    public String place(long line) {
        return name + ":" + line;
    }

    /**
     * Whether the protocol speaks {@code c}.
     */
    public boolean speaks(Command c) {
        return speaks.test(c);
    }

    /**
     * The command a verb is accounted as: the {@link Command} of that name when the protocol has it,
     * else {@link Command#COMMAND} (sent as its literal words).
     */
    public Command command(int verb) {
        if (verb >= byVerb.length) {
            byVerb = Arrays.copyOf(byVerb, Math.max(verb + 1, byVerb.length * 2));
            known = Arrays.copyOf(known, byVerb.length);
        }
        if (!known[verb]) {
            Command c = verb == VerbTable.OVERFLOW ? null : Command.parse(verbs.name(verb));
            byVerb[verb] = c != null && speaks.test(c) ? c : Command.COMMAND;
            known[verb] = true;
        }
        return byVerb[verb];
    }
}
