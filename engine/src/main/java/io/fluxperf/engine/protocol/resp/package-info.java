/**
 * Redis' RESP as a protocol plug-in: RESP2, or RESP3 after {@code HELLO 3}. {@link RespProtocol}
 * registers it and reads {@link RespOptions} (the handshake's {@code --resp}, {@code --user},
 * {@code --password} and {@code --db}). Per connection, {@code RespCodec} sends every request as a
 * RESP array of bulk strings (the verbs pre-encoded by {@code RespCommands}; a template's or a
 * replayed command's words as given), pipelines the handshake (a refusal is a
 * {@code HandshakeRefused} that ends the run with one sentence naming the flag), and decides OK,
 * MISS or ERROR from the shape of the top-level reply alone, as {@link RespReplyDecoder} frames it
 * into a {@link RespSink}: a resumable RESP2/RESP3 state machine that allocates nothing per frame.
 * The codec's class comment is where what each command sends is written down. RESP has no UDP
 * framing; its embedded server is in {@code .target} and the MONITOR log format in {@code .log}.
 * It imports no other protocol's package.
 */
package io.fluxperf.engine.protocol.resp;
