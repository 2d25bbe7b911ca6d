package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.request.Command;
import java.nio.charset.StandardCharsets;

/**
 * memcached's binary protocol opcodes (protocol_binary.h) as a capture's reader needs them: which
 * commands they are, which are quiet (answered only on a hit or a failure), which carry a value,
 * and what their replies' statuses mean, by the rules of fluxperf's binary codec.
 */
final class MemcacheBinaryOps {
    static final int GET = 0x00;
    static final int SET = 0x01;
    static final int ADD = 0x02;
    static final int REPLACE = 0x03;
    static final int DELETE = 0x04;
    static final int INCREMENT = 0x05;
    static final int DECREMENT = 0x06;
    static final int QUIT = 0x07;
    static final int FLUSH = 0x08;
    static final int GETQ = 0x09;
    static final int NOOP = 0x0a;
    static final int VERSION = 0x0b;
    static final int GETK = 0x0c;
    static final int GETKQ = 0x0d;
    static final int APPEND = 0x0e;
    static final int PREPEND = 0x0f;
    static final int STAT = 0x10;
    static final int SETQ = 0x11;
    static final int ADDQ = 0x12;
    static final int REPLACEQ = 0x13;
    static final int DELETEQ = 0x14;
    static final int INCREMENTQ = 0x15;
    static final int DECREMENTQ = 0x16;
    static final int QUITQ = 0x17;
    static final int FLUSHQ = 0x18;
    static final int APPENDQ = 0x19;
    static final int PREPENDQ = 0x1a;
    static final int VERBOSITY = 0x1b;
    static final int TOUCH = 0x1c;
    static final int GAT = 0x1d;
    static final int GATQ = 0x1e;
    static final int SASL_LIST = 0x20;
    static final int SASL_AUTH = 0x21;
    static final int SASL_STEP = 0x22;
    static final int GATK = 0x23;
    static final int GATKQ = 0x24;

    /** The text verb of each command, as the verb table names it (a mixed capture has one "get" workload). */
    static final byte[][] VERB_BYTES = new byte[Command.values().length][];

    static {
        for (Command c : Command.values()) {
            VERB_BYTES[c.ordinal()] = (c == Command.FLUSH ? "flush_all" : c.label()).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private MemcacheBinaryOps() {
    }

    static boolean known(byte opcode) {
        int op = opcode & 0xff;
        return op <= TOUCH || op == GAT || op == GATQ || op >= SASL_LIST && op <= GATKQ;
    }

    /** Answered only on a hit (gets) or a failure (the rest), else by silence. */
    static boolean quiet(int op) {
        return switch (op) {
            case GETQ, GETKQ, SETQ, ADDQ, REPLACEQ, DELETEQ, INCREMENTQ, DECREMENTQ, QUITQ, FLUSHQ, APPENDQ, PREPENDQ, GATQ,
                 GATKQ -> true;
            default -> false;
        };
    }

    static boolean carriesValue(int op) {
        return switch (op) {
            case SET, ADD, REPLACE, APPEND, PREPEND, SETQ, ADDQ, REPLACEQ, APPENDQ, PREPENDQ -> true;
            default -> false;
        };
    }

    /** Why a command of this opcode is not replayed, or null when it is. */
    static String skipReason(int op, boolean allowFlush) {
        return switch (op) {
            case NOOP -> "binary no-ops (a multi-get's end; the replay's codec sends its own)";
            case VERSION, STAT, VERBOSITY, QUIT, QUITQ -> "admin commands (binary opcode 0x" + Integer.toHexString(op) + ")";
            case SASL_LIST, SASL_AUTH, SASL_STEP -> "SASL authentication (a connection's setup)";
            case GAT, GATQ, GATK, GATKQ -> "get-and-touch commands (binary)";
            case FLUSH, FLUSHQ -> allowFlush ? null : "flush (replayed only with --allow-flush)";
            default -> known((byte) op) ? null : "unknown binary opcodes";
        };
    }

    /** The command a replayed opcode is; a store with a cas value is a cas. */
    static Command command(int op, long cas) {
        return switch (op) {
            case GET, GETQ, GETK, GETKQ -> Command.GET;
            case SET, SETQ -> cas != 0 ? Command.CAS : Command.SET;
            case ADD, ADDQ -> Command.ADD;
            case REPLACE, REPLACEQ -> cas != 0 ? Command.CAS : Command.REPLACE;
            case DELETE, DELETEQ -> Command.DELETE;
            case INCREMENT, INCREMENTQ -> Command.INCR;
            case DECREMENT, DECREMENTQ -> Command.DECR;
            case APPEND, APPENDQ -> Command.APPEND;
            case PREPEND, PREPENDQ -> Command.PREPEND;
            case TOUCH -> Command.TOUCH;
            case FLUSH, FLUSHQ -> Command.FLUSH;
            default -> throw new IllegalArgumentException("opcode " + op);
        };
    }

    /** A reply's status as a reply class: 0 OK; not found (1), exists (2), not stored (5) MISS; else ERROR. */
    static byte outcome(int op, int status) {
        return switch (status) {
            case 0 -> LogEntry.REPLY_OK;
            case 1, 2, 5 -> LogEntry.REPLY_MISS;
            default -> LogEntry.REPLY_ERROR;
        };
    }

    /** What a quiet command's silence meant once a later reply passed it over: a get's miss, anything else's success. */
    static byte silence(int op) {
        return op == GETQ || op == GETKQ || op == GATQ || op == GATKQ ? LogEntry.REPLY_MISS : LogEntry.REPLY_OK;
    }

    /** The big-endian 32-bit number at {@code b[at, at + 4)}. */
    static int int32(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | b[at + 3] & 0xff;
    }
}
