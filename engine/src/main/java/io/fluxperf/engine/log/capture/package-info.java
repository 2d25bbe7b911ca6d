/**
 * Packet captures as replay logs, knowing no protocol: {@link io.fluxperf.engine.log.capture.CaptureFile}
 * streams the records of a pcap or pcapng file, {@code PacketDecoder} takes each through its link
 * layer, IPv4 or IPv6 and TCP headers, {@code TcpStream} puts each direction of a connection back
 * in sequence order and gives what the capture lacks as gaps of exact size, and
 * {@link io.fluxperf.engine.log.capture.CaptureReader} hands each connection's bytes to its
 * protocol's {@link io.fluxperf.engine.log.capture.ConnectionReader} (found through
 * {@link io.fluxperf.engine.protocol.Protocol#capture()}), which turns the client's bytes into log
 * entries and the server's into their original replies; what such readers share (resync, lost
 * streams, cut commands, the commands waiting for replies) is
 * {@link io.fluxperf.engine.log.capture.AbstractConnectionReader}. {@link io.fluxperf.engine.log.capture.CaptureFormat}
 * scans a capture once to check it, to pick its server and to tell the protocol.
 * {@link io.fluxperf.engine.log.capture.CaptureSplitReader} reads a capture's connections on several threads.
 */
package io.fluxperf.engine.log.capture;
