package io.fluxperf.engine.request;

import io.netty.buffer.ByteBuf;

/**
 * Whether a value read back is the one the run wrote for its key. Reads of a --hit workload carry
 * one ({@link Request#valueCheck()}). A codec that finds a value that does not match, in a reply
 * that is otherwise whole and for the keys asked, marks the request ({@link Request#valueMismatch()})
 * and ends it as an error: most often another workload or run wrote the key with other values. The
 * reply kept the protocol, so the connection stays; only a reply that breaks it closes one.
 */
public interface ValueCheck {
    /**
     * @param key   the key as sent, {@code key[keyOffset, keyOffset + keyLength)}
     * @param value the value read, {@code value[from, from + length)}
     */
    boolean matches(byte[] key, int keyOffset, int keyLength, ByteBuf value, int from, int length);
}
