package io.fluxperf.engine.shard;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.testkit.MemcachedProcess;
import io.fluxperf.testkit.RealServers;
import io.fluxperf.testkit.RedisProcess;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The server's clock as sharded runs read it: redis' TIME agrees with this machine's clock; memcache has none. */
@ExtendWith(RealServers.class)
class ClockReaderTest {
    @Test
    void redisTimeAgreesWithTheLocalClockOnTheSameMachine(RedisProcess redis) {
        ClockReader reader = new ClockReader(Protocols.find("redis").serverClock(),
                new InetSocketAddress("127.0.0.1", redis.port()), Duration.ofSeconds(2));
        ShardRecord.ClockReading r = reader.read();
        assertNotNull(r);
        // one machine, one clock: the offset is within the reading's uncertainty (half the round trip) and a little
        assertTrue(Math.abs(r.offsetMicros()) <= r.roundTripMicros() / 2 + 2_000, r.toString());
    }

    @Test
    void aProtocolWithoutAClockOrAnUnreachableServerGivesNoReading(MemcachedProcess memcached, RedisProcess redis)
            throws Exception {
        assertNull(Protocols.find("memcache").serverClock());
        assertNull(new ClockReader(null, new InetSocketAddress("127.0.0.1", memcached.port()), Duration.ofSeconds(1)).read());
        int port = redis.port();
        redis.close();
        assertNull(new ClockReader(Protocols.find("redis").serverClock(), new InetSocketAddress("127.0.0.1", port),
                Duration.ofMillis(500)).read());
    }
}
