package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.log.capture.CaptureFormat;
import io.fluxperf.engine.log.capture.Endpoint;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A command log opened to be read outside a replay ({@code profile}): its format, told from the
 * content as replay tells it, the protocol its commands belong to, and readers of it through the
 * same {@link LogReader}s a replay uses. Nothing is sent.
 */
public final class ReadableLog {
    private final Path path;
    private final LogFormat format;
    private final Protocol protocol;
    private final LogFormat.PreparedLog prepared;

    private ReadableLog(Path path, LogFormat format, Protocol protocol, LogFormat.PreparedLog prepared) {
        this.path = path;
        this.format = format;
        this.protocol = protocol;
        this.prepared = prepared;
    }

    /**
     * Opens {@code log}: a file or a trace directory.
     *
     * @param format null: told from the content
     * @throws UserError when it is missing, of no known format, or unreadable, naming it
     */
    public static ReadableLog open(Path log, LogFormat format) {
        return open(log, format, List.of());
    }

    /**
     * Opens {@code log}; of a packet capture, the traffic to {@code captureServers} ({@code HOST:PORT},
     * as replay's {@code --capture-server}; empty: its only server), the protocol told from its clients.
     *
     * @throws UserError as {@link #open(Path, LogFormat)}, and when servers are named for a log that is
     *                   no capture, or a capture's server is not named where it has several
     */
    public static ReadableLog open(Path log, LogFormat format, List<String> captureServers) {
        if (!Files.exists(log)) {
            throw new UserError(log + ": no such file or directory");
        }
        LogFormat f = format;
        if (f == null) {
            f = FormatDetector.detect(log);
        } else {
            FormatDetector.checkText(log, f);
            if (f == TraceFormat.INSTANCE && !Files.isDirectory(log)) {
                throw new UserError("--format trace: " + log + " is a file; a trace is a directory");
            }
        }
        if (!captureServers.isEmpty() && f != CaptureFormat.INSTANCE) {
            throw new UserError(CaptureFormat.SERVER_FLAG + ": picks servers of a packet capture, and " + log + " is "
                    + f.label());
        }
        LogFormat.PreparedLog prepared;
        String name;
        if (f == CaptureFormat.INSTANCE) {
            // a capture's protocol is told from its clients' first bytes, as replay tells it
            CaptureFormat.Prepared capture = CaptureFormat.INSTANCE.prepare(log,
                    captureServers.stream().map(s -> Endpoint.parse(s, CaptureFormat.SERVER_FLAG)).toList(), null);
            prepared = capture;
            name = capture.protocol();
        } else {
            Protocol own = LogFormats.protocolOf(f);
            name = own != null ? own.name() : TraceLogReader.protocol(log);
            prepared = null;
        }
        Protocol protocol = name == null ? Protocols.defaultProtocol() : Protocols.find(name);
        if (protocol == null) {
            throw new UserError(log + ": unknown protocol '" + name + "'; expected one of " + Protocols.names());
        }
        return new ReadableLog(log, f, protocol, prepared != null ? prepared : f.prepare(log, null));
    }

    public Path path() {
        return path;
    }

    public LogFormat format() {
        return format;
    }

    /** The protocol the log's commands belong to (a trace's header names it). */
    public Protocol protocol() {
        return protocol;
    }

    /** What the format says about how it was read (e.g. spread timestamps). */
    public List<String> notes() {
        return prepared.notes();
    }

    /** "zstd" or "gzip" for a compressed file; empty otherwise. */
    public String compression() {
        if (Files.isDirectory(path)) {
            return "";
        }
        try (LogInput in = LogInput.open(path)) {
            return in.compression() == LogInput.Compression.NONE ? "" : in.compression().label();
        }
    }

    /** A context for readers of this log: every command (flushes too), keys as logged. */
    public ReaderContext context(BadLines bad, VerbTable verbs, LogStats stats) {
        return new ReaderContext(path.toString(), bad, verbs, stats, null, true, protocol.name(), protocol::supports);
    }

    /** A new reader at the log's start. */
    public LogReader reader(ReaderContext ctx) {
        return prepared.open(ctx);
    }
}
