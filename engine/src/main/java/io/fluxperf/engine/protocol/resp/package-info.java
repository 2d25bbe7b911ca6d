/**
 * Redis' RESP as a protocol plug-in: RESP2, or RESP3 after {@code HELLO 3}. {@link RespProtocol}
 * registers it and reads {@link RespOptions} (the handshake's {@code --resp}, {@code --user},
 * {@code --password} and {@code --db}). The client side is split by role, per connection:
 * {@code RespCodec} only frames replies with {@link RespReplyDecoder} (a resumable RESP2/RESP3
 * state machine that allocates nothing per frame and pushes values into a {@link RespSink}) and
 * hands each to the part it answers: {@code RespHandshake} (HELLO, AUTH, SELECT, READONLY; a
 * refusal is a {@code HandshakeRefused} that ends the run with one sentence naming the flag),
 * {@code RespRequestEncoder} (what each command sends, as a RESP array of bulk strings; the verbs
 * pre-encoded by {@code RespCommands}, written with {@code RespEncoding}), {@code RespOutcomes}
 * (OK, MISS or ERROR from the shape of the top-level reply alone, {@code RespReplyShape}),
 * {@code RespScripts} (SCRIPT LOAD before an EVALSHA), {@code RespFollowUps} (LTRIM and EXPIRE
 * after a write) and, on a cluster node, {@code cluster.ClusterRedirects} (MOVED, ASK, ASKING).
 * RESP has no UDP framing; its embedded server is in {@code .target} and the MONITOR log format in
 * {@code .log}. It imports no other protocol's package.
 */
package io.fluxperf.engine.protocol.resp;
