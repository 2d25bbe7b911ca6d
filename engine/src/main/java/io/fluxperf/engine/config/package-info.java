/**
 * What shapes a run, as the user states it, checked once where it enters. {@link Settings}
 * declares each setting once ({@link Setting}: flag, key, type and check, default, docs row);
 * {@link ConfigResolver} (read it next) merges the command line ({@link Flags}, made by the cli
 * from those declarations) over a TOML file by rpc-perf's rules (a flag wins over the file) into one
 * immutable {@link RunConfig} with its {@link WorkloadConfig}s, {@link KeyspaceConfig}s,
 * {@link ValueSize}s and {@link ConnectionOptions}; {@link DurationParser} and
 * {@link ValueSizeParser} read the forms users type, the same on a flag and in the file. Every
 * problem becomes a {@link io.fluxperf.engine.UserError} that names its place: the flag,
 * {@code FILE:LINE:COL} for TOML syntax, or the key path with its line; the checks that flags and
 * file share sit in one place ({@code Checks}) so that both say the same thing. A protocol's own
 * options are carried here unread, as {@link io.fluxperf.engine.protocol.ProtocolOptions}: what
 * their values mean is the protocol's to check. Outputs (JSON, HdrHistogram log, trace) are not
 * part of a config. This package only describes a run: it opens no socket, starts no thread and
 * names no concrete protocol.
 */
package io.fluxperf.engine.config;
