package io.fluxperf.trace;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Shared helpers for the trace tests: a header and deterministic records. */
final class TestTraces {
    static final List<String> WORKLOADS = List.of("reads", "writes");
    static final List<String> COMMANDS = List.of("get", "set", "delete", "mget");
    static final List<String> PROTOCOLS = List.of("memcache", "resp", "http");

    private TestTraces() {
    }

    static TraceHeader header() {
        return TraceHeader.builder()
                .fluxperfVersion("0.1.0-test")
                .configJson("{\"target\":\"127.0.0.1:11211\",\"rate\":1000}")
                .clockOrigin(1_700_000_000_000_000_000L, 123_456_789L)
                .workloads(WORKLOADS)
                .commands(COMMANDS)
                .protocols(PROTOCOLS)
                .build();
    }

    /** Fills {@code r} with record number {@code i}: every field derived from i, so a reader can check it. */
    static TraceRecord fill(TraceRecord r, long i) {
        return fill(r, i, MILLISECOND);
    }

    private static final long MILLISECOND = 1_000_000L;

    /** {@link #fill(TraceRecord, long)} with the records' send times {@code spacingNanos} apart instead of 1 ms. */
    static TraceRecord fill(TraceRecord r, long i, long spacingNanos) {
        long intended = spacingNanos * i;
        long latency = 50_000 + (i * 7919) % 2_000_000;
        r.clear()
                .intendedSendNanos(intended)
                .actualSendNanos(intended + (i % 13) * 1000)
                .completionNanos(intended + latency)
                .workload((int) (i % 2))
                .protocol((int) (i % 3))
                .command((int) (i % 4))
                .outcome((int) (i % Outcome.COUNT))
                .warmup(i < 10)
                .keyLatin1("key:" + i)
                .keyCount(1 + (int) (i % 3))
                .valueSize((int) (i % 4096))
                .requestBytes(20 + (int) (i % 100))
                .responseBytes((int) (i % 7) * 100)
                .connectionId((int) (i % 50));
        return r;
    }

    static void write(Path dir, long n) {
        write(dir, n, MILLISECOND);
    }

    static void write(Path dir, long n, long spacingNanos) {
        TraceRecord r = new TraceRecord();
        try (TraceWriter w = TraceWriter.open(dir, header())) {
            for (long i = 0; i < n; i++) {
                w.append(fill(r, i, spacingNanos));
            }
        }
    }

    /** Reads every record left in {@code reader}, checking that record i is {@link #fill}'s record i; returns how many. */
    static long readBackInOrder(TraceReader reader) {
        return readBackInOrder(reader, MILLISECOND);
    }

    static long readBackInOrder(TraceReader reader, long spacingNanos) {
        TraceRecord r = new TraceRecord();
        TraceRecord expected = new TraceRecord();
        long i = 0;
        while (reader.next(r)) {
            assertEquals(fill(expected, i, spacingNanos), r, "record " + i);
            i++;
        }
        return i;
    }
}
