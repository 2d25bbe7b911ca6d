package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 46: a rate's bounds, the same for --rate, a workload's rate, ramps and PUT /ratelimit. */
class RateLimitsTest {
    @Test
    void aRateIsAPlainAsciiNumberUpToOneANanosecond() {
        assertEquals(5000, RateLimits.parse("5000"));
        assertEquals(10_000, RateLimits.parse("10_000"));
        assertEquals(2500.5, RateLimits.parse(" 2500.5 "));
        assertEquals(1e9, RateLimits.parse("1e9"));
        assertEquals(0, RateLimits.parse("0"), "0: unlimited, for --rate");
        for (String bad : new String[] {"abc", "0x10", "Infinity", "NaN", "\u0665\u0660\u0660\u0660", "5k", "1,000", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateLimits.parse(bad), bad);
            assertTrue(e.getMessage().endsWith("is not a number"), e.getMessage());
        }
        for (String huge : new String[] {"1000000001", "1e12", "99999999999999999999", "1e400"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RateLimits.parse(huge), huge);
            assertTrue(e.getMessage().startsWith(huge + " is more than a schedule can space"), e.getMessage());
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RateLimits.parse("-5")).getMessage().contains("at least 0"));
    }

    @Test
    void aRateGivesAtLeastOneRequestPerWindow() {
        assertNull(RateLimits.belowOnePerWindow(0.1, "0.1", Duration.ofSeconds(10)));
        assertNull(RateLimits.belowOnePerWindow(1.0 / 60, "x", Duration.ofSeconds(60)), "1/60 as a double is enough");
        assertEquals("0.01 requests/s is less than one request per 10s window; give at least 0.1 requests/s",
                RateLimits.belowOnePerWindow(0.01, "0.01", Duration.ofSeconds(10)));
        assertEquals("1e-9 requests/s is less than one request per 60s window; give at least 0.0167 requests/s",
                RateLimits.belowOnePerWindow(1e-9, "1e-9", Duration.ofSeconds(60)));
        assertNull(RateLimits.belowOnePerWindow(0.0167, "0.0167", Duration.ofSeconds(60)), "the least it names is enough");
        assertNull(RateLimits.belowOnePerWindow(0.334, "0.334", Duration.ofSeconds(3)));
    }

    @Test
    void aRateInAMessageIsReadable() {
        assertEquals("5,000", RateLimits.format(5000));
        assertEquals("0.5", RateLimits.format(0.5));
        assertEquals("0.0167", RateLimits.format(1.0 / 60));
        assertEquals("0.000000001", RateLimits.format(1e-9), "never 0.00");
        assertEquals("2,500.5", RateLimits.format(2500.5));
    }
}
