package io.fluxperf.replay.profile;

import io.fluxperf.engine.UserError;
import java.util.Arrays;

/**
 * The distinct keys of a log, each with how often it was requested and the size of the last value
 * the log gives for it. Built for logs of hundreds of millions of keys: the key bytes live in
 * 1 MiB chunks (a key longer than a chunk gets one of its own), and each key's figures in parallel
 * primitive arrays indexed by the key's number, found through an open-addressing table of numbers.
 *
 * <h2>Memory</h2>
 * Per distinct key: its own bytes, plus 28 bytes (a chunk reference 8, length 4, hash 4, count 4,
 * last value size 4, and at least two table slots of 4), plus up to half of that again while an
 * array grows. 100 million keys of 40 bytes take about 7 GB; profile a sample of such a log, or
 * give the JVM the heap (docs/profile.md).
 *
 * <p>Single-threaded. Counts saturate at {@link Integer#MAX_VALUE}.
 */
final class KeyCounts {
    private static final int CHUNK = 1 << 20;
    /** The largest table: half a billion keys at half load (about 15 GB of keys' figures before their bytes). */
    private static final int MAX_TABLE = 1 << 30;

    private byte[][] chunks = new byte[16][];
    private int chunkCount;
    /** The chunk new keys go into, and how much of it is taken; -1 before the first. */
    private int current = -1;
    private int chunkUsed;

    private long[] refs = new long[1024];
    private int[] lengths = new int[1024];
    private int[] hashes = new int[1024];
    private int[] counts = new int[1024];
    private int[] lastSizes = new int[1024];
    private int size;
    /** Slot → key number + 1; 0 is an empty slot. */
    private int[] table = new int[2048];

    /** Distinct keys so far. */
    int size() {
        return size;
    }

    /** Counts one request of the key {@code b[off, off+len)}; returns the key's number. */
    int add(byte[] b, int off, int len) {
        int h = hash(b, off, len);
        int mask = table.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int id = table[i] - 1;
            if (id < 0) {
                id = insert(b, off, len, h);
                table[i] = id + 1;
                if (size * 2 > table.length) {
                    rehash();
                }
                return id;
            }
            if (hashes[id] == h && lengths[id] == len && equal(id, b, off, len)) {
                if (counts[id] != Integer.MAX_VALUE) {
                    counts[id]++;
                }
                return id;
            }
        }
    }

    /** Sets the size of the last value the log gave for key {@code id}. */
    void lastSize(int id, int bytes) {
        lastSizes[id] = bytes;
    }

    int count(int id) {
        return counts[id];
    }

    int length(int id) {
        return lengths[id];
    }

    /** The last value size the log gave for key {@code id}, or -1 for none. */
    int lastSize(int id) {
        return lastSizes[id];
    }

    private int insert(byte[] b, int off, int len, int h) {
        if (size == refs.length) {
            int n = size + (size >> 1);
            refs = Arrays.copyOf(refs, n);
            lengths = Arrays.copyOf(lengths, n);
            hashes = Arrays.copyOf(hashes, n);
            counts = Arrays.copyOf(counts, n);
            lastSizes = Arrays.copyOf(lastSizes, n);
        }
        int id = size++;
        refs[id] = store(b, off, len);
        lengths[id] = len;
        hashes[id] = h;
        counts[id] = 1;
        lastSizes[id] = -1;
        return id;
    }

    /** Copies the key into the chunks; returns chunk << 32 | offset. */
    private long store(byte[] b, int off, int len) {
        if (len > CHUNK) {
            int own = newChunk(len);
            System.arraycopy(b, off, chunks[own], 0, len);
            return (long) own << 32;
        }
        if (current < 0 || chunkUsed + len > CHUNK) {
            current = newChunk(CHUNK);
            chunkUsed = 0;
        }
        System.arraycopy(b, off, chunks[current], chunkUsed, len);
        long ref = (long) current << 32 | chunkUsed;
        chunkUsed += len;
        return ref;
    }

    private int newChunk(int bytes) {
        if (chunkCount == chunks.length) {
            chunks = Arrays.copyOf(chunks, chunks.length * 2);
        }
        chunks[chunkCount] = new byte[bytes];
        return chunkCount++;
    }

    private boolean equal(int id, byte[] b, int off, int len) {
        long ref = refs[id];
        byte[] chunk = chunks[(int) (ref >>> 32)];
        int at = (int) ref;
        return Arrays.equals(chunk, at, at + len, b, off, off + len);
    }

    private void rehash() {
        if (table.length >= MAX_TABLE) {
            throw new UserError("the log has more than " + MAX_TABLE / 2 + " distinct keys, more than profile counts;"
                    + " profile a part of it");
        }
        table = new int[table.length * 2];
        int mask = table.length - 1;
        for (int id = 0; id < size; id++) {
            int i = hashes[id] & mask;
            while (table[i] != 0) {
                i = (i + 1) & mask;
            }
            table[i] = id + 1;
        }
    }

    private static int hash(byte[] b, int off, int len) {
        int h = 0x9747b28c ^ len;
        for (int i = off; i < off + len; i++) {
            h = (h ^ b[i]) * 0x01000193;
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        return h;
    }
}
