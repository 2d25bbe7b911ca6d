package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.request.Command;
import java.util.Arrays;
import java.util.Set;

/**
 * What a replay does with each redis verb of a log, told once per verb id (a log has few verbs and
 * many commands): skipped, and why, or its command, key rule and value word. The MONITOR reader and
 * the reader of captured connections share it.
 */
final class RedisVerbs {
    static final Set<String> CONNECTION_STATE = Set.of("auth", "hello", "monitor", "subscribe", "psubscribe",
            "ssubscribe", "unsubscribe", "punsubscribe", "sunsubscribe", "quit", "reset", "sync", "psync", "replconf",
            "replicaof", "slaveof", "failover", "shutdown");
    private static final Set<String> FLUSH = Set.of("flushall", "flushdb");

    /** A verb's fate in a replay: skipped (and why), or its command, key rule and value word. */
    static final class Verb {
        final String name;
        final String skip;
        final Command command;
        final RedisKeys.Rule keys;
        final int valueWord;
        /** The command whose reply rules apply to this verb's replies (INCRBY reads as INCR); null when none. */
        final Command replyRule;
        /**
         * After this verb the server's messages may no longer be one reply per command (SUBSCRIBE,
         * MONITOR, CLIENT REPLY); CLIENT does only with REPLY, which its reader checks.
         */
        final boolean mayChangeReplies;

        Verb(String name, Command command, boolean allowFlush, String authReason) {
            this.name = name;
            byte[] b = name.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
            this.replyRule = io.fluxperf.engine.protocol.resp.RespOutcome.commandOf(b, 0, b.length);
            this.mayChangeReplies = switch (name) {
                case "subscribe", "psubscribe", "ssubscribe", "monitor", "client" -> true;
                default -> false;
            };
            if (CONNECTION_STATE.contains(name)) {
                skip = name.equals("auth") || name.equals("hello") ? authReason
                        : "changes the connection or the server (" + name + ")";
            } else if (FLUSH.contains(name) && !allowFlush) {
                skip = "flush (replayed only with --allow-flush)";
            } else {
                skip = null;
            }
            this.command = command;
            this.keys = RedisKeys.rule(name);
            this.valueWord = command.carriesValue() || command == Command.COMMAND ? RedisKeys.valueWord(name) : -1;
        }
    }

    private final ReaderContext ctx;
    private final String authReason;
    private Verb[] verbs = new Verb[64];

    /** @param authReason why AUTH and HELLO are not replayed from this kind of log */
    RedisVerbs(ReaderContext ctx, String authReason) {
        this.ctx = ctx;
        this.authReason = authReason;
    }

    Verb verb(int id) {
        if (id >= verbs.length) {
            verbs = Arrays.copyOf(verbs, Math.max(id + 1, verbs.length * 2));
        }
        Verb v = verbs[id];
        if (v == null) {
            verbs[id] = v = new Verb(ctx.verbs.name(id), ctx.command(id), ctx.allowFlush, authReason);
        }
        return v;
    }
}
