package io.fluxperf.cli;

import io.fluxperf.engine.config.DurationParser;
import java.time.Duration;
import picocli.CommandLine;

/** Durations as users type them: 60 (seconds), 0.5, 250ms, 2s, 1m, 10us — the same forms as the config file. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return DurationParser.parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
