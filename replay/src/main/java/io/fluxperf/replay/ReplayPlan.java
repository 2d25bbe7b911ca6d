package io.fluxperf.replay;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.log.capture.CaptureFormat;
import io.fluxperf.engine.log.capture.Endpoint;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import io.fluxperf.engine.request.Command;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a replay will do, decided before it starts: the log's format (told from its content when
 * not given), the protocol, and the commands it holds, from a scan of its first
 * {@value #SCAN_COMMANDS} commands, so that the report has one workload per command (a command
 * first seen later is counted under "other"). The scan also makes an empty log, a log without a
 * single readable command, and (with --strict) an early bad line an error before anything is
 * sent.
 */
final class ReplayPlan {
    static final int SCAN_COMMANDS = 100_000;
    /** Commands the scan reads; lowered by tests that need a bad line past it. */
    static int scanLimit = SCAN_COMMANDS;

    /** The --only filter: verbs by name, aliases included (del = delete). */
    record Only(Set<String> names) {
        boolean accepts(String verb) {
            if (names.contains(verb)) {
                return true;
            }
            Command c = Command.parse(verb);
            if (c == null || c == Command.COMMAND) {
                return false;
            }
            for (String n : names) {
                if (Command.parse(n) == c) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String toString() {
            return String.join(",", names);
        }
    }

    final ReplayOptions options;
    final String name;
    final LogFormat format;
    final Protocol protocol;
    final LogFormat.PreparedLog prepared;
    final Only only;
    /** Verbs to replay, in order of first appearance in the scan. */
    final List<String> verbs;
    /** The scan read the whole log: no command can come that has no workload. */
    final boolean complete;
    final List<String> notes = new ArrayList<>();

    private ReplayPlan(ReplayOptions options, LogFormat format, Protocol protocol, LogFormat.PreparedLog prepared,
                       List<String> verbs, boolean complete) {
        this.options = options;
        this.name = options.log().toString();
        this.format = format;
        this.protocol = protocol;
        this.prepared = prepared;
        this.only = options.only().isEmpty() ? null : new Only(new LinkedHashSet<>(options.only()));
        this.verbs = verbs;
        this.complete = complete;
    }

    static ReplayPlan make(ReplayOptions o) {
        Path log = o.log();
        if (!Files.exists(log)) {
            throw new UserError("--log: " + log + ": no such file or directory");
        }
        LogFormat format = o.format();
        if (format == null) {
            format = FormatDetector.detect(log);
        } else {
            FormatDetector.checkText(log, format);
            if (format == TraceFormat.INSTANCE && !Files.isDirectory(log)) {
                throw new UserError("--format trace: " + log + " is a file; a trace is a directory");
            }
        }
        if (!o.captureServers().isEmpty() && format != CaptureFormat.INSTANCE) {
            throw new UserError(CaptureFormat.SERVER_FLAG + ": picks servers of a packet capture, and " + log + " is "
                    + format.label());
        }
        LogFormat.PreparedLog prepared = null;
        String told = null;
        if (format == CaptureFormat.INSTANCE) {
            // the capture tells its protocol (from its clients' first bytes) unless --protocol names it
            List<Endpoint> servers = o.captureServers().stream().map(s -> Endpoint.parse(s, CaptureFormat.SERVER_FLAG)).toList();
            CaptureFormat.Prepared capture = CaptureFormat.INSTANCE.prepare(log, servers, o.protocol());
            prepared = capture;
            told = capture.protocol();
        }
        Protocol own = LogFormats.protocolOf(format);
        String protocolName = o.protocol() != null ? o.protocol()
                : own != null ? own.name() : told != null ? told : TraceLogReader.protocol(log);
        Protocol protocol = protocolName == null ? Protocols.defaultProtocol() : Protocols.find(protocolName);
        if (protocol == null) {
            throw new UserError((o.protocol() != null ? "--protocol" : log.toString()) + ": unknown protocol '"
                    + protocolName + "'; expected one of " + Protocols.names());
        }
        if (o.times() != null && !format.takesSendTimes()) {
            throw new UserError("--times: only a raw memcache stream (--format memcache-ascii) takes a times file; "
                    + log + " is " + format.label());
        }
        if (prepared == null) {
            prepared = format.prepare(log, o.times());
        }
        ReplayPlan draft = new ReplayPlan(o, format, protocol, prepared, List.of(), false);
        return draft.scan();
    }

    /** A new reader over the log, for one pass. */
    LogReader open(ReaderContext ctx) {
        return prepared.open(ctx);
    }

    ReaderContext context(BadLines bad, VerbTable verbTable, LogStats stats) {
        return context(bad, verbTable, stats, "");
    }

    /** The same with {@code namespace} before the --key-prefix: a --scale copy's keys ({@code s2:}). */
    ReaderContext context(BadLines bad, VerbTable verbTable, LogStats stats, String namespace) {
        String p = namespace + (options.keyPrefix() == null ? "" : options.keyPrefix());
        byte[] prefix = p.isEmpty() ? null : p.getBytes(StandardCharsets.UTF_8);
        return new ReaderContext(name, bad, verbTable, stats, prefix, options.allowFlush(), protocol.name(),
                protocol::supports);
    }

    private ReplayPlan scan() {
        BadLines bad = new BadLines(options.strict());
        VerbTable verbTable = new VerbTable();
        LogStats stats = new LogStats();
        ReaderContext ctx = context(bad, verbTable, stats);
        Set<String> seen = new LinkedHashSet<>();
        Set<String> all = new LinkedHashSet<>();
        long commands = 0;
        long lines;
        boolean eof = false;
        // entries stay "in the window" for a while, so that a later line can still drop one (watch)
        LogEntry[] recent = new LogEntry[4096];
        boolean[] unnoted = new boolean[recent.length];
        try (LogReader reader = open(ctx)) {
            while (commands < scanLimit) {
                int slot = (int) (commands % recent.length);
                LogEntry e = recent[slot];
                if (e == null) {
                    e = recent[slot] = new LogEntry();
                } else if (unnoted[slot]) {
                    note(e, verbTable, seen, all);
                }
                unnoted[slot] = false;
                e.reset();
                if (!reader.next(e)) {
                    eof = true;
                    break;
                }
                unnoted[slot] = true;
                e.inWindow = true;
                commands++;
            }
            lines = reader.lines();
        } catch (IOException e) {
            throw new UserError(name + ": cannot read: " + e.getMessage(), e);
        }
        for (long i = Math.max(0, commands - recent.length); i < commands; i++) {
            int slot = (int) (i % recent.length);
            if (unnoted[slot]) {
                note(recent[slot], verbTable, seen, all);
            }
        }
        if (commands == 0) {
            if (bad.count() > 0) {
                throw new UserError(bad.first().get(0) + " (no line of " + name + " is a " + format.label()
                        + " command: " + bad.count() + " bad line" + (bad.count() == 1 ? "" : "s") + ")");
            }
            if (lines == 0 || stats.skipped().isEmpty()) {
                throw new UserError(name + ": empty log (no commands)");
            }
            throw new UserError(name + ": nothing to replay: none of its " + lines + " lines is a command to send ("
                    + stats.skipped().entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                    .collect(java.util.stream.Collectors.joining("; ")) + ")");
        }
        if (seen.isEmpty() && eof) {
            throw new UserError("--only " + only + ": the log has no such command (it has " + String.join(", ", all) + ")");
        }
        ReplayPlan plan = new ReplayPlan(options, format, protocol, prepared, List.copyOf(seen), eof);
        plan.notes.addAll(prepared.notes());
        return plan;
    }

    private void note(LogEntry e, VerbTable verbTable, Set<String> seen, Set<String> all) {
        if (e.dropped) {
            return;
        }
        String verb = verbTable.name(e.verb);
        all.add(verb);
        if (only == null || only.accepts(verb)) {
            seen.add(verb);
        }
    }

    /** The command each planned verb is accounted as. */
    List<Command> commands() {
        ReaderContext ctx = context(new BadLines(false), new VerbTable(verbs), new LogStats());
        List<Command> out = new ArrayList<>();
        for (int i = 0; i < verbs.size(); i++) {
            out.add(ctx.command(i));
        }
        return out;
    }
}
