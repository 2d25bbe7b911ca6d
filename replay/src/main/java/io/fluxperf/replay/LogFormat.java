package io.fluxperf.replay;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The command logs replay reads, by the names {@code --format} takes. */
public enum LogFormat {
    /** {@code redis-cli monitor} output: {@code 1700000000.123456 [0 127.0.0.1:50000] "SET" "k" "v"}. */
    REDIS_MONITOR("redis-monitor", "redis"),
    /** memcached's {@code watch fetchers mutations} output: {@code ts=… gid=… type=item_get key=…}. */
    MEMCACHE_WATCH("memcache-watch", "memcache"),
    /** The bytes a client sent in memcached's text protocol, with an optional sidecar CSV of send times. */
    MEMCACHE_ASCII("memcache-ascii", "memcache"),
    /** twemcache's command log: {@code peer - [09/Jul/2012:18:15:45 -0700] "get key" 0 14}. */
    KLOG("klog", "memcache"),
    /** A fluxperf trace directory (from {@code run --trace} or {@code replay --trace}). */
    TRACE("trace", null);

    private final String label;
    private final String protocol;

    LogFormat(String label, String protocol) {
        this.label = label;
        this.protocol = protocol;
    }

    /** The name {@code --format} takes. */
    public String label() {
        return label;
    }

    /** The protocol its commands are sent with; null for a trace (its header says). */
    public String protocol() {
        return protocol;
    }

    /** The format named {@code text}, or null. */
    public static LogFormat parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (LogFormat f : values()) {
            if (f.label.equals(t)) {
                return f;
            }
        }
        return null;
    }

    public static String labels() {
        return Arrays.stream(values()).map(LogFormat::label).collect(Collectors.joining(", "));
    }
}
