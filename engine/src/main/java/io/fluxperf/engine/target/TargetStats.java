package io.fluxperf.engine.target;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A target server's own counters since it started (a client's {@code stats reset} does not reset
 * these, so that rates computed from two snapshots stay right).
 *
 * @param currentConnections client connections open now
 * @param totalConnections   client connections accepted since start
 * @param commands           commands received, by verb ({@code get}, {@code set}, …, {@code error}
 *                           for unknown or malformed lines), in a stable order
 * @param getHits            keys found by get-like commands
 * @param getMisses          keys not found (or expired) by get-like commands
 * @param bytesIn            bytes read from clients
 * @param bytesOut           bytes of replies written (or held for writing) to clients
 * @param items              items stored now
 * @param bytesStored        bytes the stored items count against the memory limit
 * @param evictions          live items evicted to make room
 */
public record TargetStats(long currentConnections, long totalConnections, Map<String, Long> commands,
                          long getHits, long getMisses, long bytesIn, long bytesOut,
                          long items, long bytesStored, long evictions) {

    public TargetStats {
        commands = Collections.unmodifiableMap(new LinkedHashMap<>(commands));
    }

    /** The count for one verb, 0 if it never came. */
    public long command(String verb) {
        return commands.getOrDefault(verb, 0L);
    }

    public long totalCommands() {
        long sum = 0;
        for (long n : commands.values()) {
            sum += n;
        }
        return sum;
    }

    /** Keys looked up by get-like commands (hits plus misses). */
    public long keysRequested() {
        return getHits + getMisses;
    }
}
