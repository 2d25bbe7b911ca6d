/**
 * The protocol-neutral request that sources, connections and recorders hand each other.
 * {@link Request} is pooled and reused, so that the hot path allocates nothing per request: a
 * source fills one from its thread's {@link RequestPool} (whose capacity bounds what is in
 * flight), a connection encodes and sends it, the recorder counts its {@link Outcome}, and it goes
 * back to the pool. {@link Command} is the union of what the protocols speak (each protocol says
 * which it supports; the ordinal is the trace's command code, so new commands are only added at
 * the end), {@link CommandTemplate} is a command or path given as words with placeholders that the
 * codec expands while encoding, and {@link ValueCheck} lets a codec tell a read-back value from
 * the one the run wrote. Nothing here knows a protocol, a connection or a thread.
 */
package io.fluxperf.engine.request;
