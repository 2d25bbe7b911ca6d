package io.fluxperf.engine.transport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A memcache-over-UDP server whose replies misbehave on purpose, for the client's reassembly: it
 * answers {@code get K1 K2 …} with a VALUE of {@code valueBytes} bytes per key and END, cut into
 * datagrams of {@code chunk} bytes, and a {@link Script} decides how they travel (order, drops,
 * duplicates, lateness). Everything else gets {@code ERROR}.
 */
final class ScriptedUdpServer implements AutoCloseable {
    /** One request's datagrams, each with its frame header already written; returns what to send now. */
    interface Script {
        List<byte[]> send(int requestNumber, List<byte[]> datagrams, Later later);
    }

    /** Sends a datagram after a delay. */
    interface Later {
        void send(byte[] datagram, long delayMillis);
    }

    private final DatagramSocket socket;
    private final Thread thread;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "scripted-udp-later");
        t.setDaemon(true);
        return t;
    });
    private final int valueBytes;
    private final int chunk;
    private final boolean groupPerValue;
    private final Script script;
    private final AtomicInteger requests = new AtomicInteger();
    /** A reply held back so that the next request's reply overtakes it (replies out of request order). */
    private List<byte[]> parked;
    private SocketAddress parkedTo;

    /**
     * @param groupPerValue number each VALUE block (and the END) as its own group from sequence 0,
     *                      as memcached 1.6 does for multi-key gets; otherwise one numbering for the reply
     * @param overtake      hold each reply until the next request's reply has gone (or 5 ms passed)
     */
    ScriptedUdpServer(int valueBytes, int chunk, boolean groupPerValue, boolean overtake, Script script) throws SocketException {
        this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.valueBytes = valueBytes;
        this.chunk = chunk;
        this.groupPerValue = groupPerValue;
        this.script = script;
        socket.setSoTimeout(overtake ? 5 : 0);
        this.thread = new Thread(() -> serve(overtake), "scripted-udp");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    int requests() {
        return requests.get();
    }

    private void serve(boolean overtake) {
        byte[] buffer = new byte[65536];
        while (!socket.isClosed()) {
            DatagramPacket in = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(in);
            } catch (java.net.SocketTimeoutException idle) {
                flushParked();
                continue;
            } catch (IOException closed) {
                return;
            }
            if (in.getLength() < 8) {
                continue;
            }
            ByteBuffer b = ByteBuffer.wrap(in.getData(), 0, in.getLength());
            int id = b.getShort() & 0xFFFF;
            b.position(8);
            String text = new String(in.getData(), 8, in.getLength() - 8, StandardCharsets.US_ASCII).trim();
            List<byte[]> datagrams = reply(id, text);
            int n = requests.getAndIncrement();
            List<byte[]> now = script.send(n, datagrams, (d, delay) ->
                    timer.schedule(() -> send(d, in.getSocketAddress()), delay, TimeUnit.MILLISECONDS));
            if (overtake) {
                List<byte[]> previous = parked;
                SocketAddress previousTo = parkedTo;
                parked = now;
                parkedTo = in.getSocketAddress();
                if (previous != null) {
                    previous.forEach(d -> send(d, previousTo));
                }
            } else {
                now.forEach(d -> send(d, in.getSocketAddress()));
            }
        }
    }

    private void flushParked() {
        if (parked != null) {
            parked.forEach(d -> send(d, parkedTo));
            parked = null;
        }
    }

    private void send(byte[] d, SocketAddress to) {
        try {
            socket.send(new DatagramPacket(d, d.length, to));
        } catch (IOException closed) {
            // the test is over
        }
    }

    private List<byte[]> reply(int id, String request) {
        List<byte[]> parts = new ArrayList<>();
        String[] words = request.split(" ");
        if (!words[0].equals("get") && !words[0].equals("gets")) {
            parts.add("ERROR\r\n".getBytes(StandardCharsets.US_ASCII));
        } else {
            for (int i = 1; i < words.length; i++) {
                ByteArrayOutputStream value = new ByteArrayOutputStream();
                value.writeBytes(("VALUE " + words[i] + " 0 " + valueBytes + "\r\n").getBytes(StandardCharsets.US_ASCII));
                for (int k = 0; k < valueBytes; k++) {
                    value.write('a' + k % 26);
                }
                value.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
                parts.add(value.toByteArray());
            }
            parts.add("END\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        if (!groupPerValue) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            parts.forEach(all::writeBytes);
            return frame(id, all.toByteArray());
        }
        List<byte[]> datagrams = new ArrayList<>();
        parts.forEach(p -> datagrams.addAll(frame(id, p)));
        return datagrams;
    }

    /** One group: the bytes cut into chunks, numbered 0..n-1 of n. */
    private List<byte[]> frame(int id, byte[] bytes) {
        int total = (bytes.length + chunk - 1) / chunk;
        List<byte[]> out = new ArrayList<>();
        for (int seq = 0; seq < total; seq++) {
            int from = seq * chunk;
            int n = Math.min(chunk, bytes.length - from);
            ByteBuffer d = ByteBuffer.allocate(8 + n);
            d.putShort((short) id).putShort((short) seq).putShort((short) total).putShort((short) 0);
            d.put(bytes, from, n);
            out.add(d.array());
        }
        return out;
    }

    @Override
    public void close() {
        socket.close();
        timer.shutdownNow();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
