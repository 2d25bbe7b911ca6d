package io.fluxperf.engine.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A read-back value is checked against the run's value for its key in every kind of buffer a
 * codec is handed (pooled direct from epoll, heap, a composite of parts), whatever the value's
 * length, and a difference in any byte is found.
 */
class ValuePatternTest {
    private static final int AT = 5;
    private final ValuePattern pattern = new ValuePattern(42, 1024);
    private final List<ByteBuf> buffers = new ArrayList<>();

    @AfterEach
    void release() {
        buffers.forEach(ByteBuf::release);
    }

    /** {@code value} at index {@link #AT} of each kind of buffer. */
    private List<ByteBuf> holding(byte[] value) {
        ByteBuf direct = PooledByteBufAllocator.DEFAULT.directBuffer(AT + value.length + 3);
        ByteBuf heap = Unpooled.buffer(AT + value.length + 3);
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        int half = value.length / 2;
        composite.addComponent(true, Unpooled.buffer().writeZero(AT).writeBytes(value, 0, half));
        composite.addComponent(true, Unpooled.buffer().writeBytes(value, half, value.length - half).writeZero(3));
        for (ByteBuf b : List.of(direct, heap)) {
            b.writeZero(AT).writeBytes(value).writeZero(3);
        }
        buffers.addAll(List.of(direct, heap, composite));
        return List.of(direct, heap, composite);
    }

    private boolean matches(String key, ByteBuf value, int length) {
        byte[] k = ("xx" + key).getBytes(StandardCharsets.US_ASCII);
        return pattern.matches(k, 2, k.length - 2, value, AT, length);
    }

    @Test
    void theRunsOwnValueMatchesAndAnyOtherByteDoesNot() {
        for (int length : new int[] {0, 1, 7, 8, 9, 64, 100, 1024}) {
            byte[] value = pattern.expected(4242, length);
            for (ByteBuf b : holding(value)) {
                String kind = b.getClass().getSimpleName() + ", " + length + " B";
                assertTrue(matches("4242", b, length), kind);
                assertTrue(matches("0000000000004242", b, length), "a key padded with zeros: " + kind);
                if (length > 0) {
                    assertFalse(matches("4243", b, length), "another key's value: " + kind);
                }
            }
            for (int i = 0; i < length; i += Math.max(1, length / 5)) {
                byte[] changed = value.clone();
                changed[i] ^= 1;
                byte[] last = value.clone();
                last[length - 1] ^= 0x20;
                for (ByteBuf b : holding(changed)) {
                    assertFalse(matches("4242", b, length), "byte " + i + " of " + length + " in " + b.getClass().getSimpleName());
                }
                for (ByteBuf b : holding(last)) {
                    assertFalse(matches("4242", b, length), "the last of " + length + " in " + b.getClass().getSimpleName());
                }
            }
        }
        ByteBuf any = holding(pattern.expected(1, 8)).get(0);
        assertFalse(matches("1", any, 2000), "longer than any value the run writes");
        for (ByteBuf b : holding(pattern.expected(1, 8))) {
            assertFalse(matches("1", b, 20), "past what the buffer holds: " + b.getClass().getSimpleName());
        }
    }

    @Test
    void keysThatAreNotGeneratedCannotBeCheckedAndMatch() {
        ByteBuf other = holding("not the run's value".getBytes(StandardCharsets.US_ASCII)).get(0);
        assertTrue(matches("user:17", other, 19));
        assertTrue(matches("99999999999999999999", other, 19), "beyond a long");
        assertTrue(matches("9223372036854775808", other, 19), "Long.MAX_VALUE + 1");
    }

    @Test
    void keyIndexes() {
        assertEquals(4242, ValuePattern.keyIndex(bytes("0000000000000000000000000004242"), 0, 31));
        assertEquals(0, ValuePattern.keyIndex(bytes("0000"), 0, 4));
        assertEquals(0, ValuePattern.keyIndex(bytes(""), 0, 0));
        assertEquals(Long.MAX_VALUE, ValuePattern.keyIndex(bytes("09223372036854775807"), 0, 20));
        assertEquals(-1, ValuePattern.keyIndex(bytes("9223372036854775808"), 0, 19));
        assertEquals(-1, ValuePattern.keyIndex(bytes("12a4"), 0, 4));
        assertEquals(1244, ValuePattern.keyIndex(bytes("k:1244"), 2, 6));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
