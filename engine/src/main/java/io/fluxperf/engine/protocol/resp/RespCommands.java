package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.request.Command;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The redis verbs of the protocol-neutral {@link Command}s, pre-encoded as RESP bulk strings
 * ({@code $3\r\nGET\r\n}), and the reverse look-up of a verb given as bytes (a template's or a
 * replayed command's first word), allocation-free.
 */
final class RespCommands {
    /** The commands {@link RespProtocol} sends. */
    static final Set<Command> SUPPORTED = EnumSet.of(Command.GET, Command.SET, Command.DELETE, Command.EXISTS,
            Command.EXPIRE, Command.INCR, Command.DECR, Command.MGET, Command.MSET, Command.HGET, Command.HSET,
            Command.HGETALL, Command.HDEL, Command.LPUSH, Command.RPUSH, Command.LPOP, Command.RPOP, Command.LRANGE,
            Command.SADD, Command.SREM, Command.SMEMBERS, Command.ZADD, Command.ZRANGE, Command.ZREM, Command.PING,
            Command.FLUSH, Command.COMMAND, Command.HINCRBY, Command.SISMEMBER, Command.ZSCORE, Command.ZINCRBY,
            Command.EVAL, Command.EVALSHA, Command.LLEN, Command.ZRANK,
            Command.HEXISTS, Command.PUBLISH);

    private static final Command[] BY_ORDINAL = Command.values();
    /** Upper-case verb per command ordinal; null when redis has no such command. */
    private static final byte[][] VERB = new byte[BY_ORDINAL.length][];
    /** {@code $n\r\nVERB\r\n} per command ordinal. */
    private static final byte[][] BULK_VERB = new byte[BY_ORDINAL.length][];

    /** Verbs that map to a command without being its own name (a replayed INCRBY reads as INCR). */
    private static final byte[][] EXTRA_VERBS = {bytes("INCRBY"), bytes("DECRBY"), bytes("HMGET"), bytes("SMISMEMBER"),
        bytes("ZMSCORE")};
    private static final Command[] EXTRA_COMMANDS = {Command.INCR, Command.DECR, Command.HGET, Command.SISMEMBER,
        Command.ZSCORE};

    /**
     * Every verb above by its length, and its command: a replay matches the verb of each reply's
     * request, so the look-up compares only verbs of the same length.
     */
    private static final byte[][][] VERBS_BY_LENGTH;
    private static final Command[][] COMMANDS_BY_LENGTH;

    static {
        for (Command c : SUPPORTED) {
            if (c == Command.COMMAND) {
                continue;
            }
            String verb = switch (c) {
                case DELETE -> "DEL";
                case FLUSH -> "FLUSHALL";
                default -> c.name();
            };
            VERB[c.ordinal()] = bytes(verb);
            BULK_VERB[c.ordinal()] = bytes("$" + verb.length() + "\r\n" + verb + "\r\n");
        }
        List<byte[]> verbs = new ArrayList<>();
        List<Command> commands = new ArrayList<>();
        for (int i = 0; i < VERB.length; i++) {
            if (VERB[i] != null) {
                verbs.add(VERB[i]);
                commands.add(BY_ORDINAL[i]);
            }
        }
        for (int i = 0; i < EXTRA_VERBS.length; i++) {
            verbs.add(EXTRA_VERBS[i]);
            commands.add(EXTRA_COMMANDS[i]);
        }
        int longest = verbs.stream().mapToInt(v -> v.length).max().orElse(0);
        VERBS_BY_LENGTH = new byte[longest + 1][][];
        COMMANDS_BY_LENGTH = new Command[longest + 1][];
        for (int n = 0; n <= longest; n++) {
            List<byte[]> v = new ArrayList<>();
            List<Command> c = new ArrayList<>();
            for (int k = 0; k < verbs.size(); k++) {
                if (verbs.get(k).length == n) {
                    v.add(verbs.get(k));
                    c.add(commands.get(k));
                }
            }
            VERBS_BY_LENGTH[n] = v.toArray(new byte[0][]);
            COMMANDS_BY_LENGTH[n] = c.toArray(new Command[0]);
        }
    }

    private RespCommands() {
    }

    /** {@code $n\r\nVERB\r\n} of a supported command other than COMMAND. */
    static byte[] bulkVerb(Command c) {
        return BULK_VERB[c.ordinal()];
    }

    /**
     * The command whose verb is {@code b[offset, offset+length)} in any case, or null when it is
     * none of the supported ones (then nothing is known about its reply).
     */
    static Command match(byte[] b, int offset, int length) {
        if (length >= VERBS_BY_LENGTH.length) {
            return null;
        }
        byte[][] verbs = VERBS_BY_LENGTH[length];
        for (int i = 0; i < verbs.length; i++) {
            if (equalsIgnoreCase(verbs[i], b, offset, length)) {
                return COMMANDS_BY_LENGTH[length][i];
            }
        }
        return null;
    }

    /** {@code upper} (upper-case ASCII letters) equals {@code b[offset, offset+length)} ignoring case. */
    private static boolean equalsIgnoreCase(byte[] upper, byte[] b, int offset, int length) {
        if (upper.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int c = b[offset + i];
            if (c >= 'a' && c <= 'z') {
                c -= 'a' - 'A';
            }
            if (c != upper[i]) {
                return false;
            }
        }
        return true;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
