package io.fluxperf.replay;

import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.request.Command;
import java.util.Arrays;

/** What every reader of one pass shares: where to report, verbs, counters and the key rewrite. */
final class ReaderContext {
    /** The log's name as the user gave it, for messages ({@code app.log:12: …}). */
    final String name;
    final BadLines bad;
    final VerbTable verbs;
    final ReplayStats stats;
    /** Prepended to every key (--key-prefix); null for none. */
    final byte[] keyPrefix;
    /** Replay flush_all / FLUSHALL / FLUSHDB (skipped otherwise). */
    final boolean allowFlush;
    /** The protocol the commands go out with: decides which verbs have a {@link Command} of their own. */
    final Protocol protocol;
    private Command[] byVerb = new Command[64];
    private boolean[] known = new boolean[64];

    ReaderContext(String name, BadLines bad, VerbTable verbs, ReplayStats stats, byte[] keyPrefix, boolean allowFlush,
                  Protocol protocol) {
        this.name = name;
        this.bad = bad;
        this.verbs = verbs;
        this.stats = stats;
        this.keyPrefix = keyPrefix;
        this.allowFlush = allowFlush;
        this.protocol = protocol;
    }

    /** {@code app.log:12} */
    String place(long line) {
        return name + ":" + line;
    }

    /**
     * The command a verb is accounted as: the {@link Command} of that name when the protocol has it,
     * else {@link Command#COMMAND} (sent as its literal words).
     */
    Command command(int verb) {
        if (verb >= byVerb.length) {
            byVerb = Arrays.copyOf(byVerb, Math.max(verb + 1, byVerb.length * 2));
            known = Arrays.copyOf(known, byVerb.length);
        }
        if (!known[verb]) {
            Command c = verb == VerbTable.OVERFLOW ? null : Command.parse(verbs.name(verb));
            byVerb[verb] = c != null && protocol.supports(c) ? c : Command.COMMAND;
            known[verb] = true;
        }
        return byVerb[verb];
    }
}
