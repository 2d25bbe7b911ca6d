package io.fluxperf.replay;

import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.capture.CaptureFormat;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.replay.cachetrace.CacheTraceFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The logs replay reads: every protocol's formats, in the registry's order, and fluxperf's own traces. */
public final class LogFormats {
    private LogFormats() {
    }

    /** Every format, the protocols' first, then {@code pcap} (packet captures), Twitter's cache traces and {@code trace}. */
    public static List<LogFormat> all() {
        List<LogFormat> all = new ArrayList<>(Protocols.logFormats());
        all.add(CaptureFormat.INSTANCE);
        all.add(CacheTraceFormat.INSTANCE);
        all.add(TraceFormat.INSTANCE);
        return all;
    }

    /** The format {@code --format} names, or null. */
    public static LogFormat parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        return all().stream().filter(f -> f.label().equals(t)).findFirst().orElse(null);
    }

    /** "redis-monitor, memcache-watch, …, trace": for messages and help. */
    public static String labels() {
        return all().stream().map(LogFormat::label).collect(Collectors.joining(", "));
    }

    /**
     * The protocol a format's commands go out with; null for a trace, whose header names it, and for
     * a packet capture, whose clients' bytes tell it. A cache trace's operations are memcache's,
     * which the default protocol speaks.
     */
    static Protocol protocolOf(LogFormat format) {
        if (format == CacheTraceFormat.INSTANCE) {
            return Protocols.defaultProtocol();
        }
        return format == TraceFormat.INSTANCE || format == CaptureFormat.INSTANCE ? null : Protocols.ofLogFormat(format);
    }
}
