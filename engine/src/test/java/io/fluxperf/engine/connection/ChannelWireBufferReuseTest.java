package io.fluxperf.engine.connection;

import io.netty.buffer.ByteBuf;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A held connection's channel encodes each batch into the last batch's buffer once the channel
 * has written all of it, and never into one the channel still holds; the bytes arrive in order,
 * and no buffer outlives the connection.
 */
class ChannelWireBufferReuseTest {
    private ServerSocket server;
    private ClientLoop loop;
    private Socket accepted;
    private ChannelWire wire;

    @BeforeEach
    void start() throws Exception {
        server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        loop = ClientLoop.create("fluxperf-reuse-test", false);
        wire = assertInstanceOf(ChannelWire.class, TransportsSocketOptionsTest.connect(loop, server, true, false));
        accepted = server.accept();
    }

    @AfterEach
    void stop() throws Exception {
        accepted.close();
        loop.dispose(Duration.ofSeconds(2));
        server.close();
    }

    private <T> T onLoop(Callable<T> task) throws Exception {
        return loop.loop().submit(task).get(5, TimeUnit.SECONDS);
    }

    /** Writes {@code bytes} as one batch, in a buffer from the wire; returns the buffer. */
    private ByteBuf writeBatch(byte[] bytes) throws Exception {
        return onLoop(() -> {
            ByteBuf b = wire.buffer(64);
            b.writeBytes(bytes);
            wire.write(b);
            return b;
        });
    }

    private byte[] readExactly(int n) throws Exception {
        accepted.setSoTimeout(5000);
        InputStream in = accepted.getInputStream();
        byte[] got = in.readNBytes(n);
        assertEquals(n, got.length, "bytes that arrived");
        return got;
    }

    @Test
    void aBufferWrittenInFullIsTheNextBatchsBuffer() throws Exception {
        ByteBuf first = writeBatch("get a\r\n".getBytes());
        ByteBuf second = writeBatch("get b\r\n".getBytes());
        assertSame(first, second, "the second batch reused the first one's buffer");
        assertEquals(1, second.refCnt(), "the wire alone keeps it");
        assertArrayEquals("get a\r\nget b\r\n".getBytes(), readExactly(14));
    }

    @Test
    void aBufferTheChannelStillHoldsIsNotReused() throws Exception {
        // the server reads nothing until the socket buffers are full: then batches wait in the channel
        List<ByteBuf> batches = new ArrayList<>();
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        int counter = 0;
        while (onLoop(() -> wire.channel().isWritable()) && batches.size() < 2000) {
            byte[] bytes = new byte[32 * 1024];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (counter++ % 251);
            }
            sent.write(bytes);
            batches.add(writeBatch(bytes));
        }
        assertTrue(batches.size() < 2000, "the channel stopped being writable");
        ByteBuf queued = batches.get(batches.size() - 1);
        assertEquals(1, queued.refCnt(), "the channel alone holds the last batch");
        byte[] tail = "end\r\n".getBytes();
        ByteBuf next = writeBatch(tail);
        assertNotSame(queued, next, "a buffer the channel holds is never written into");
        sent.write(tail);
        assertArrayEquals(sent.toByteArray(), readExactly(sent.size()), "every byte, in order");
        // the channel releases a buffer on its loop once the last byte is out, a moment after it arrived
        await("written at last, and released by the channel: the wire did not keep it").atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(10)).until(queued::refCnt, refs -> refs == 0);
    }

    @Test
    void closingTheWireReleasesItsBuffer() throws Exception {
        ByteBuf kept = writeBatch("get a\r\n".getBytes());
        assertEquals(1, kept.refCnt());
        onLoop(() -> {
            wire.close();
            return null;
        });
        assertEquals(0, kept.refCnt(), "released with the wire");
    }
}
