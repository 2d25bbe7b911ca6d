/**
 * The embedded redis server, which answers as redis 7.0 does for the commands a load test sends
 * and those tools send on connecting, on the target framework of
 * {@code io.fluxperf.engine.target}. {@link RespTargetServer} starts it; per connection,
 * {@code RespConnectionHandler} frames requests with {@code RespRequestDecoder} (multibulk and
 * inline, with redis' limits and error texts) into reused {@code RespArgs}, and
 * {@code RespCommandProcessor} checks and dispatches them with redis' order of checks. The
 * commands are split by data type as redis' sources are: {@code RespStringCommands},
 * {@code RespListCommands}, {@code RespHashCommands}, {@code RespSetCommands},
 * {@code RespSortedSetCommands}, {@code RespKeyCommands} (keys of any type, databases) and
 * {@code RespServerCommands} (connection and server), each acting through the connection's
 * {@code RespClient} (database, protocol, authentication, look-ups with redis' keyspace hit and
 * miss counting); {@code RespFlags} and {@code RespDoubles} read the option words and numbers
 * several commands share. Keys live in {@code RespStore}: sixteen databases in memory-bounded,
 * lock-striped LRU {@code RespSegment}s of typed {@code RespEntry} values, much like redis'
 * {@code allkeys-lru}. {@code RespReplies} writes RESP2, or RESP3 after {@code HELLO 3};
 * {@code RespVerb} holds the known commands and their arities; {@code RespCounters} and
 * {@code RespServerStats} give the server's {@code TargetStats} and {@code INFO}'s text.
 * Connection state is confined to its event loop. The server is started only through the RESP
 * protocol's target, and depends on the target framework and the protocol SPI, never on another
 * protocol's package.
 */
package io.fluxperf.engine.protocol.resp.target;
