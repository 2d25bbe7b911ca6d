package io.fluxperf.engine.request;

import io.netty.buffer.ByteBuf;

/**
 * Whether a value read back is the one the run wrote for its key. Reads of a --hit workload carry
 * one ({@link Request#valueCheck()}); a codec that finds a value that does not match treats the
 * reply as an error: corrupted, or given to the wrong request.
 */
public interface ValueCheck {
    /**
     * @param key   the key as sent, {@code key[keyOffset, keyOffset + keyLength)}
     * @param value the value read, {@code value[from, from + length)}
     */
    boolean matches(byte[] key, int keyOffset, int keyLength, ByteBuf value, int from, int length);
}
