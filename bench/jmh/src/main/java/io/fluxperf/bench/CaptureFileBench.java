package io.fluxperf.bench;

import io.fluxperf.engine.log.capture.CaptureFile;
import io.fluxperf.engine.log.capture.PacketDecoder;
import io.fluxperf.engine.log.capture.TcpSegment;
import io.pkts.PacketHandler;
import io.pkts.Pcap;
import io.pkts.packet.TCPPacket;
import io.pkts.protocol.Protocol;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * fluxperf's own reader of the capture file formats against io.pkts' pkts-core 3.0.10, the Java
 * library there is for pcap, per packet: one invocation is a whole pass over {@link ReplayLogs}'
 * {@code pcap} of 100,000 commands (200,150 packets; held in memory, so that no disk is measured),
 * and JMH divides by the packets.
 *
 * <ul>
 * <li>{@code layer=records}: each packet's record: its time and its captured bytes (fluxperf:
 *     {@link CaptureFile#next()}; pkts: {@code Pcap.loop} with a handler that reads the
 *     packet's arrival time and payload length).</li>
 * <li>{@code layer=tcp}: the same, then down to the TCP segment: ports, sequence number, payload
 *     length (fluxperf: {@link PacketDecoder#decode}; pkts: {@code packet.getPacket(Protocol.TCP)}).</li>
 * </ul>
 *
 * <p>What pkts-core cannot read is not measured: pcapng (it knows only pcap's magic numbers), and
 * Linux cooked v2, which {@code tcpdump -i any} writes (its framers know cooked v1 only); see the
 * comparison in bench/jmh/README.md.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar CaptureFileBench -prof gc}.
 */
@State(Scope.Thread)
public class CaptureFileBench extends HotPathBenchmark {
    private static final int COMMANDS = 100_000;
    private static final int PACKETS = 3 * ReplayLogs.CLIENTS + 2 * COMMANDS;

    @Param({"fluxperf", "pkts"})
    public String reader;

    @Param({"records", "tcp"})
    public String layer;

    private byte[] file;
    private final TcpSegment segment = new TcpSegment();
    private long sum;

    @Setup
    public void setup() throws IOException {
        Path directory = Files.createTempDirectory("fluxperf-bench-capture");
        try {
            file = Files.readAllBytes(ReplayLogs.write("pcap", directory, COMMANDS));
        } finally {
            TraceBench.delete(directory);
        }
        if (pass() != PACKETS) {
            throw new IllegalStateException(reader + " read another number of packets than " + PACKETS);
        }
    }

    /** One pass; returns the packets read. */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long pass() throws IOException {
        return reader.equals("fluxperf") ? fluxperf() : pkts();
    }

    private long fluxperf() throws IOException {
        CaptureFile f = new CaptureFile("bench.pcap", new ByteArrayInputStream(file));
        boolean tcp = layer.equals("tcp");
        long packets = 0;
        while (f.next()) {
            packets++;
            sum += f.timeNanos() + f.capturedLength();
            if (tcp && PacketDecoder.decode(f.data(), f.dataOffset(), f.capturedLength(), f.linkType(), segment)
                    == PacketDecoder.TCP) {
                sum += segment.sourcePort() + segment.destinationPort() + segment.sequence() + segment.payloadLength();
            }
        }
        return packets;
    }

    private long pkts() throws IOException {
        Pcap pcap = Pcap.openStream(new ByteArrayInputStream(file));
        boolean tcp = layer.equals("tcp");
        long[] packets = new long[1];
        PacketHandler handler = packet -> {
            packets[0]++;
            sum += packet.getArrivalTime() + packet.getPayload().getReadableBytes();
            if (tcp && packet.hasProtocol(Protocol.TCP)) {
                TCPPacket t = (TCPPacket) packet.getPacket(Protocol.TCP);
                sum += t.getSourcePort() + t.getDestinationPort() + t.getSequenceNumber()
                        + (t.getPayload() == null ? 0 : t.getPayload().getReadableBytes());
            }
            return true;
        };
        pcap.loop(handler);
        pcap.close();
        return packets[0];
    }
}
