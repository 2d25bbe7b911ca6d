package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.Ascii;
import io.fluxperf.engine.protocol.HandshakeRefused;
import io.fluxperf.engine.protocol.ProtocolCodec;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.Redirect;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.List;
import static io.fluxperf.engine.protocol.resp.RespCommands.bytes;

/**
 * Client side of RESP for one connection: every request goes out as a RESP array of bulk
 * strings, and replies (RESP2 or RESP3) are framed by a {@link RespReplyDecoder} whose sink
 * looks only at the shape of the top-level reply.
 *
 * <h2>What each command sends</h2>
 * {@code k} is the request's first key, {@code v} its value. Containers hold one member named
 * after their key, so that a write and the later read, pop or removal of the same key meet:
 * <pre>
 * GET k                (GET with several keys: MGET k1 k2 …)
 * SET k v              SET k v EX ttl when the request has a ttl
 * DEL k1 k2 …          EXISTS k1 k2 …          MGET k1 k2 …        MSET k1 v k2 v …
 * EXPIRE k ttl         the request's ttl; 3600 s when it has none (EXPIRE k 0 would delete the key)
 * INCR k / DECR k      INCRBY k n / DECRBY k n when the request's numeric n is not 1
 * HSET k f v           HGET k f          HDEL k f           HGETALL k      HINCRBY k f n
 * LPUSH k v / RPUSH k v                   LPOP k / RPOP k     LRANGE k 0 9        LLEN k
 * SADD k m             SREM k m          SMEMBERS k         SISMEMBER k m
 * ZADD k n m           ZREM k m          ZRANGE k 0 9       ZSCORE k m     ZINCRBY k n m   (score: numeric)
 * ZRANK k m            HEXISTS k f
 * EVAL s 1 k v         EVALSHA sha1(s) 1 k v               (s: the request's script; KEYS[1] = k, ARGV[1] = v)
 * PING                 FLUSHALL (FLUSH)
 * COMMAND              the template's words, __key__ → k, __data__ → v, __counter__ → numeric
 * </pre>
 * Fields and members ({@code f}, {@code m}) are the request's members, or its key when it has none.
 * With several members (a workload's cardinality) HSET, HDEL, SADD, SREM, ZADD and ZREM name them
 * all ({@code HSET k f1 v f2 v …}), HGET becomes {@code HMGET k f1 f2 …}, SISMEMBER
 * {@code SMISMEMBER}, ZSCORE {@code ZMSCORE} (redis 6.2), and LPUSH and RPUSH push the value once
 * per member. A request with literal arguments (replay) sends exactly those words instead.
 *
 * <p>LRANGE and ZRANGE read the request's range ({@link Request#range}; 0 to 9 unless a workload sets
 * it); by score ZRANGE sends {@code ZRANGE k min max BYSCORE}, an open end as -inf or +inf. A push
 * with a truncate of n is followed in the same write by {@code LTRIM k 0 n-1} (LPUSH) or
 * {@code LTRIM k -n -1} (RPUSH), as rpc-perf fuses the two: the list keeps its newest n elements.
 * Both replies are read, and a failed trim makes the request an error. A write into a hash, list,
 * set or sorted set (HSET, HINCRBY, LPUSH, RPUSH, SADD, ZADD, ZINCRBY) with a ttl is followed, after
 * any trim, by {@code EXPIRE k ttl NX}, as rpc-perf does: the key expires ttl seconds after the
 * write that made it; that reply is read and does not count in the outcome.
 *
 * <h2>Scripts</h2>
 * EVALSHA names the script by its SHA-1, which redis knows only once the script is loaded: the
 * first EVALSHA of each script on a connection is preceded by {@code SCRIPT LOAD s} in the same
 * write, and that reply is read (and, when it is an error, made the EVALSHA's outcome) before the
 * EVALSHA's own. A connection loads each script once; the digest is computed once per connection.
 *
 * <h2>Outcomes</h2>
 * An error reply ({@code -…}, RESP3 {@code !…}) is ERROR. A nil ({@code $-1}, {@code *-1}, RESP3
 * {@code _}) is MISS. An empty aggregate, or one whose elements are all nil (MGET), is MISS for a
 * read (and for a template or replayed command whose verb is not one of ours). An integer 0 is
 * MISS for EXISTS, SISMEMBER, HEXISTS and LLEN (no such list), and for DEL, EXPIRE, HDEL, SREM and ZREM, whose 0 means the key or
 * member was not there (memcache's NOT_FOUND for delete and touch); SMISMEMBER's array of zeros is
 * a MISS too. HMGET and ZMSCORE miss as MGET does. HINCRBY, ZINCRBY, EVAL and EVALSHA are OK
 * unless an error or a nil. Everything else is OK. A template's or
 * replayed command's verb decides as the command of that name would (EXISTS, GET, …).
 *
 * <h2>Handshake</h2>
 * {@code HELLO 3 [AUTH user password]} for RESP3, else {@code AUTH [user] password} when a
 * password is set; then {@code SELECT db} when a database is set; then, on a cluster replica that
 * serves reads, {@code READONLY}. They are pipelined, and the first refusal ends the run with one
 * sentence naming the flag ({@link HandshakeRefused}).
 *
 * <h2>Cluster nodes</h2>
 * On a connection to a redis Cluster node ({@code --cluster}), an error reply {@code -MOVED slot
 * host:port} or {@code -ASK slot host:port} is no outcome but a {@link Redirect}
 * ({@link #REDIRECTED}); a request sent again after an ASK ({@link Request#redirectOnce()}) goes
 * out after {@code ASKING}, whose reply is read and dropped before the request's own.
 *
 * <p>Encoding allocates nothing: verbs are pre-encoded, lengths and numbers written in place.
 * Not thread-safe: one per connection, on its event loop.
 */
final class RespCodec implements ProtocolCodec {
    /** The ttl EXPIRE sends when the request has none. */
    static final int DEFAULT_EXPIRE_SECONDS = 3600;

    private static final short CRLF = ('\r' << 8) | '\n';
    private static final byte[][] ARRAY_HEADER = new byte[16][];
    private static final byte[] EMPTY_BULK = bytes("$0\r\n\r\n");
    private static final byte[] GET_MANY = RespCommands.bulkVerb(Command.MGET);
    private static final byte[] INCRBY = bytes("$6\r\nINCRBY\r\n");
    private static final byte[] DECRBY = bytes("$6\r\nDECRBY\r\n");
    private static final byte[] EX = bytes("$2\r\nEX\r\n");
    private static final byte[] LTRIM = bytes("*4\r\n$5\r\nLTRIM\r\n");
    private static final byte[] BYSCORE = bytes("$7\r\nBYSCORE\r\n");
    private static final byte[] MINUS_INF = bytes("$4\r\n-inf\r\n");
    private static final byte[] PLUS_INF = bytes("$4\r\n+inf\r\n");
    private static final byte[] MINUS_ONE = bytes("$2\r\n-1\r\n");
    private static final byte[] RANGE_FROM_0 = bytes("$1\r\n0\r\n");
    private static final byte[] HMGET = bytes("$5\r\nHMGET\r\n");
    private static final byte[] SMISMEMBER = bytes("$10\r\nSMISMEMBER\r\n");
    private static final byte[] ZMSCORE = bytes("$7\r\nZMSCORE\r\n");
    private static final byte[] ONE_KEY = bytes("$1\r\n1\r\n");
    private static final byte[] SCRIPT_LOAD = bytes("*3\r\n$6\r\nSCRIPT\r\n$4\r\nLOAD\r\n");
    private static final byte[] HELLO_3 = bytes("$5\r\nHELLO\r\n$1\r\n3\r\n");
    private static final byte[] AUTH = bytes("$4\r\nAUTH\r\n");
    private static final byte[] SELECT = bytes("$6\r\nSELECT\r\n");
    private static final byte[] DEFAULT_USER = bytes("default");
    private static final byte[] READONLY = bytes("*1\r\n$8\r\nREADONLY\r\n");
    private static final byte[] ASKING = bytes("*1\r\n$6\r\nASKING\r\n");
    private static final byte[] MOVED_PREFIX = bytes("MOVED ");
    private static final byte[] ASK_PREFIX = bytes("ASK ");
    /** Writes into containers, which take no ttl of their own: a ttl is an EXPIRE sent after them. */
    private static final boolean[] EXPIRE_AFTER = new boolean[Command.values().length];
    private static final byte[] EXPIRE = bytes("*4\r\n$6\r\nEXPIRE\r\n");
    private static final byte[] NX = bytes("$2\r\nNX\r\n");

    static {
        for (int n = 0; n < ARRAY_HEADER.length; n++) {
            ARRAY_HEADER[n] = bytes("*" + n + "\r\n");
        }
        for (Command c : new Command[] {Command.HSET, Command.HINCRBY, Command.LPUSH, Command.RPUSH, Command.SADD,
                Command.ZADD, Command.ZINCRBY}) {
            EXPIRE_AFTER[c.ordinal()] = true;
        }
    }

    private static final int STEP_HELLO = 1;
    private static final int STEP_AUTH = 2;
    private static final int STEP_SELECT = 3;
    private static final int STEP_READONLY = 4;

    private final RespOptions options;
    private final RespReplyDecoder decoder = new RespReplyDecoder();
    private final ReplyShape shape;
    private final HandshakeReply handshakeReply = new HandshakeReply();
    /** The reply to a SCRIPT LOAD: only whether it is an error counts. */
    private final HandshakeReply loadReply = new HandshakeReply();
    /** The reply to the LTRIM sent with a push that truncates: only whether it is an error counts. */
    private final HandshakeReply followUpReply = new HandshakeReply();
    /**
     * Replies still to read after the oldest request's own, whose outcome is {@link #mainOutcome}:
     * its LTRIM's (when {@link #trimDue}), then its EXPIRE's.
     */
    private int followUps;
    private boolean trimDue;
    private int mainOutcome;
    /** Handshake commands sent, in order, and how many of their replies have been read. */
    private final int[] steps = new int[3];
    private int stepCount;
    private int stepsDone;
    private final Scripts scripts = new Scripts();
    /** A cluster node's connection: MOVED and ASK are redirects. */
    private final boolean clusterNode;
    /** A cluster replica that serves reads: READONLY in the handshake. */
    private final boolean readOnlyReplica;
    private final Redirect redirect = new Redirect();
    /** The ASKING before the oldest request's own command has been answered (and its reply dropped). */
    private boolean askingAnswered;

    RespCodec(RespOptions options) {
        this(options, false, false);
    }

    /**
     * @param clusterNode     a connection to a cluster node: redirects are decoded as such
     * @param readOnlyReplica the node is a replica this run reads from: READONLY first
     */
    RespCodec(RespOptions options, boolean clusterNode, boolean readOnlyReplica) {
        this.options = options;
        this.clusterNode = clusterNode;
        this.readOnlyReplica = readOnlyReplica;
        this.shape = new ReplyShape(clusterNode ? redirect : null);
    }

    @Override
    public Redirect redirect() {
        return redirect;
    }

    // ---- handshake ----

    @Override
    public boolean hasHandshake() {
        return options.hasHandshake() || readOnlyReplica;
    }

    @Override
    public boolean writeHandshake(ByteBuf out) {
        stepCount = 0;
        stepsDone = 0;
        String password = options.password();
        byte[] user = options.user() != null ? options.user().getBytes(StandardCharsets.UTF_8) : null;
        byte[] pass = password != null ? password.getBytes(StandardCharsets.UTF_8) : null;
        if (options.respVersion() == 3) {
            arrayHeader(out, pass != null ? 5 : 2);
            out.writeBytes(HELLO_3);
            if (pass != null) {
                out.writeBytes(AUTH);
                bulk(out, user != null ? user : DEFAULT_USER);
                bulk(out, pass);
            }
            steps[stepCount++] = STEP_HELLO;
        } else if (pass != null) {
            arrayHeader(out, user != null ? 3 : 2);
            out.writeBytes(AUTH);
            if (user != null) {
                bulk(out, user);
            }
            bulk(out, pass);
            steps[stepCount++] = STEP_AUTH;
        }
        if (options.database() >= 0) {
            arrayHeader(out, 2);
            out.writeBytes(SELECT);
            bulkLong(out, options.database());
            steps[stepCount++] = STEP_SELECT;
        }
        if (readOnlyReplica) {
            out.writeBytes(READONLY);
            steps[stepCount++] = STEP_READONLY;
        }
        return stepCount > 0;
    }

    @Override
    public int decodeHandshake(ByteBuf in) throws ProtocolException {
        while (stepsDone < stepCount) {
            if (!decoder.decode(in, handshakeReply)) {
                return NEED_MORE;
            }
            int step = steps[stepsDone++];
            String error = handshakeReply.error;
            handshakeReply.error = null;
            if (error != null) {
                throw new HandshakeRefused(refusal(step, error));
            }
        }
        return HANDSHAKE_DONE;
    }

    /** One sentence that names the flag to fix and quotes the server. */
    private String refusal(int step, String error) {
        String said = error.endsWith(".") ? error : error + ".";
        boolean authProblem = error.startsWith("WRONGPASS") || error.startsWith("NOAUTH") || error.startsWith("NOPERM")
                || error.contains("AUTH");
        String passwordFlag = options.user() != null ? "--user/--password" : "--password";
        if (options.password() == null && error.startsWith("NOAUTH")) {
            return "--password: redis requires a password (it answered " + verb(step) + " with: " + said + ")";
        }
        if (error.contains("without any password configured")) {
            return passwordFlag + ": redis has no password configured, so it refused AUTH; leave out " + passwordFlag + ".";
        }
        return switch (step) {
            case STEP_READONLY -> "--read-from replica: a replica refused READONLY: " + said;
            case STEP_AUTH -> passwordFlag + ": redis refused AUTH: " + said;
            case STEP_HELLO -> authProblem
                    ? passwordFlag + ": redis refused HELLO 3 AUTH: " + said
                    : "--resp 3: redis refused HELLO 3 (a server before redis 6 speaks only RESP2): " + said;
            default -> "--db " + options.database() + ": redis refused SELECT " + options.database() + ": " + said;
        };
    }

    private static String verb(int step) {
        return switch (step) {
            case STEP_HELLO -> "HELLO";
            case STEP_AUTH -> "AUTH";
            case STEP_READONLY -> "READONLY";
            default -> "SELECT";
        };
    }

    /** Keeps the text of a top-level error reply; ignores everything else. */
    private static final class HandshakeReply implements RespSink {
        private int depth;
        private String error;

        @Override
        public void scalar(byte type, ByteBuf in, int start, int end) {
            if (depth == 0 && (type == '-' || type == '!')) {
                error = in.toString(start, end - start, StandardCharsets.UTF_8).trim();
            }
        }

        @Override
        public void nil(byte type) {
        }

        @Override
        public void aggregateStart(byte type, long count) {
            depth++;
        }

        @Override
        public void aggregateEnd(byte type) {
            depth--;
        }
    }

    // ---- requests ----

    @Override
    public void encode(Request r, ByteBuf out) {
        if (clusterNode && r.redirectOnce()) {
            out.writeBytes(ASKING); // its reply is read and dropped before the command's own
        }
        encodeRequest(r, out);
        scripts.sent++;
    }

    private void encodeRequest(Request r, ByteBuf out) {
        if (r.argCount() > 0) {
            encodeArgs(r, out);
            return;
        }
        encodeCommand(r, out);
        if (expires(r)) {
            // NX: the first write sets the key's life, later ones leave it (rpc-perf's rule)
            out.writeBytes(EXPIRE);
            key(r, 0, out);
            bulkLong(out, r.ttlSeconds());
            out.writeBytes(NX);
        }
    }

    private void encodeCommand(Request r, ByteBuf out) {
        Command c = r.command();
        switch (c) {
            case GET -> {
                if (r.keyCount() > 1) {
                    keysCommand(GET_MANY, r, out);
                } else {
                    keyCommand(c, r, out);
                }
            }
            case HGETALL, LPOP, RPOP, SMEMBERS, LLEN -> keyCommand(c, r, out);
            case DELETE, EXISTS, MGET -> keysCommand(RespCommands.bulkVerb(c), r, out);
            case SET -> {
                boolean ttl = r.ttlSeconds() > 0;
                arrayHeader(out, ttl ? 5 : 3);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                value(r, out);
                if (ttl) {
                    out.writeBytes(EX);
                    bulkLong(out, r.ttlSeconds());
                }
            }
            case EXPIRE -> {
                arrayHeader(out, 3);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                bulkLong(out, r.ttlSeconds() > 0 ? r.ttlSeconds() : DEFAULT_EXPIRE_SECONDS);
            }
            case INCR, DECR -> {
                if (r.numeric() == 1) {
                    keyCommand(c, r, out);
                } else {
                    arrayHeader(out, 3);
                    out.writeBytes(c == Command.INCR ? INCRBY : DECRBY);
                    key(r, 0, out);
                    bulkLong(out, r.numeric());
                }
            }
            case MSET -> {
                int keys = Math.max(1, r.keyCount());
                arrayHeader(out, 1 + 2 * keys);
                out.writeBytes(RespCommands.bulkVerb(c));
                for (int i = 0; i < keys; i++) {
                    key(r, i, out);
                    value(r, out);
                }
            }
            case HGET, SISMEMBER, ZSCORE -> {
                int n = members(r);
                arrayHeader(out, 2 + n);
                out.writeBytes(n == 1 ? RespCommands.bulkVerb(c) : c == Command.HGET ? HMGET
                        : c == Command.SISMEMBER ? SMISMEMBER : ZMSCORE);
                key(r, 0, out);
                writeMembers(r, n, out);
            }
            case HDEL, SADD, SREM, ZREM -> {
                int n = members(r);
                arrayHeader(out, 2 + n);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                writeMembers(r, n, out);
            }
            case HSET -> {
                int n = members(r);
                arrayHeader(out, 2 + 2 * n);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                for (int i = 0; i < n; i++) {
                    member(r, i, out);
                    value(r, out);
                }
            }
            case HINCRBY -> {
                arrayHeader(out, 4);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                member(r, 0, out);
                bulkLong(out, r.numeric());
            }
            case ZINCRBY -> {
                arrayHeader(out, 4);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                bulkLong(out, r.numeric());
                member(r, 0, out);
            }
            case LPUSH, RPUSH -> {
                int n = members(r);
                arrayHeader(out, 2 + n);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                for (int i = 0; i < n; i++) {
                    value(r, out);
                }
                int keep = r.truncate();
                if (keep > 0) {
                    // the trim goes in the same write; decode reads its reply after the push's
                    out.writeBytes(LTRIM);
                    key(r, 0, out);
                    if (c == Command.LPUSH) {
                        out.writeBytes(RANGE_FROM_0);
                        bulkLong(out, keep - 1);
                    } else {
                        bulkLong(out, -(long) keep);
                        out.writeBytes(MINUS_ONE);
                    }
                }
            }
            case ZRANK, HEXISTS -> {
                arrayHeader(out, 3);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                member(r, 0, out);
            }
            case EVAL, EVALSHA -> {
                byte[] script = r.script();
                if (script == null) {
                    throw new IllegalArgumentException("a redis " + c + " request needs its script");
                }
                boolean sha = c == Command.EVALSHA;
                if (sha && scripts.loadBefore(script)) {
                    out.writeBytes(SCRIPT_LOAD);
                    bulk(out, script);
                }
                arrayHeader(out, 5);
                out.writeBytes(RespCommands.bulkVerb(c));
                bulk(out, sha ? scripts.sha(script) : script);
                out.writeBytes(ONE_KEY);
                key(r, 0, out);
                value(r, out);
            }
            case LRANGE, ZRANGE -> {
                boolean byScore = r.byScore() && c == Command.ZRANGE;
                arrayHeader(out, byScore ? 5 : 4);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                rangeBound(out, r.rangeStart(), byScore, MINUS_INF);
                rangeBound(out, r.rangeEnd(), byScore, PLUS_INF);
                if (byScore) {
                    out.writeBytes(BYSCORE);
                }
            }
            case ZADD -> {
                int n = members(r);
                arrayHeader(out, 2 + 2 * n);
                out.writeBytes(RespCommands.bulkVerb(c));
                key(r, 0, out);
                for (int i = 0; i < n; i++) {
                    bulkLong(out, r.numeric());
                    member(r, i, out);
                }
            }
            case PING, FLUSH -> {
                arrayHeader(out, 1);
                out.writeBytes(RespCommands.bulkVerb(c));
            }
            case COMMAND -> encodeTemplate(r, out);
            default -> throw new IllegalArgumentException("redis cannot encode " + c);
        }
    }

    /** An end of a range: the number, or by score an open end ({@link Request#UNBOUNDED}) as -inf or +inf. */
    private static void rangeBound(ByteBuf out, long v, boolean byScore, byte[] infinity) {
        if (byScore && v == Request.UNBOUNDED) {
            out.writeBytes(infinity);
        } else {
            bulkLong(out, v);
        }
    }

    /** How many fields or members the request names: its members, or its key alone. */
    private static int members(Request r) {
        return Math.max(1, r.memberCount());
    }

    /** Member i as a bulk string; the key itself for a request without members. */
    private static void member(Request r, int i, ByteBuf out) {
        if (r.memberCount() == 0) {
            key(r, 0, out);
        } else {
            bulk(out, r.memberBytes(), r.memberOffset(i), r.memberLength(i));
        }
    }

    private static void writeMembers(Request r, int n, ByteBuf out) {
        for (int i = 0; i < n; i++) {
            member(r, i, out);
        }
    }

    private static void keyCommand(Command c, Request r, ByteBuf out) {
        arrayHeader(out, 2);
        out.writeBytes(RespCommands.bulkVerb(c));
        key(r, 0, out);
    }

    private static void keysCommand(byte[] bulkVerb, Request r, ByteBuf out) {
        int keys = Math.max(1, r.keyCount());
        arrayHeader(out, 1 + keys);
        out.writeBytes(bulkVerb);
        for (int i = 0; i < keys; i++) {
            key(r, i, out);
        }
    }

    private static void encodeArgs(Request r, ByteBuf out) {
        int n = r.argCount();
        arrayHeader(out, n);
        byte[] b = r.argBytes();
        for (int i = 0; i < n; i++) {
            bulk(out, b, r.argOffset(i), r.argLength(i));
        }
    }

    /** The template's words with __key__, __data__ and __counter__ expanded in place. */
    private static void encodeTemplate(Request r, ByteBuf out) {
        CommandTemplate t = r.template();
        if (t == null) {
            throw new IllegalArgumentException("a redis COMMAND request needs a template or arguments");
        }
        List<List<CommandTemplate.Part>> words = t.words();
        int n = words.size();
        arrayHeader(out, n);
        int keyLength = r.keyCount() > 0 ? r.keyLength(0) : 0;
        int valueLength = r.value() != null ? r.valueLength() : 0;
        for (int w = 0; w < n; w++) {
            List<CommandTemplate.Part> parts = words.get(w);
            int size = parts.size();
            long length = 0;
            for (int i = 0; i < size; i++) {
                CommandTemplate.Part p = parts.get(i);
                if (p instanceof CommandTemplate.Literal l) {
                    length += l.bytes().length;
                } else if (p instanceof CommandTemplate.Key) {
                    length += keyLength;
                } else if (p instanceof CommandTemplate.Data) {
                    length += valueLength;
                } else {
                    length += decimalLength(r.numeric());
                }
            }
            out.writeByte('$');
            Ascii.writeLong(out, length);
            out.writeShort(CRLF);
            for (int i = 0; i < size; i++) {
                CommandTemplate.Part p = parts.get(i);
                if (p instanceof CommandTemplate.Literal l) {
                    out.writeBytes(l.bytes());
                } else if (p instanceof CommandTemplate.Key) {
                    if (keyLength > 0) {
                        out.writeBytes(r.keyBytes(), r.keyOffset(0), keyLength);
                    }
                } else if (p instanceof CommandTemplate.Data) {
                    if (valueLength > 0) {
                        out.writeBytes(r.value(), r.valueOffset(), valueLength);
                    }
                } else {
                    Ascii.writeLong(out, r.numeric());
                }
            }
            out.writeShort(CRLF);
        }
    }

    private static void arrayHeader(ByteBuf out, int n) {
        if (n < ARRAY_HEADER.length) {
            out.writeBytes(ARRAY_HEADER[n]);
        } else {
            out.writeByte('*');
            Ascii.writeLong(out, n);
            out.writeShort(CRLF);
        }
    }

    private static void key(Request r, int i, ByteBuf out) {
        if (i >= r.keyCount()) {
            out.writeBytes(EMPTY_BULK);
        } else {
            bulk(out, r.keyBytes(), r.keyOffset(i), r.keyLength(i));
        }
    }

    private static void value(Request r, ByteBuf out) {
        if (r.value() == null) {
            out.writeBytes(EMPTY_BULK);
        } else {
            bulk(out, r.value(), r.valueOffset(), r.valueLength());
        }
    }

    private static void bulk(ByteBuf out, byte[] b) {
        bulk(out, b, 0, b.length);
    }

    private static void bulk(ByteBuf out, byte[] b, int offset, int length) {
        out.writeByte('$');
        Ascii.writeLong(out, length);
        out.writeShort(CRLF);
        out.writeBytes(b, offset, length);
        out.writeShort(CRLF);
    }

    /** A number as a bulk string: {@code $2\r\n42\r\n}. */
    private static void bulkLong(ByteBuf out, long v) {
        out.writeByte('$');
        Ascii.writeLong(out, decimalLength(v));
        out.writeShort(CRLF);
        Ascii.writeLong(out, v);
        out.writeShort(CRLF);
    }

    static int decimalLength(long v) {
        if (v == Long.MIN_VALUE) {
            return 20;
        }
        int n = v < 0 ? 2 : 1;
        for (long x = Math.abs(v); x >= 10; x /= 10) {
            n++;
        }
        return n;
    }

    // ---- replies ----

    @Override
    public int decode(ByteBuf in, Request r) throws ProtocolException {
        if (followUps > 0) {
            return decodeFollowUps(in, r);
        }
        if (clusterNode && r.redirectOnce() && !askingAnswered) {
            // ASKING went first (see encode): its reply comes before any other
            try {
                if (!decoder.decode(in, RespSink.IGNORE)) {
                    return NEED_MORE;
                }
            } catch (ProtocolException e) {
                decoder.reset();
                throw new ProtocolException(e.getMessage() + " (reply to ASKING before " + r + ")");
            }
            askingAnswered = true;
        }
        if (scripts.loadReplyDue()) {
            boolean loaded;
            try {
                loaded = decoder.decode(in, loadReply);
            } catch (ProtocolException e) {
                decoder.reset();
                throw new ProtocolException(e.getMessage() + " (reply to SCRIPT LOAD before " + r + ")");
            }
            if (!loaded) {
                return NEED_MORE;
            }
            scripts.loadReplyRead(loadReply.error != null);
            loadReply.error = null;
        }
        boolean complete;
        try {
            if (!decoder.inFrame()) {
                shape.clear();
            }
            complete = decoder.decode(in, shape);
        } catch (ProtocolException e) {
            decoder.reset();
            askingAnswered = false;
            throw new ProtocolException(e.getMessage() + " (reply to " + r + ")");
        }
        if (!complete) {
            return NEED_MORE;
        }
        askingAnswered = false;
        boolean loadFailed = scripts.received();
        int outcome = shape.redirected ? REDIRECTED
                : loadFailed ? Outcome.ERROR.ordinal() : shape.outcome(effectiveCommand(r)).ordinal();
        if (r.argCount() == 0) {
            trimDue = trims(r);
            followUps = (trimDue ? 1 : 0) + (expires(r) ? 1 : 0);
            if (followUps > 0) {
                mainOutcome = outcome;
                return decodeFollowUps(in, r);
            }
        }
        return outcome;
    }

    /**
     * The replies to the LTRIM and EXPIRE that followed a request (see encode): the request's
     * outcome stands unless the trim failed, which makes it an error; the EXPIRE's reply does not
     * count, as in rpc-perf.
     */
    private int decodeFollowUps(ByteBuf in, Request r) throws ProtocolException {
        while (followUps > 0) {
            boolean complete;
            try {
                complete = decoder.decode(in, followUpReply);
            } catch (ProtocolException e) {
                decoder.reset();
                followUps = 0;
                followUpReply.error = null;
                throw new ProtocolException(e.getMessage() + " (reply to the " + (trimDue ? "LTRIM" : "EXPIRE")
                        + " after " + r + ")");
            }
            if (!complete) {
                return NEED_MORE;
            }
            if (trimDue && followUpReply.error != null && mainOutcome != REDIRECTED) {
                mainOutcome = Outcome.ERROR.ordinal();
            }
            trimDue = false;
            followUpReply.error = null;
            followUps--;
        }
        return mainOutcome;
    }

    /** A push that keeps its list at most so long: an LTRIM follows it. */
    private static boolean trims(Request r) {
        return r.truncate() > 0 && r.command().takesTruncate();
    }

    /** A write into a hash, list, set or sorted set with a ttl: an EXPIRE … NX follows it. */
    private static boolean expires(Request r) {
        return r.ttlSeconds() > 0 && EXPIRE_AFTER[r.command().ordinal()];
    }

    /**
     * The scripts this connection's EVALSHAs have loaded, and which request's reply follows a
     * SCRIPT LOAD reply. Requests are answered in the order they were written, so a count of
     * those written and of those answered tells which reply is which. At most one entry per
     * script: a run has a handful.
     */
    private static final class Scripts {
        long sent;
        private long received;
        private byte[][] bodies = new byte[0][];
        private byte[][] shas = new byte[0][];
        /** The numbers (in {@link #sent} order) of the requests written right after a SCRIPT LOAD. */
        private long[] loadsBefore = new long[0];
        private int nextLoad;
        private boolean loadRead;
        private boolean loadFailed;

        /** Whether {@code script} must be loaded before the request now being written; it is then loaded. */
        boolean loadBefore(byte[] script) {
            for (byte[] b : bodies) {
                if (b == script) {
                    return false;
                }
            }
            int n = bodies.length;
            bodies = Arrays.copyOf(bodies, n + 1);
            shas = Arrays.copyOf(shas, n + 1);
            loadsBefore = Arrays.copyOf(loadsBefore, n + 1);
            bodies[n] = script;
            shas[n] = sha1Hex(script);
            loadsBefore[n] = sent;
            return true;
        }

        /** The hex SHA-1 redis names {@code script} by; it was loaded by {@link #loadBefore} on this connection. */
        byte[] sha(byte[] script) {
            for (int i = 0; i < bodies.length; i++) {
                if (bodies[i] == script) {
                    return shas[i];
                }
            }
            throw new IllegalStateException("script not loaded on this connection");
        }

        /** The next reply is a SCRIPT LOAD's, not yet read. */
        boolean loadReplyDue() {
            return nextLoad < loadsBefore.length && loadsBefore[nextLoad] == received && !loadRead;
        }

        void loadReplyRead(boolean failed) {
            loadRead = true;
            loadFailed = failed;
        }

        /** A request's reply was read; returns whether the SCRIPT LOAD before it failed. */
        boolean received() {
            boolean failed = false;
            if (loadRead) {
                failed = loadFailed;
                loadRead = false;
                loadFailed = false;
                nextLoad++;
            }
            received++;
            return failed;
        }

        private static byte[] sha1Hex(byte[] script) {
            try {
                byte[] d = MessageDigest.getInstance("SHA-1").digest(script);
                StringBuilder hex = new StringBuilder(40);
                for (byte b : d) {
                    hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
                }
                return bytes(hex.toString());
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-1 is missing from this Java", e);
            }
        }
    }

    /** The command whose reply rules apply: the request's, or that named by its verb word. Null when unknown. */
    static Command effectiveCommand(Request r) {
        if (r.argCount() > 0) {
            return RespCommands.match(r.argBytes(), r.argOffset(0), r.argLength(0));
        }
        Command c = r.command();
        if (c != Command.COMMAND) {
            return c;
        }
        CommandTemplate t = r.template();
        if (t == null) {
            return null;
        }
        List<CommandTemplate.Part> first = t.words().get(0);
        if (first.size() == 1 && first.get(0) instanceof CommandTemplate.Literal l) {
            return RespCommands.match(l.bytes(), 0, l.bytes().length);
        }
        return null;
    }

    /**
     * The shape of the top-level reply, built from the decoder's events: its type, whether it is
     * an error or a nil, and for an aggregate how many direct elements it has and how many of
     * them are nil. Attributes and top-level pushes are skipped.
     */
    private static final class ReplyShape implements RespSink {
        /** Where a cluster node's MOVED or ASK goes; null on a connection to no cluster. */
        private final Redirect redirect;
        /** The reply was a MOVED or ASK (then {@link #redirect} says where). */
        private boolean redirected;
        private int depth;
        /** Depth at which a skipped section (attribute, push) began; -1 when not skipping. */
        private int skipFrom;
        private byte type;
        private boolean nil;
        private boolean zero;
        private long elements;
        private long nilElements;
        /** Direct elements that are the integer 0 (SMISMEMBER's "not a member"). */
        private long zeroElements;

        ReplyShape(Redirect redirect) {
            this.redirect = redirect;
        }

        void clear() {
            redirected = false;
            depth = 0;
            skipFrom = -1;
            type = 0;
            nil = false;
            zero = false;
            elements = 0;
            nilElements = 0;
            zeroElements = 0;
        }

        Outcome outcome(Command c) {
            return RespOutcome.of(c, type, nil, zero, elements, nilElements, zeroElements);
        }

        @Override
        public void scalar(byte t, ByteBuf in, int start, int end) {
            if (skipFrom >= 0) {
                return;
            }
            if (depth == 0) {
                type = t;
                nil = t == '_';
                zero = t == ':' && end - start == 1 && in.getByte(start) == '0';
                if (t == '-' && redirect != null) {
                    redirected = readRedirect(in, start, end);
                }
            } else if (depth == 1) {
                elements++;
                if (t == '_') {
                    nilElements++;
                } else if (t == ':' && end - start == 1 && in.getByte(start) == '0') {
                    zeroElements++;
                }
            }
        }

        /** {@code MOVED 3999 127.0.0.1:6381} or {@code ASK 3999 127.0.0.1:6381} into {@link #redirect}; false for any other error. */
        private boolean readRedirect(ByteBuf in, int start, int end) {
            Redirect.Kind kind = startsWith(in, start, end, MOVED_PREFIX) ? Redirect.Kind.MOVED
                    : startsWith(in, start, end, ASK_PREFIX) ? Redirect.Kind.ASK : null;
            if (kind == null) {
                return false;
            }
            int p = start + (kind == Redirect.Kind.MOVED ? MOVED_PREFIX.length : ASK_PREFIX.length);
            int slot = 0;
            int digits = 0;
            while (p < end && in.getByte(p) >= '0' && in.getByte(p) <= '9' && digits < 6) {
                slot = slot * 10 + (in.getByte(p++) - '0');
                digits++;
            }
            if (digits == 0 || p >= end || in.getByte(p) != ' ' || p + 1 >= end) {
                return false; // not the shape redis sends: an ordinary error
            }
            redirect.set(kind, slot, in, p + 1, end);
            return true;
        }

        private static boolean startsWith(ByteBuf in, int start, int end, byte[] prefix) {
            if (end - start < prefix.length) {
                return false;
            }
            for (int i = 0; i < prefix.length; i++) {
                if (in.getByte(start + i) != prefix[i]) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void nil(byte t) {
            if (skipFrom >= 0) {
                return;
            }
            if (depth == 0) {
                type = t;
                nil = true;
            } else if (depth == 1) {
                elements++;
                nilElements++;
            }
        }

        @Override
        public void aggregateStart(byte t, long count) {
            if (skipFrom < 0) {
                if (t == '|' || (t == '>' && depth == 0)) {
                    skipFrom = depth;
                } else if (depth == 0) {
                    type = t;
                } else if (depth == 1) {
                    elements++;
                }
            }
            depth++;
        }

        @Override
        public void aggregateEnd(byte t) {
            depth--;
            if (skipFrom == depth) {
                skipFrom = -1;
            }
        }
    }
}
