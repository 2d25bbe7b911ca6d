/**
 * The embedded memcache server, which answers as memcached 1.6 does, on the target framework of
 * {@code io.fluxperf.engine.target}. {@link MemcacheTargetServer} starts it on TCP (with TLS when
 * given a certificate), a Unix socket and UDP (memcached's frame header). On a stream connection,
 * {@code MemcacheConnectionHandler} frames the text protocol with {@code MemcacheRequestDecoder}
 * (resumable, values copied straight from the reads) and executes it with
 * {@code MemcacheCommandProcessor} (memcached's checks, error texts and {@code noreply}); a first
 * byte of 0x80 hands the connection to {@code MemcacheBinaryConnectionHandler} and
 * {@code MemcacheBinaryProcessor}, which work on the same items. Items live in
 * {@code MemcacheStore}, a memory-bounded, lock-striped LRU of {@code StoreSegment}s holding
 * immutable {@code Item}s; {@code CommandLine} and {@code AsciiNumbers} split lines and read
 * numbers exactly as memcached does, without allocating; {@code MemcacheCounters} and
 * {@code MemcacheServerStats} give the server's {@code TargetStats} and the {@code stats}
 * command's text. Connection state is confined to its event loop. The server is started only
 * through the memcache protocols' target, and depends on the target framework and the protocol
 * SPI, never on another protocol's package.
 */
package io.fluxperf.engine.protocol.memcache.target;
