/**
 * {@code run}'s generated requests, as {@link io.fluxperf.engine.load.RequestSource}s.
 * {@link GeneratedLoad} gives each load thread its flux: in open loop, request n of a workload is
 * due at {@code start + n / rate} and the threads take every T-th n, so that they interleave
 * evenly and each emits in intended-time order; in closed loop, workloads are picked at random by
 * weight and carry no send time. {@link Preload} writes every key of the workloads that ask for
 * hits once, before measuring. Keys and value sizes are drawn by seeded, allocation-free
 * {@link KeyChooser}s and {@link ValueSizeChooser}s; values are slices of {@link ValuePattern},
 * which differ from key to key and double as the check of what a read returns. Requests come from
 * the thread's pool and are emitted synchronously, one per demand; nothing here touches a
 * connection or names a protocol.
 */
package io.fluxperf.engine.workload;
