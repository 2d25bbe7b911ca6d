package io.fluxperf.replay.profile;

import java.util.List;
import java.util.Map;

/**
 * What {@code fluxperf profile} says of a log, in the columns of the OSDI'20 paper's table
 * (Yang, Yue, Rashmi: "A large scale analysis of hundreds of in-memory cache clusters at
 * Twitter"). Each figure is defined exactly in docs/replay.md (The profile's columns); in short:
 *
 * @param requests          the commands the log holds (what a replay sends)
 * @param seconds           from the first command's time to the last one's, in seconds (a log whose
 *                          times are whole seconds has its commands spread over each second, as
 *                          replay sends them); null when the log has no times
 * @param rate              requests / seconds; null without times or when they span no time
 * @param peakSecond        the whole second of the log's clock with the most requests; null without times
 * @param clients           distinct original clients the log names (0 when it names none)
 * @param keys              distinct keys the commands name
 * @param operations        each verb's share of the requests, largest first
 * @param keySize           every key a command names, in bytes, as replayed; null without keys
 * @param valueSize         every value size the log gives: writes' values and, where the log has them,
 *                          the sizes reads returned; null without any
 * @param zipfAlpha         minus the least-squares slope of ln(count) against ln(rank) over the keys
 *                          requested at least twice; null with fewer than two such keys
 * @param zipfKeys          the keys that fit is over
 * @param oneHitWonderRatio distinct keys requested exactly once / distinct keys; null without keys
 * @param ttl               each TTL's share (seconds → share) among the writes that carry one
 * @param ttlWrites         the writes that carry a TTL
 * @param writes            the commands that carry a value
 * @param workingSetBytes   the bytes of the distinct keys plus the last value size the log gives for each
 * @param hitRate           reads the original server answered with their key(s) / reads answered at all,
 *                          where the log holds replies (a capture); null otherwise
 * @param repliedReads      the reads that hit rate is over
 * @param operationCounts   requests per verb (for --config-out)
 * @param writeSizes        value size → writes of that size (for --config-out)
 * @param writeTtls         TTL (0: none) → writes with it (for --config-out)
 */
public record LogProfile(String log, String format, String compression, String protocol, long requests,
                         Double seconds, Double rate, PeakSecond peakSecond, long clients, long keys,
                         Map<String, Double> operations, SizeSummary keySize, SizeSummary valueSize, Double zipfAlpha,
                         long zipfKeys, Double oneHitWonderRatio, Map<Long, Double> ttl, long ttlWrites, long writes,
                         long workingSetBytes, Double hitRate, long repliedReads, long lines, long badLines,
                         List<String> firstBadLines, List<String> notes, Map<String, Long> operationCounts,
                         Map<Long, Long> writeSizes, Map<Long, Long> writeTtls) {

    /**
     * @param second   its start, in whole seconds after the whole second of the log's first command
     * @param requests the requests in it
     */
    public record PeakSecond(long second, long requests) {
    }
}
