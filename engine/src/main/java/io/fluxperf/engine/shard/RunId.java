package io.fluxperf.engine.shard;

import io.fluxperf.engine.UserError;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * The name of a sharded run, the directory {@code OUT/RUN_ID} that its agents' run directories
 * ({@code shard-I}) go into. Every agent must arrive at the same one without talking to the
 * others, so the default is made of what they share: the start time and the config hash.
 */
public final class RunId {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private RunId() {
    }

    /**
     * {@code --run-id}'s value, checked; or, without one, {@code run-20261206T030000Z-1a2b3c4d}
     * (the start time and the config hash's first eight digits), or {@code run-1a2b3c4d} without a
     * start time.
     *
     * @param configHash "sha256:…" as the run directory has it
     */
    public static String of(String flag, Instant startAt, String configHash) {
        if (flag != null) {
            if (!VALID.matcher(flag).matches()) {
                throw new UserError("--run-id: '" + flag + "' is not a directory name: use letters, digits, '.', '_'"
                        + " and '-', at most 100, starting with a letter or digit");
            }
            return flag;
        }
        String hex = configHash.substring(configHash.indexOf(':') + 1);
        String hash = hex.substring(0, Math.min(8, hex.length()));
        return startAt == null ? "run-" + hash : "run-" + STAMP.format(startAt) + "-" + hash;
    }

    /** An agent's directory in a sharded run's: {@code shard-I}. */
    public static String shardDirectory(int index) {
        return "shard-" + index;
    }
}
