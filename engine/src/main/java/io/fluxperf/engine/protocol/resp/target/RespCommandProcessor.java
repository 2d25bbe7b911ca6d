package io.fluxperf.engine.protocol.resp.target;

import io.fluxperf.engine.protocol.resp.target.RespCounters.Stat;
import io.fluxperf.engine.target.CommandProcessorBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.function.Consumer;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOAUTH;

/**
 * Runs one connection's redis commands, as redis 7.0's {@code processCommand} does: the same
 * checks in the same order (unknown command, arity, authentication), then the command's own, by
 * data type as redis' sources are split ({@link RespStringCommands}, {@link RespListCommands},
 * {@link RespHashCommands}, {@link RespSetCommands}, {@link RespSortedSetCommands}, keys in
 * {@link RespKeyCommands}, connection and server in {@link RespServerCommands}), on the
 * connection's {@link RespClient}. Replies go to the connection's current reply batch, in RESP3
 * types after {@code HELLO 3}. Keyspace hits and misses are counted as redis counts them (read
 * look-ups only: GET, MGET, EXISTS, HGET, HMGET, HGETALL, HEXISTS, LRANGE, LLEN, SMEMBERS,
 * SISMEMBER, SMISMEMBER, ZRANGE, ZRANK, ZSCORE, ZMSCORE, TTL, TYPE).
 *
 * <p>Not implemented, answered with an error: the rest of redis' command set, ZRANGE's BYLEX, users
 * other than {@code default}. Confined to the connection's event loop.
 */
final class RespCommandProcessor extends CommandProcessorBase implements RespRequestDecoder.Sink {
    private final RespClient client;
    private final RespStringCommands strings;
    private final RespKeyCommands keys;
    private final RespHashCommands hashes;
    private final RespListCommands lists;
    private final RespSetCommands sets;
    private final RespSortedSetCommands sortedSets;
    private final RespServerCommands server;

    /**
     * @param requirePass the password of the default user, or null for none (every client is authenticated)
     * @param earlyWriter takes a reply batch that grew past {@link #EARLY_WRITE_BYTES} mid-read
     */
    RespCommandProcessor(RespStore store, RespCounters.Cell counters, RespServerStats stats, ByteBufAllocator alloc,
                         Consumer<ByteBuf> earlyWriter, String requirePass, long clientId) {
        super(alloc, 256, earlyWriter);
        this.client = new RespClient(store, counters, requirePass == null, clientId);
        this.strings = new RespStringCommands(client);
        this.keys = new RespKeyCommands(client);
        this.hashes = new RespHashCommands(client);
        this.lists = new RespListCommands(client);
        this.sets = new RespSetCommands(client);
        this.sortedSets = new RespSortedSetCommands(client);
        this.server = new RespServerCommands(client, stats, requirePass);
    }

    @Override
    public boolean authRequired() {
        return !client.authenticated;
    }

    @Override
    public void onProtocolError(String message) {
        client.begin(out(), now);
        client.error("ERR " + message);
    }

    @Override
    public void onCommand(RespArgs a, RespRequestDecoder decoder) {
        RespClient c = client;
        c.begin(out(), now);
        RespVerb v = RespVerb.of(a);
        if (v == null) {
            c.counters.increment(Stat.UNKNOWN_COMMANDS);
            c.error(unknownCommand(a));
        } else if (!v.arityOk(a.count())) {
            c.counters.rejected(v);
            c.error("ERR wrong number of arguments for '" + v.label + "' command");
        } else if (!c.authenticated && v != RespVerb.AUTH && v != RespVerb.HELLO && v != RespVerb.QUIT) {
            c.counters.rejected(v);
            c.error(NOAUTH);
        } else {
            c.counters.call(v);
            c.counters.increment(Stat.TOTAL_COMMANDS_PROCESSED);
            execute(v, a, decoder);
            if (c.failed) {
                c.counters.failed(v);
            }
        }
        if (a.count() > 1) {
            served(a.bytes, a.start(1), a.length(1));
        } else {
            served(a.bytes, 0, 0);
        }
        writeEarlyIfLarge();
    }

    private static String unknownCommand(RespArgs a) {
        StringBuilder args = new StringBuilder();
        for (int i = 1; i < a.count() && args.length() < 128; i++) {
            args.append('\'').append(a.text(i, 128 - args.length())).append("' ");
        }
        String verb = a.text(0, 128);
        return ("ERR unknown command '" + verb + "', with args beginning with: " + args).replace('\r', ' ').replace('\n', ' ');
    }

    private void execute(RespVerb v, RespArgs a, RespRequestDecoder decoder) {
        switch (v) {
            case GET -> strings.get(a);
            case SET -> strings.set(a);
            case INCR -> strings.incrBy(a, 1, false);
            case DECR -> strings.incrBy(a, -1, false);
            case INCRBY -> strings.incrBy(a, 1, true);
            case DECRBY -> strings.incrBy(a, -1, true);
            case MGET -> strings.mget(a);
            case MSET -> strings.mset(a);
            case DEL -> keys.del(a);
            case EXISTS -> keys.exists(a);
            case EXPIRE -> keys.expire(a);
            case TTL -> keys.ttl(a);
            case TYPE -> keys.type(a);
            case DBSIZE -> keys.dbsize();
            case FLUSHALL, FLUSHDB -> keys.flush(a, v == RespVerb.FLUSHALL);
            case HGET -> hashes.hget(a);
            case HSET -> hashes.hset(a);
            case HGETALL -> hashes.hgetall(a);
            case HDEL -> hashes.hdel(a);
            case HMGET -> hashes.hmget(a);
            case HINCRBY -> hashes.hincrby(a);
            case HEXISTS -> hashes.hexists(a);
            case LPUSH -> lists.push(a, true);
            case RPUSH -> lists.push(a, false);
            case LPOP -> lists.pop(a, true);
            case RPOP -> lists.pop(a, false);
            case LRANGE -> lists.lrange(a);
            case LLEN -> lists.llen(a);
            case LTRIM -> lists.ltrim(a);
            case SADD -> sets.sadd(a);
            case SREM -> sets.srem(a);
            case SMEMBERS -> sets.smembers(a);
            case SISMEMBER -> sets.sismember(a, false);
            case SMISMEMBER -> sets.sismember(a, true);
            case ZADD -> sortedSets.zadd(a);
            case ZINCRBY -> sortedSets.zincrby(a);
            case ZRANGE -> sortedSets.zrange(a);
            case ZREM -> sortedSets.zrem(a);
            case ZSCORE -> sortedSets.zscore(a, false);
            case ZMSCORE -> sortedSets.zscore(a, true);
            case ZRANK -> sortedSets.zrank(a);
            case PING -> server.ping(a);
            case ECHO -> server.echo(a);
            case AUTH -> server.auth(a);
            case SELECT -> server.select(a);
            case HELLO -> server.hello(a);
            case INFO -> server.info(a);
            case COMMAND -> server.command();
            case CONFIG -> server.config(a);
            case QUIT -> {
                client.out().writeBytes(RespReplies.OK);
                decoder.stop(); // the connection closes once the replies so far are written
            }
            default -> throw new IllegalStateException("no handler for " + v);
        }
    }
}
