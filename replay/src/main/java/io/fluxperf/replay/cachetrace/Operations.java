package io.fluxperf.replay.cachetrace;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The eleven operations of Twitter's cache traces and how each goes out with the replay's
 * protocol. An operation the protocol speaks is sent as itself (memcache, text or binary, speaks
 * them all). One it lacks is sent as a stand-in that the protocol does speak:
 * <pre>
 * gets                GET k                  (a get that does not ask for the cas unique)
 * add                 SET k v NX [EX ttl]    (stores only when the key is absent, as add does)
 * replace, cas        SET k v XX [EX ttl]    (stores only when the key is present; the trace has no cas unique)
 * append, prepend     APPEND k v             (values are synthesised: where the bytes go does not matter)
 * </pre>
 * Those are redis' words, sent as literal arguments; a protocol without get, set, delete, incr and
 * decr, or one that takes no literal words where a stand-in is needed, cannot replay a cache trace.
 */
final class Operations {
    /** The operations the format names, in the README's order. */
    static final List<String> NAMES = List.of("get", "gets", "set", "add", "replace", "cas", "append", "prepend",
            "delete", "incr", "decr");
    private static final List<Command> NEEDED = List.of(Command.GET, Command.SET, Command.DELETE, Command.INCR,
            Command.DECR);

    /** What one operation sends. */
    static final class Form {
        /** The command it is accounted and sent as. */
        final Command command;
        /** Writes carry a value of the trace's value size, and its TTL. */
        final boolean writes;
        /** Reads: the trace's value size is the size of what they returned. */
        final boolean reads;
        /** incr and decr: by 1. */
        final long numeric;
        /** A stand-in's literal verb ({@code SET}, {@code APPEND}), or null when the operation goes as itself. */
        final byte[] literal;
        /** A literal SET's condition ({@code NX}, {@code XX}), or null. */
        final byte[] condition;

        Form(Command command, boolean writes, boolean reads, long numeric, String literal, String condition) {
            this.command = command;
            this.writes = writes;
            this.reads = reads;
            this.numeric = numeric;
            this.literal = literal == null ? null : literal.getBytes(StandardCharsets.US_ASCII);
            this.condition = condition == null ? null : condition.getBytes(StandardCharsets.US_ASCII);
        }
    }

    private Operations() {
    }

    /**
     * Refuses a protocol that cannot replay the format's core operations, naming those that can.
     *
     * @throws UserError naming the protocol
     */
    static void check(ReaderContext ctx) {
        List<String> missing = NEEDED.stream().filter(c -> !ctx.speaks(c)).map(Command::label).toList();
        if (!missing.isEmpty()) {
            String able = Protocols.all().stream().filter(p -> NEEDED.stream().allMatch(p::supports))
                    .map(p -> p.name()).collect(Collectors.joining(", "));
            throw new UserError("--protocol " + ctx.protocol + ": a cache trace's operations need get, set, delete, incr"
                    + " and decr, and " + ctx.protocol + " has no " + String.join(", ", missing) + " (use one of " + able + ")");
        }
    }

    /** The form of the operation named {@code name} (lower case) for {@code ctx}'s protocol; null: not an operation. */
    static Form form(String name, ReaderContext ctx) {
        return switch (name) {
            case "get" -> new Form(Command.GET, false, true, 0, null, null);
            case "gets" -> new Form(ctx.speaks(Command.GETS) ? Command.GETS : Command.GET, false, true, 0, null, null);
            case "set" -> new Form(Command.SET, true, false, 0, null, null);
            case "add" -> orStandIn(Command.ADD, ctx, "SET", "NX");
            case "replace" -> orStandIn(Command.REPLACE, ctx, "SET", "XX");
            case "cas" -> orStandIn(Command.CAS, ctx, "SET", "XX");
            case "append" -> orStandIn(Command.APPEND, ctx, "APPEND", null);
            case "prepend" -> orStandIn(Command.PREPEND, ctx, "APPEND", null);
            case "delete" -> new Form(Command.DELETE, false, false, 0, null, null);
            case "incr" -> new Form(Command.INCR, false, false, 1, null, null);
            case "decr" -> new Form(Command.DECR, false, false, 1, null, null);
            default -> null;
        };
    }

    /** A write sent as itself when the protocol speaks it, else as its literal stand-in. */
    private static Form orStandIn(Command c, ReaderContext ctx, String literal, String condition) {
        if (ctx.speaks(c)) {
            return new Form(c, true, false, 0, null, null);
        }
        if (!ctx.speaks(Command.COMMAND)) {
            throw new UserError("--protocol " + ctx.protocol + ": has no " + c.label() + ", and takes no literal"
                    + " commands to send a stand-in");
        }
        return new Form(Command.COMMAND, true, false, 0, literal, condition);
    }
}
