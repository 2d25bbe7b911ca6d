package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link DurationParser} and {@link ValueSizeParser}, which the CLI may use as converters too. */
class ParsersTest {

    @ParameterizedTest
    @CsvSource({
        "60, PT60S",
        "0.5, PT0.5S",
        "250ms, PT0.25S",
        "2s, PT2S",
        "1.5m, PT1M30S",
        "2h, PT2H",
        "10us, PT0.00001S",
        "10µs, PT0.00001S",
        "7ns, PT0.000000007S",
        "' 3 s ', PT3S",
        "-1s, PT-1S",
        "1e3ms, PT1S",
        "0, PT0S",
    })
    void durations(String text, String iso) {
        assertEquals(Duration.parse(iso), DurationParser.parse(text));
    }

    @Test
    void badDurations() {
        assertEquals("'abc' is not a duration; write seconds (60, 0.5) or a number with a unit (250ms, 2s, 1m)",
                assertThrows(IllegalArgumentException.class, () -> DurationParser.parse("abc")).getMessage());
        assertEquals("'5d' is not a duration; write seconds (60, 0.5) or a number with a unit (250ms, 2s, 1m)",
                assertThrows(IllegalArgumentException.class, () -> DurationParser.parse("5d")).getMessage());
        assertEquals("'ms' is not a duration; write seconds (60, 0.5) or a number with a unit (250ms, 2s, 1m)",
                assertThrows(IllegalArgumentException.class, () -> DurationParser.parse("ms")).getMessage());
        assertEquals("'99999999999h' is too long a duration",
                assertThrows(IllegalArgumentException.class, () -> DurationParser.parse("99999999999h")).getMessage());
        assertEquals(Duration.ofMillis(1500), DurationParser.ofSeconds(new BigDecimal("1.5")));
    }

    @ParameterizedTest
    @CsvSource({
        "PT60S, 60s",
        "PT0.25S, 250ms",
        "PT1.5S, 1.5s",
        "PT0.00001S, 10us",
        "PT0.000000007S, 7ns",
        "PT0S, 0s",
        "PT-0.5S, -500ms",
        "PT0.0015S, 0.0015s",
    })
    void formats(String iso, String text) {
        assertEquals(text, DurationParser.format(Duration.parse(iso)));
    }

    @Test
    void valueSizes() {
        assertEquals(ValueSize.fixed(64), ValueSizeParser.parse("64"));
        assertEquals(ValueSize.fixed(1024), ValueSizeParser.parse(" 1_024 "));
        assertEquals(new ValueSize.Range(16, 1024), ValueSizeParser.parse("16..1024"));
        assertEquals(new ValueSize.Range(16, 16), ValueSizeParser.parse("16 .. 16"));
        assertEquals(new ValueSize.Weighted(new int[] {64, 4096}, new int[] {9, 1}), ValueSizeParser.parse("64:9,4096:1"));
        assertEquals(new ValueSize.Weighted(new int[] {64}, new int[] {1}), ValueSizeParser.parse("64:1"));
        // describe() gives back what parse() reads
        for (String text : new String[] {"64", "16..1024", "64:9,4096:1"}) {
            assertEquals(text, ValueSizeParser.parse(text).describe());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''            | '' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
        "abc           | 'abc' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
        "1..           | '1..' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
        "64:9,4096     | '64:9,4096' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
        "64:x          | '64:x' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
        "1.5           | '1.5' is not a value size; write N, MIN..MAX or SIZE:WEIGHT,SIZE:WEIGHT",
        "-1            | a value size must be between 0 and 1048576 bytes, not -1",
        "1048577       | a value size must be between 0 and 1048576 bytes, not 1048577",
        "99999999999999999999 | 99999999999999999999 in '99999999999999999999' is too large",
        "5..1          | the range's min 5 is above its max 1",
        "64:0          | the weights must not all be 0",
        "64:-1         | a weight must be between 0 and 2147483647, not -1",
        "1:2147483647,2:1 | the weights add up to 2147483648, more than 2147483647",
    })
    void badValueSizes(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> ValueSizeParser.parse(text)).getMessage());
    }
}
