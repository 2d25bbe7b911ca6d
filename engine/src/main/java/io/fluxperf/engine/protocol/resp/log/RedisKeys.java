package io.fluxperf.engine.protocol.resp.log;

import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.VerbTable;
import java.util.Set;

/**
 * Which words of a redis command are keys, for {@code --key-prefix} and for the key a trace record
 * keeps. Covers the common commands; a command not listed is taken to have its key first (as
 * most do), and the commands listed in {@link #NO_KEYS} have none.
 */
final class RedisKeys {
    static final Set<String> NO_KEYS = Set.of("ping", "echo", "select", "auth", "hello", "info", "config", "client",
            "command", "time", "dbsize", "flushall", "flushdb", "save", "bgsave", "bgrewriteaof", "lastsave", "slowlog",
            "script", "function", "multi", "exec", "discard", "unwatch", "publish", "spublish", "subscribe",
            "psubscribe", "ssubscribe", "unsubscribe", "punsubscribe", "sunsubscribe", "pubsub", "cluster", "readonly",
            "readwrite", "wait", "waitaof", "debug", "quit", "reset", "role", "monitor", "shutdown", "swapdb", "acl",
            "latency", "module", "randomkey", "keys", "scan", "lolwut", "replicaof", "slaveof", "sync", "psync",
            "replconf", "failover", "asking", "memory-doctor");
    /** Every word after the verb is a key. */
    private static final Set<String> ALL = Set.of("del", "unlink", "exists", "mget", "touch", "watch", "sinter",
            "sunion", "sdiff", "sinterstore", "sunionstore", "sdiffstore", "pfcount", "pfmerge", "rename", "renamenx");
    /** Every word after the verb but the last (a timeout, a member) is a key. */
    private static final Set<String> ALL_BUT_LAST = Set.of("blpop", "brpop", "bzpopmin", "bzpopmax", "brpoplpush",
            "smove");
    /** The first two words are keys. */
    private static final Set<String> FIRST_TWO = Set.of("rpoplpush", "lmove", "blmove", "copy", "geosearchstore",
            "zrangestore");
    /** Key, value, key, value, … */
    private static final Set<String> PAIRS = Set.of("mset", "msetnx");
    /** numkeys in word 2, then that many keys (scripts, functions). */
    private static final Set<String> NUMKEYS_AT_2 = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall",
            "fcall_ro");
    /** a destination key in word 1, numkeys in word 2, then the keys. */
    private static final Set<String> DEST_NUMKEYS = Set.of("zunionstore", "zinterstore", "zdiffstore");
    /** numkeys in word 1, then the keys. */
    private static final Set<String> NUMKEYS_AT_1 = Set.of("zunion", "zinter", "zdiff", "zintercard", "sintercard",
            "lmpop", "zmpop");

    private RedisKeys() {
    }

    /** Where a command's keys are, told from its verb once (a reader keeps it per verb). */
    enum Rule { NONE, ALL, ALL_BUT_LAST, FIRST_TWO, PAIRS, NUMKEYS_AT_2, DEST_NUMKEYS, NUMKEYS_AT_1, BITOP, THIRD, STREAMS, FIRST }

    /** The rule of command {@code verb} (lower case). */
    static Rule rule(String verb) {
        if (NO_KEYS.contains(verb)) {
            return Rule.NONE;
        }
        if (ALL.contains(verb)) {
            return Rule.ALL;
        }
        if (ALL_BUT_LAST.contains(verb)) {
            return Rule.ALL_BUT_LAST;
        }
        if (FIRST_TWO.contains(verb)) {
            return Rule.FIRST_TWO;
        }
        if (PAIRS.contains(verb)) {
            return Rule.PAIRS;
        }
        if (NUMKEYS_AT_2.contains(verb)) {
            return Rule.NUMKEYS_AT_2;
        }
        if (DEST_NUMKEYS.contains(verb)) {
            return Rule.DEST_NUMKEYS;
        }
        if (NUMKEYS_AT_1.contains(verb)) {
            return Rule.NUMKEYS_AT_1;
        }
        return switch (verb) {
            case "bitop" -> Rule.BITOP;
            case "object", "memory" -> Rule.THIRD;
            case "xread", "xreadgroup" -> Rule.STREAMS;
            default -> Rule.FIRST;
        };
    }

    /** Whether word {@code i} (0 = the verb) of {@code e}'s arguments is a key of command {@code verb} (lower case). */
    static boolean isKey(String verb, int i, LogEntry e) {
        return isKey(rule(verb), i, e);
    }

    /** Whether word {@code i} (0 = the verb) of {@code e}'s arguments is a key of a command of {@code rule}. */
    static boolean isKey(Rule rule, int i, LogEntry e) {
        int argc = e.argCount;
        if (i == 0) {
            return false;
        }
        return switch (rule) {
            case NONE -> false;
            case ALL -> true;
            case ALL_BUT_LAST -> i < argc - 1;
            case FIRST_TWO -> i <= 2;
            case PAIRS -> i % 2 == 1;
            case NUMKEYS_AT_2 -> i >= 3 && i < 3 + number(e, 2);
            case DEST_NUMKEYS -> i == 1 || (i >= 3 && i < 3 + number(e, 2));
            case NUMKEYS_AT_1 -> i >= 2 && i < 2 + number(e, 1);
            case BITOP -> i >= 2;
            case THIRD -> i == 2;
            case STREAMS -> {
                int streams = -1;
                for (int k = 1; k < argc; k++) {
                    if (equalsIgnoreCase(e, k, "streams")) {
                        streams = k;
                        break;
                    }
                }
                int n = streams < 0 ? 0 : (argc - streams - 1) / 2;
                yield streams >= 0 && i > streams && i <= streams + n;
            }
            case FIRST -> i == 1;
        };
    }

    /** The word of {@code e} that values are counted from for a write (SET k v: 2, HSET k f v: 3), or -1. */
    static int valueIndex(String verb, int argc) {
        int i = valueWord(verb);
        return i < argc ? i : -1;
    }

    /** The word a write of {@code verb} carries its value in, when it has that many; -1 for others. */
    static int valueWord(String verb) {
        return switch (verb) {
            case "set", "setnx", "getset", "append", "lpush", "rpush", "sadd", "mset", "lpushx", "rpushx", "publish" -> 2;
            case "setex", "psetex", "hset", "hsetnx", "zadd" -> 3;
            default -> -1;
        };
    }

    private static int number(LogEntry e, int word) {
        if (word >= e.argCount) {
            return 0;
        }
        long n = 0;
        int from = e.argStart(word);
        int to = e.argEnds[word];
        if (from == to || to - from > 9) {
            return 0;
        }
        for (int k = from; k < to; k++) {
            byte c = e.args[k];
            if (c < '0' || c > '9') {
                return 0;
            }
            n = n * 10 + (c - '0');
        }
        return (int) n;
    }

    private static boolean equalsIgnoreCase(LogEntry e, int word, String lower) {
        int from = e.argStart(word);
        if (e.argEnds[word] - from != lower.length()) {
            return false;
        }
        for (int k = 0; k < lower.length(); k++) {
            if (VerbTable.toLower(e.args[from + k]) != lower.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
