package io.fluxperf.engine.target;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to run an embedded target server. Immutable; build one with {@link #builder()} or change a
 * copy with {@link #toBuilder()}. Arguments are checked here, where they enter, with
 * {@link IllegalArgumentException}s (callers that know the flag or config key check first, so that
 * their message can name it).
 *
 * @param bindAddress      host name or IP literal to listen on; loopback by default, because a
 *                         test server must not be reachable from the network unless asked
 * @param port             TCP port, 0 for an ephemeral one (read it back from {@link TargetServer#address()})
 * @param threads          event-loop threads serving the connections
 * @param memoryLimitBytes bound on stored data (keys, values and a fixed per-item overhead);
 *                         least recently used items are evicted beyond it
 * @param responseDelay    TEST KNOB: every reply is written this long after its request arrived
 *                         (zero: at once)
 * @param stallEvery       TEST KNOB: period of the stalls; zero: no stalls
 * @param stallFor         TEST KNOB: length of each stall; replies due during it are held until it ends
 * @param udpPort          UDP port of a second listener on {@code bindAddress} (memcache over UDP, the
 *                         8-byte frame header); -1: none, 0: an ephemeral one (read it back from
 *                         {@link TargetServer#udpAddress()})
 * @param unixPath         path of a Unix-socket listener; null: none. A stale socket file there is
 *                         replaced, as memcached does; any other file is an error
 * @param tlsCert          PEM certificate chain for TLS on the TCP listener; null: plain TCP.
 *                         Goes with {@code tlsKey}
 * @param tlsKey           PEM private key (PKCS#8) of {@code tlsCert}; null: plain TCP
 * @param slowKeyPrefix    TEST KNOB: a read batch with a request for a key that starts with this
 *                         has its replies written {@code slowDelay} later (one slow client among
 *                         fast ones); null: none
 * @param slowDelay        TEST KNOB: the extra delay of such a batch
 * @param capacity         TEST KNOB: the server answers at most this many requests per second, all
 *                         connections together; beyond it replies queue (a server of fixed
 *                         capacity); 0: no limit
 */
public record TargetOptions(String bindAddress, int port, int threads, long memoryLimitBytes,
                            Duration responseDelay, Duration stallEvery, Duration stallFor,
                            int udpPort, Path unixPath, Path tlsCert, Path tlsKey,
                            String slowKeyPrefix, Duration slowDelay, long capacity) {

    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    public static final long DEFAULT_MEMORY_LIMIT_BYTES = 64L << 20;
    /** Below this a memory limit could not hold a useful number of items. */
    public static final long MIN_MEMORY_LIMIT_BYTES = 64L << 10;

    public TargetOptions {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(responseDelay, "responseDelay");
        Objects.requireNonNull(stallEvery, "stallEvery");
        Objects.requireNonNull(stallFor, "stallFor");
        if (bindAddress.isBlank()) {
            throw new IllegalArgumentException("bind address is empty");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is outside 0..65535");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, not " + threads);
        }
        if (memoryLimitBytes < MIN_MEMORY_LIMIT_BYTES) {
            throw new IllegalArgumentException("memory limit " + memoryLimitBytes + " bytes is below the minimum of "
                    + MIN_MEMORY_LIMIT_BYTES + " bytes");
        }
        if (responseDelay.isNegative()) {
            throw new IllegalArgumentException("response delay " + responseDelay + " is negative");
        }
        if (stallEvery.isNegative() || stallFor.isNegative()) {
            throw new IllegalArgumentException("stall durations must not be negative");
        }
        if (stallEvery.isZero() != stallFor.isZero()) {
            throw new IllegalArgumentException("stallEvery and stallFor go together: set both or neither");
        }
        if (!stallEvery.isZero() && stallFor.compareTo(stallEvery) >= 0) {
            throw new IllegalArgumentException("stallFor (" + stallFor + ") must be shorter than stallEvery (" + stallEvery + ")");
        }
        if (udpPort < -1 || udpPort > 65535) {
            throw new IllegalArgumentException("UDP port " + udpPort + " is outside -1..65535 (-1: no UDP listener)");
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new IllegalArgumentException("tlsCert and tlsKey go together: set both or neither");
        }
        slowDelay = slowDelay == null ? Duration.ZERO : slowDelay;
        if (slowDelay.isNegative()) {
            throw new IllegalArgumentException("slow delay " + slowDelay + " is negative");
        }
        if (slowKeyPrefix != null && slowKeyPrefix.isEmpty()) {
            slowKeyPrefix = null;
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity " + capacity + " requests/s is negative");
        }
    }

    /** The options without the test knobs added later (a slow key prefix, a capacity). */
    public TargetOptions(String bindAddress, int port, int threads, long memoryLimitBytes,
                         Duration responseDelay, Duration stallEvery, Duration stallFor,
                         int udpPort, Path unixPath, Path tlsCert, Path tlsKey) {
        this(bindAddress, port, threads, memoryLimitBytes, responseDelay, stallEvery, stallFor, udpPort, unixPath,
                tlsCert, tlsKey, null, Duration.ZERO, 0);
    }

    /** The options without the listeners added later (UDP, Unix socket, TLS): TCP only. */
    public TargetOptions(String bindAddress, int port, int threads, long memoryLimitBytes,
                         Duration responseDelay, Duration stallEvery, Duration stallFor) {
        this(bindAddress, port, threads, memoryLimitBytes, responseDelay, stallEvery, stallFor, -1, null, null, null);
    }

    /** Loopback, ephemeral port, one thread, 64 MiB, no test knobs. */
    public static TargetOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .bindAddress(bindAddress).port(port).threads(threads).memoryLimitBytes(memoryLimitBytes)
                .responseDelay(responseDelay).stall(stallEvery, stallFor)
                .udpPort(udpPort).unixPath(unixPath).tls(tlsCert, tlsKey)
                .slowKeys(slowKeyPrefix, slowDelay).capacity(capacity);
    }

    /** Whether the TCP listener speaks TLS. */
    public boolean tls() {
        return tlsCert != null;
    }

    /** Whether a test knob changes when replies are written (the fast path skips all timing work otherwise). */
    public boolean pacesReplies() {
        return !responseDelay.isZero() || !stallEvery.isZero() || slowKeyPrefix != null && !slowDelay.isZero()
                || capacity > 0;
    }

    /** Collects options; {@link #build()} checks them. */
    public static final class Builder {
        private String bindAddress = DEFAULT_BIND_ADDRESS;
        private int port;
        private int threads = 1;
        private long memoryLimitBytes = DEFAULT_MEMORY_LIMIT_BYTES;
        private Duration responseDelay = Duration.ZERO;
        private Duration stallEvery = Duration.ZERO;
        private Duration stallFor = Duration.ZERO;
        private int udpPort = -1;
        private Path unixPath;
        private Path tlsCert;
        private Path tlsKey;
        private String slowKeyPrefix;
        private Duration slowDelay = Duration.ZERO;
        private long capacity;

        private Builder() {
        }

        /** TEST KNOB: a read batch with a request for a key starting with {@code prefix} is answered {@code delay} later. */
        public Builder slowKeys(String prefix, Duration delay) {
            this.slowKeyPrefix = prefix;
            this.slowDelay = delay;
            return this;
        }

        /** TEST KNOB: at most {@code requestsPerSecond} answered per second; beyond it replies queue. 0: no limit. */
        public Builder capacity(long requestsPerSecond) {
            this.capacity = requestsPerSecond;
            return this;
        }

        public Builder bindAddress(String bindAddress) {
            this.bindAddress = bindAddress;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public Builder memoryLimitBytes(long memoryLimitBytes) {
            this.memoryLimitBytes = memoryLimitBytes;
            return this;
        }

        /** TEST KNOB: fixed delay added to every reply. */
        public Builder responseDelay(Duration responseDelay) {
            this.responseDelay = responseDelay;
            return this;
        }

        /** TEST KNOB: every {@code every} the server holds all replies for {@code length}. */
        public Builder stall(Duration every, Duration length) {
            this.stallEvery = every;
            this.stallFor = length;
            return this;
        }

        /** A UDP listener on this port (0: an ephemeral one); -1 (the default): none. */
        public Builder udpPort(int udpPort) {
            this.udpPort = udpPort;
            return this;
        }

        /** A Unix-socket listener at this path; null (the default): none. */
        public Builder unixPath(Path unixPath) {
            this.unixPath = unixPath;
            return this;
        }

        /** TLS on the TCP listener with this PEM certificate chain and PKCS#8 PEM key; nulls (the default): none. */
        public Builder tls(Path certificate, Path key) {
            this.tlsCert = certificate;
            this.tlsKey = key;
            return this;
        }

        public TargetOptions build() {
            return new TargetOptions(bindAddress, port, threads, memoryLimitBytes, responseDelay, stallEvery, stallFor,
                    udpPort, unixPath, tlsCert, tlsKey, slowKeyPrefix, slowDelay, capacity);
        }
    }
}
