package io.fluxperf.bench;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.DefaultEventLoop;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The I/O buffers of the hot path: each write batch takes a buffer from the channel's allocator
 * ({@code TargetConnection.send}: {@code channel.alloc().ioBuffer(256)}) that Netty releases once
 * it is written, and each socket read takes one too (epoll's receive allocator, 2 KiB to start)
 * that the decoder releases once read. One op = take a {@code size}-byte io buffer, write a
 * 26-byte request into it, release it.
 *
 * <p>{@code allocator}: {@code adaptive} is Netty 4.2's default ({@code ByteBufAllocator.DEFAULT},
 * what channels use unless told otherwise), {@code pooled} the 4.1 default, {@code unpooled} none.
 * {@code cycle} runs on JMH's thread; {@code cycleOnEventLoop} runs 1,000 cycles per call on a
 * Netty event-loop thread (a {@code FastThreadLocalThread}, as the engine's are: some of Netty's
 * caches are kept only for those), which is the figure that matters.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar BufferBench -prof gc}.
 */
@State(Scope.Thread)
public class BufferBench extends HotPathBenchmark {
    private static final int CYCLES = 1000;
    private static final byte[] REQUEST = "get 0000000000004242\r\n\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @Param({"adaptive", "pooled", "unpooled"})
    public String allocator;

    @Param({"256", "2048"})
    public int size;

    private ByteBufAllocator alloc;
    private DefaultEventLoop loop;
    private Callable<Long> cycles;

    @Setup
    public void setup() {
        alloc = switch (allocator) {
            case "adaptive" -> new AdaptiveByteBufAllocator();
            case "pooled" -> PooledByteBufAllocator.DEFAULT;
            case "unpooled" -> UnpooledByteBufAllocator.DEFAULT;
            default -> throw new IllegalArgumentException(allocator);
        };
        if (allocator.equals("adaptive") && !(ByteBufAllocator.DEFAULT instanceof AdaptiveByteBufAllocator)) {
            throw new IllegalStateException("Netty's default allocator is no longer adaptive: " + ByteBufAllocator.DEFAULT);
        }
        loop = new DefaultEventLoop();
        cycles = () -> {
            long sum = 0;
            for (int i = 0; i < CYCLES; i++) {
                sum += cycle();
            }
            return sum;
        };
    }

    @TearDown
    public void tearDown() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Benchmark
    public int cycle() {
        ByteBuf b = alloc.ioBuffer(size);
        b.writeBytes(REQUEST);
        int n = b.readableBytes();
        b.release();
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(CYCLES)
    public long cycleOnEventLoop() throws InterruptedException, ExecutionException {
        return loop.submit(cycles).get();
    }
}
