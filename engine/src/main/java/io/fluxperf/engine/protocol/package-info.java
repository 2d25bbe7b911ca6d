/**
 * The protocol SPI and its registry: how the engine, the embedded targets and replay know a wire
 * protocol without naming it. A {@link Protocol} is a plug-in (read it first): its name and
 * default port, the protocol-neutral commands it supports, the {@link ProtocolOption}s it reads
 * (given as {@link ProtocolOptions} and checked by the protocol itself once per run, yielding the
 * run's {@link CodecFactory}), its {@link ReplyClasses} for the report, its
 * {@link DatagramFraming} for UDP, its command-log formats and its embedded target.
 * {@link Protocols} is the registry: every protocol listed in
 * {@code META-INF/services/io.fluxperf.engine.protocol.Protocol}, found through
 * {@link java.util.ServiceLoader}, in the file's order. Each connection gets its own
 * {@link ProtocolCodec}, which encodes requests into the wire's buffer and decodes replies in
 * request order; bytes that cannot be a reply are a {@link ProtocolException}, a refused handshake
 * a {@link HandshakeRefused}. {@link Ascii} and {@link RequestKeys} are helpers that codecs share.
 * This package names no concrete protocol; each lives in a package
 * {@code io.fluxperf.engine.protocol.NAME} of its own with its codec, options, reply classes,
 * framing, embedded target ({@code .target}) and log formats ({@code .log}); protocol packages do
 * not import each other, and nothing outside them names one. A new protocol is one new package and
 * one line in the services file.
 */
package io.fluxperf.engine.protocol;
