/**
 * The redis command log that replay reads, behind the reader SPI of
 * {@code io.fluxperf.engine.log}: {@code redis-cli monitor} output, whose format is
 * {@link RedisMonitorFormat} (listed by the RESP protocol). {@code RedisMonitorReader} unescapes
 * each quoted word byte for byte, names each command's original client so that its commands keep
 * their order on one connection, and skips what must not or cannot be replayed (commands run
 * inside a script, AUTH and HELLO, commands that change what a connection is, flushes unless
 * {@code --allow-flush}); {@code RedisKeys} says which words of a command are keys, for
 * {@code --key-prefix} and for the key a trace record keeps. The reader only parses: pacing,
 * reordering and lanes are replay's.
 */
package io.fluxperf.engine.protocol.resp.log;
