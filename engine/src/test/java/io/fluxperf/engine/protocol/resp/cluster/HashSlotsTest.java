package io.fluxperf.engine.protocol.resp.cluster;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** redis Cluster's CRC16 and hash tags, on values redis' own documentation and CLUSTER KEYSLOT give. */
class HashSlotsTest {
    private static int slot(String key) {
        byte[] b = key.getBytes(StandardCharsets.UTF_8);
        return HashSlots.slotOf(b, 0, b.length);
    }

    @Test
    void crc16IsXmodem() {
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0x31C3, HashSlots.crc16(check, 0, check.length), "CRC16-XMODEM's check value");
    }

    @Test
    void slotsAsRedisComputesThem() {
        assertEquals(12182, slot("foo"));
        assertEquals(5061, slot("bar"));
        assertEquals(0, slot(""));
    }

    @Test
    void aHashTagPlacesKeysTogether() {
        assertEquals(slot("user1"), slot("{user1}.following"));
        assertEquals(slot("{user1}.following"), slot("{user1}.followers"));
        assertEquals(slot("user1"), slot("foo{user1}bar{zap}"), "only the first tag counts");
        assertEquals(slot("{}.a"), slot("{}.a"));
        assertNotEquals(slot(""), slot("{}.a"), "an empty tag hashes the whole key");
        assertEquals(slot("{user1"), slot("{user1"), "no closing brace: the whole key");
        assertEquals(slot("bar"), slot("{bar}"));
        byte[] b = "xx{user1}.ayy".getBytes(StandardCharsets.US_ASCII);
        assertEquals(slot("user1"), HashSlots.slotOf(b, 2, 9), "a key in the middle of an array");
    }
}
