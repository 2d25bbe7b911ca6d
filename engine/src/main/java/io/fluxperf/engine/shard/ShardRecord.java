package io.fluxperf.engine.shard;

/**
 * What a sharded run's agent records about itself in its result.json ({@code "shard"}): which
 * shard of how many, of which run, when its schedule started, and its readings of the server's
 * clock, by which {@code merge} compares the agents' clocks.
 *
 * @param startAt     the schedule's start ({@code --start-at}) in RFC 3339, or null
 * @param serverClock readings of the server's clock when the load started and ended, or null
 *                    when the protocol has no clock or it could not be read
 */
public record ShardRecord(int index, int count, String runId, String startAt, ServerClockReadings serverClock) {

    /** The server's clock read at the load's start and end. */
    public record ServerClockReadings(ClockReading start, ClockReading end) {
    }

    /**
     * One reading: this agent's wall clock halfway through the request, the server's answer, and
     * the round trip (the reading's uncertainty is half of it). All in µs; offset = server − local.
     */
    public record ClockReading(long localEpochMicros, long serverEpochMicros, long roundTripMicros) {
        public long offsetMicros() {
            return serverEpochMicros - localEpochMicros;
        }
    }
}
