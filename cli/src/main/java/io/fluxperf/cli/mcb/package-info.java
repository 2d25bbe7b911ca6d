/**
 * mcb's memcached benchmark in mcb's own terms, for {@code fluxperf mcb} ({@code McbCommand} in
 * {@code io.fluxperf.cli}). {@link McbSettings} checks mcb's options and makes the run they mean:
 * a number of threads, each with one connection of its own and one command in flight, each sending
 * exactly its count of commands (with {@code -s}, each on a new connection); {@link McbTransport}
 * is {@code -T}. {@link McbReport} prints mcb's {@code condition =>} and {@code result =>} blocks
 * with numbers as C's {@code %f} prints them, and {@link ThreadTimes} supplies its per-thread
 * times, keeping the report apart from how the engine exposes them. This package only translates
 * between mcb's words and the engine's; the run itself is the engine's.
 */
package io.fluxperf.cli.mcb;
