/**
 * memcached's protocols as two plug-ins that share one package, one embedded server and one set of
 * log formats. {@link MemcacheProtocol} is the text protocol (the default protocol of a run that
 * names none) over TCP, Unix sockets or UDP, the last framed by {@code MemcacheUdpFraming}
 * (memcached's 8-byte datagram header); {@link MemcacheBinaryProtocol} sends the same commands
 * framed by 24-byte headers. Per connection, {@code MemcacheTextCodec} and
 * {@code MemcacheBinaryCodec} encode requests and decode their replies in request order: a reply
 * maps to OK, MISS (the command's condition did not hold, or a key was not found) or ERROR, and
 * bytes that cannot answer the oldest request are a {@code ProtocolException}, which puts the
 * connection out of step. The embedded server, which speaks both protocols on one port, is in
 * {@code .target}; the command logs replay reads (memcached's watch output, a raw text stream,
 * twemcache's klog) are in {@code .log}. It imports no other protocol's package.
 */
package io.fluxperf.engine.protocol.memcache;
