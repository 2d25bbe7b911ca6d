/**
 * Published cache traces as replay logs: Twitter's (twitter/cache-trace, the OSDI'20 paper's week
 * of 54 Twemcache clusters), CSV lines of {@code timestamp,key,key size,value size,client
 * id,operation,TTL}, plain or zstd. The format belongs to no protocol: its operations are
 * memcache's, which the default protocol sends; {@link io.fluxperf.replay.cachetrace.Operations}
 * says what each operation sends with another protocol, by what that protocol speaks, without
 * naming it.
 */
package io.fluxperf.replay.cachetrace;
