/**
 * The memcache command logs that replay reads, behind the reader SPI of
 * {@code io.fluxperf.engine.log}. {@link MemcacheLogFormats} lists them for the memcache protocol:
 * memcached's {@code watch} output ({@code MemcacheWatchReader}: lines put back in the order
 * memcached logged them, keys URI-decoded, the fetch inside a store dropped), a raw text protocol
 * stream as a client sent it ({@code MemcacheAsciiReader}: logged values sent byte for byte, send
 * times from a sidecar CSV read by {@code SendTimes}), and twemcache's klog ({@code KlogReader}:
 * one-second timestamps spread evenly over their second, from a first pass that counts each
 * second). Each reader turns its lines into reused log entries that carry the protocol-neutral
 * command ({@code MemcacheVerbs}), with values synthesised where the log gives only their size.
 * The readers only parse: pacing, reordering and lanes are replay's.
 */
package io.fluxperf.engine.protocol.memcache.log;
