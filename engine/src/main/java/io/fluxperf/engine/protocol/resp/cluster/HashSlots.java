package io.fluxperf.engine.protocol.resp.cluster;

/**
 * redis Cluster's key-to-slot function: CRC16 (XMODEM: polynomial 0x1021, initial value 0, no
 * reflection) of the key modulo 16384; when the key holds a {@code {…}} with at least one byte
 * between its first '{' and the first '}' after it, only those bytes are hashed, so that
 * {@code {user1}.a} and {@code {user1}.b} share a slot. Thread-safe, allocation-free.
 */
public final class HashSlots {
    /** Slots of a redis Cluster. */
    public static final int SLOTS = 16384;

    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            TABLE[i] = crc & 0xFFFF;
        }
    }

    private HashSlots() {
    }

    /** CRC16-XMODEM of {@code b[offset, offset + length)}. */
    public static int crc16(byte[] b, int offset, int length) {
        int crc = 0;
        for (int i = offset; i < offset + length; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ b[i]) & 0xFF]) & 0xFFFF;
        }
        return crc;
    }

    /** The slot of the key {@code b[offset, offset + length)}, with its hash tag if it has one. */
    public static int slotOf(byte[] b, int offset, int length) {
        int end = offset + length;
        for (int open = offset; open < end; open++) {
            if (b[open] == '{') {
                for (int close = open + 1; close < end; close++) {
                    if (b[close] == '}') {
                        if (close > open + 1) {
                            return crc16(b, open + 1, close - open - 1) & (SLOTS - 1);
                        }
                        break; // "{}": the whole key is hashed
                    }
                }
                break; // only the first '{' counts
            }
        }
        return crc16(b, offset, length) & (SLOTS - 1);
    }
}
