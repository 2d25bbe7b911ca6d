package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogFormat;
import io.fluxperf.engine.log.LogInput;
import io.fluxperf.engine.log.LogReader;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.Protocols;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A packet capture (pcap or pcapng, as tcpdump and Wireshark write them; plain, gzip or zstd) as a
 * replay log. It belongs to no protocol: the protocol is told from the first bytes the clients
 * sent (or given), and each protocol reads its own connections ({@link CaptureProtocol}).
 * {@link #prepare(Path, List, String)} scans the file once ({@link CaptureScan}) to check it, to
 * pick the server whose traffic is replayed and to tell its protocol.
 */
public final class CaptureFormat implements LogFormat {
    public static final CaptureFormat INSTANCE = new CaptureFormat();
    /** The flag that picks servers, for messages. */
    public static final String SERVER_FLAG = "--capture-server";

    private CaptureFormat() {
    }

    @Override
    public String label() {
        return "pcap";
    }

    /** A capture is binary: it is told by its magic number before any line is read. */
    @Override
    public boolean recognizes(String firstLine) {
        return false;
    }

    @Override
    public boolean binary() {
        return true;
    }

    /**
     * Commands come out of a capture in the order their replies complete, which differs from the
     * order they were sent by no more than the commands in flight at once.
     */
    @Override
    public int readAhead() {
        return 16_384;
    }

    /** The readings of every registered protocol that can be read from a capture. */
    static List<CaptureProtocol> readings() {
        List<CaptureProtocol> out = new ArrayList<>();
        for (Protocol p : Protocols.all()) {
            CaptureProtocol c = p.capture();
            if (c != null && !out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The capture's only server, its protocol told from its traffic. */
    @Override
    public PreparedLog prepare(Path log, Path sendTimes) {
        return prepare(log, List.of(), null);
    }

    /**
     * Readies a replay of the capture's traffic to {@code servers} (empty: its only server) with
     * {@code protocol} (null: told from the clients' first bytes).
     *
     * @throws UserError when the file is no capture or is damaged, when a server it names is not in
     *                   the capture, when the capture has several servers and none was named (the
     *                   sentence lists them with their command counts), or when the protocol cannot be told
     */
    public Prepared prepare(Path log, List<Endpoint> servers, String protocol) {
        String name = log.toString();
        List<CaptureProtocol> readings = readings();
        CaptureProtocol forced = null;
        if (protocol != null) {
            for (CaptureProtocol c : readings) {
                if (c.protocols().contains(protocol)) {
                    forced = c;
                }
            }
            if (forced == null) {
                throw new UserError("--protocol " + protocol + ": fluxperf does not read " + protocol
                        + " from a packet capture; it reads " + readings.stream().flatMap(c -> c.protocols().stream())
                        .collect(Collectors.joining(", ")));
            }
        }
        CaptureScan scan = CaptureScan.of(log, name, readings);
        List<CaptureScan.Server> candidates = scan.serversWithRequests();
        List<CaptureScan.Server> chosen = new ArrayList<>();
        if (!servers.isEmpty()) {
            for (Endpoint e : servers) {
                CaptureScan.Server s = scan.servers.get(e);
                if (s == null || s.requestBytes == 0) {
                    throw new UserError(SERVER_FLAG + " " + e + ": " + name + " holds no request to it"
                            + (candidates.isEmpty() ? "" : "; its servers are " + list(candidates, null)));
                }
                if (!chosen.contains(s)) {
                    chosen.add(s);
                }
            }
        } else {
            if (candidates.isEmpty()) {
                throw new UserError(String.format(Locale.ROOT, "%s: the capture holds no TCP connection that carries a"
                        + " request (%,d packets, %,d of them TCP)", name, scan.packets, scan.tcpPackets));
            }
            List<CaptureScan.Server> known = forced != null ? candidates
                    : candidates.stream().filter(s -> s.protocol() != null).toList();
            if (known.isEmpty()) {
                throw new UserError(name + ": the requests to " + list(candidates, null) + " are none of the protocols"
                        + " fluxperf reads from a capture (" + names(readings) + "); name it with --protocol");
            }
            if (known.size() > 1) {
                long[] counts = countCommands(log, name, known, forced);
                throw new UserError(name + ": the capture holds requests to " + known.size() + " servers: "
                        + list(known, counts) + "; pick one with " + SERVER_FLAG + " HOST:PORT (repeatable)");
            }
            chosen.addAll(known);
        }
        CaptureProtocol reading = forced;
        Set<String> recognized = new LinkedHashSet<>();
        if (reading == null) {
            for (CaptureScan.Server s : chosen) {
                CaptureProtocol p = s.protocol();
                if (p == null) {
                    throw new UserError(SERVER_FLAG + " " + s.endpoint + ": the requests to it are none of the protocols"
                            + " fluxperf reads from a capture (" + names(readings) + "); name it with --protocol");
                }
                if (reading != null && reading != p) {
                    throw new UserError(SERVER_FLAG + ": the servers named speak different protocols (" + s.endpoint
                            + " speaks " + p.protocols().get(0) + ", another " + reading.protocols().get(0)
                            + "); replay them one at a time");
                }
                reading = p;
                recognized.addAll(s.names(p));
            }
        }
        String replayProtocol = protocol != null ? protocol : reading.replayProtocol(recognized);
        List<CaptureProtocol> perServer = new ArrayList<>();
        List<Endpoint> endpoints = new ArrayList<>();
        for (CaptureScan.Server s : chosen) {
            endpoints.add(s.endpoint);
            perServer.add(reading);
        }
        CaptureSelection selection = new CaptureSelection(endpoints, perServer);
        return new Prepared(log, selection, replayProtocol, notes(scan, chosen));
    }

    private static String names(List<CaptureProtocol> readings) {
        return readings.stream().flatMap(c -> c.protocols().stream()).collect(Collectors.joining(", "));
    }

    private static String list(List<CaptureScan.Server> servers, long[] commands) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            CaptureScan.Server s = servers.get(i);
            parts.add(commands != null ? String.format(Locale.ROOT, "%s (%,d command%s)", s.endpoint, commands[i],
                    commands[i] == 1 ? "" : "s")
                    : String.format(Locale.ROOT, "%s (%,d connection%s)", s.endpoint, s.connections,
                    s.connections == 1 ? "" : "s"));
        }
        return String.join(", ", parts);
    }

    /** Commands of each server, read as a replay would read them (for the message that lists them). */
    private static long[] countCommands(Path log, String name, List<CaptureScan.Server> servers, CaptureProtocol forced) {
        List<Endpoint> endpoints = new ArrayList<>();
        List<CaptureProtocol> protocols = new ArrayList<>();
        for (CaptureScan.Server s : servers) {
            endpoints.add(s.endpoint);
            protocols.add(forced != null ? forced : s.protocol());
        }
        ReaderContext ctx = new ReaderContext(name, new BadLines(false), new VerbTable(), new LogStats(), null, true,
                protocols.get(0).protocols().get(0), c -> true);
        try (CaptureReader reader = new CaptureReader(LogInput.open(log), ctx, new CaptureSelection(endpoints, protocols))) {
            LogEntry e = new LogEntry();
            while (reader.next(e.reset())) {
                // counted by the reader, per server
            }
            return reader.commandsPerServer().clone();
        } catch (IOException e) {
            throw new UserError(name + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static List<String> notes(CaptureScan scan, List<CaptureScan.Server> chosen) {
        List<String> notes = new ArrayList<>();
        String links = scan.linkTypes.stream().map(PacketDecoder::linkName).distinct().collect(Collectors.joining(", "));
        notes.add(String.format(Locale.ROOT, "%s%s, %s, snap length %,d bytes: %,d packets over %.3f s",
                scan.kind.label(), scan.nanosecondTimestamps ? " (nanosecond timestamps)" : "", links.isEmpty() ? "no packets" : links,
                scan.snapLength, scan.packets, scan.seconds()));
        for (CaptureScan.Server s : chosen) {
            notes.add(String.format(Locale.ROOT, "%,d connection%s to %s%s, each replayed as one original client",
                    s.connections, s.connections == 1 ? "" : "s", s.endpoint,
                    s.openBefore > 0 ? String.format(Locale.ROOT, " (%,d open before the capture began)", s.openBefore) : ""));
        }
        if (scan.cutPackets > 0) {
            notes.add(String.format(Locale.ROOT, "%,d packets cut by the snap length", scan.cutPackets));
        }
        if (scan.fragments > 0 || scan.headersCut > 0) {
            notes.add(String.format(Locale.ROOT, "%,d IP fragments and %,d packets whose headers the snap length cut are"
                    + " not read (their bytes are gaps)", scan.fragments, scan.headersCut));
        }
        notes.add("the server's replies in the capture give each command's original outcome");
        return notes;
    }

    @Override
    public String toString() {
        return label();
    }

    /** A capture readied for replay: the servers and protocol chosen, and the notes of the scan. */
    public static final class Prepared implements PreparedLog {
        private final Path log;
        private final CaptureSelection selection;
        private final String protocol;
        private final List<String> notes;

        Prepared(Path log, CaptureSelection selection, String protocol, List<String> notes) {
            this.log = log;
            this.selection = selection;
            this.protocol = protocol;
            this.notes = List.copyOf(notes);
        }

        @Override
        public CaptureReader open(ReaderContext ctx) {
            return new CaptureReader(LogInput.open(log), ctx, selection);
        }

        @Override
        public boolean readsOnThreads() {
            return true;
        }

        /** On 2 threads or more, a {@link CaptureSplitReader}: the connections shared among the threads. */
        @Override
        public LogReader open(ReaderContext ctx, int threads) {
            return threads < 2 ? open(ctx) : new CaptureSplitReader(LogInput.open(log), ctx, selection, threads);
        }

        @Override
        public List<String> notes() {
            return notes;
        }

        /** The protocol the capture's commands go out with (told from the traffic unless given). */
        public String protocol() {
            return protocol;
        }

        /** The servers whose connections are replayed. */
        public List<Endpoint> servers() {
            return selection.servers();
        }
    }
}
