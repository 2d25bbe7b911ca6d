package io.fluxperf.engine.protocol.resp.target;

import io.netty.buffer.ByteBuf;
import java.util.Iterator;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_FLOAT;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.NOT_INTEGER;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.SYNTAX;
import static io.fluxperf.engine.protocol.resp.target.RespReplies.bytes;

/**
 * The sorted-set commands, as redis' {@code t_zset.c} has them: ZADD with NX, XX, GT, LT, CH and
 * INCR (and ZINCRBY, which redis runs as ZADD … INCR), ZREM, ZSCORE, ZMSCORE, ZRANK, and ZRANGE by
 * rank or BYSCORE with REV, LIMIT and WITHSCORES. Scores and score ranges are read as redis reads
 * them ({@link RespDoubles}). The reads count keyspace hits and misses; a sorted set left empty is
 * removed. ZRANGE's BYLEX is not implemented. One per connection.
 */
final class RespSortedSetCommands {
    private static final byte[] REV = bytes("REV");
    private static final byte[] WITHSCORES = bytes("WITHSCORES");
    private static final byte[] BYSCORE = bytes("BYSCORE");
    private static final byte[] BYLEX = bytes("BYLEX");
    private static final byte[] LIMIT = bytes("LIMIT");
    private static final String NAN_SCORE = "ERR resulting score is not a number (NaN)";

    private final RespClient c;

    RespSortedSetCommands(RespClient client) {
        this.c = client;
    }

    /** ZADD k [NX|XX] [GT|LT] [CH] [INCR] score member [score member …]. */
    void zadd(RespArgs a) {
        zadd(a, 0);
    }

    /** ZINCRBY k n m, run as redis runs it: ZADD k INCR n m. */
    void zincrby(RespArgs a) {
        zadd(a, RespFlags.INCR);
    }

    /** ZADD with the options {@code given} besides those its words name. */
    private void zadd(RespArgs a, int given) {
        int flags = given;
        int at = 2;
        for (int flag; at < a.count() && (flag = RespFlags.of(a, at, RespFlags.ZADD)) != 0; at++) {
            flags |= flag;
        }
        double[] scores = zaddScores(a, flags, at);
        if (scores == null) {
            return;
        }
        boolean nx = (flags & RespFlags.NX) != 0;
        boolean xx = (flags & RespFlags.XX) != 0;
        boolean gt = (flags & RespFlags.GT) != 0;
        boolean lt = (flags & RespFlags.LT) != 0;
        boolean incr = (flags & RespFlags.INCR) != 0;
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (c.wrongType(e, RespEntry.ZSET)) {
                return;
            }
            if (e == null) {
                if (xx) { // nothing to update
                    replyZadd(flags, Double.NaN, 0, 0);
                    return;
                }
                e = c.create(seg, RespEntry.ZSET);
            }
            RespEntry.ZSet z = e.zset();
            long added = 0;
            long changed = 0;
            long delta = 0;
            double result = Double.NaN;
            for (int p = 0; p < scores.length; p++) {
                int m = at + 2 * p + 1;
                Double old = z.scores.get(c.member(a, m));
                if (old == null) {
                    if (!xx) {
                        z.add(RespClient.copy(a, m), scores[p]);
                        delta += a.length(m) + RespEntry.ZSET_MEMBER_OVERHEAD;
                        added++;
                        result = scores[p];
                    }
                    continue;
                }
                if (nx) {
                    continue;
                }
                double score = incr ? old + scores[p] : scores[p];
                if (Double.isNaN(score)) { // inf + -inf
                    c.error(NAN_SCORE);
                    return;
                }
                if ((gt && score <= old) || (lt && score >= old)) {
                    continue;
                }
                result = score;
                if (score != old) {
                    z.rescore(c.member(), old, score);
                    changed++;
                }
            }
            seg.resize(e, delta);
            c.removeIfEmpty(seg, e);
            replyZadd(flags, result, added, changed);
            seg.makeRoom(c.now());
        }
    }

    /**
     * ZADD's score-member pairs from word {@code at} on, checked with its options in redis'
     * order, and their scores read; null after an error reply.
     */
    private double[] zaddScores(RespArgs a, int flags, int at) {
        int pairs = (a.count() - at) / 2;
        if ((a.count() - at) % 2 != 0 || pairs == 0) {
            c.error(SYNTAX);
            return null;
        }
        boolean nx = (flags & RespFlags.NX) != 0;
        if (nx && (flags & RespFlags.XX) != 0) {
            c.error("ERR XX and NX options at the same time are not compatible");
            return null;
        }
        int gtLtNx = flags & (RespFlags.GT | RespFlags.LT | RespFlags.NX);
        if (Integer.bitCount(gtLtNx) > 1) {
            c.error("ERR GT, LT, and/or NX options at the same time are not compatible");
            return null;
        }
        if ((flags & RespFlags.INCR) != 0 && pairs > 1) {
            c.error("ERR INCR option supports a single increment-element pair");
            return null;
        }
        double[] scores = new double[pairs];
        for (int p = 0; p < pairs; p++) {
            int i = at + 2 * p;
            scores[p] = RespDoubles.score(a.bytes, a.start(i), a.end(i));
            if (Double.isNaN(scores[p])) {
                c.error(NOT_FLOAT);
                return null;
            }
        }
        return scores;
    }

    /** INCR: the member's new score, or nil when nothing was updated; else the members added (with CH: and changed). */
    private void replyZadd(int flags, double result, long added, long changed) {
        if ((flags & RespFlags.INCR) == 0) {
            RespReplies.integer(c.out(), (flags & RespFlags.CH) != 0 ? added + changed : added);
        } else if (Double.isNaN(result)) {
            c.nil();
        } else {
            RespReplies.dbl(c.out(), result, c.resp3);
        }
    }

    void zrem(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.lookup(seg);
            if (e == null) {
                RespReplies.integer(c.out(), 0);
                return;
            }
            if (c.wrongType(e, RespEntry.ZSET)) {
                return;
            }
            RespEntry.ZSet z = e.zset();
            long removed = 0;
            long delta = 0;
            for (int i = 2; i < a.count(); i++) {
                Double score = z.scores.get(c.member(a, i));
                if (score != null) {
                    z.remove(c.member(), score);
                    removed++;
                    delta -= a.length(i) + RespEntry.ZSET_MEMBER_OVERHEAD;
                }
            }
            seg.resize(e, delta);
            c.removeIfEmpty(seg, e);
            RespReplies.integer(c.out(), removed);
        }
    }

    /** ZSCORE k m (a score or nil), or ZMSCORE k m1 m2 … ({@code many}: an array of them). */
    void zscore(RespArgs a, boolean many) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (c.wrongType(e, RespEntry.ZSET)) {
                return;
            }
            ByteBuf o = c.out();
            if (many) {
                RespReplies.array(o, a.count() - 2);
            }
            for (int i = 2; i < (many ? a.count() : 3); i++) {
                Double score = e == null ? null : e.zset().scores.get(c.member(a, i));
                if (score == null) {
                    c.nil();
                } else {
                    RespReplies.dbl(o, score, c.resp3);
                }
            }
        }
    }

    /** ZRANK k m: the member's index in score order, or nil when the member or the set is not there. */
    void zrank(RespArgs a) {
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.readLookup(seg);
            if (e == null) {
                c.nil();
                return;
            }
            if (c.wrongType(e, RespEntry.ZSET)) {
                return;
            }
            RespEntry.ZSet z = e.zset();
            Double score = z.scores.get(c.member(a, 2));
            if (score == null) {
                c.nil();
            } else {
                RespReplies.integer(c.out(), z.rank(c.member(), score));
            }
        }
    }

    /** ZRANGE k start stop [BYSCORE] [REV] [LIMIT offset count] [WITHSCORES], parsed in redis 7.0's order. */
    void zrange(RespArgs a) {
        boolean rev = false;
        boolean withScores = false;
        boolean byScore = false;
        boolean limited = false;
        long offset = 0;
        long limit = -1;
        for (int i = 4; i < a.count(); i++) {
            if (a.is(i, WITHSCORES)) {
                withScores = true;
            } else if (a.is(i, LIMIT) && a.count() - i - 1 >= 2) {
                if (!a.parseLong(i + 1)) {
                    c.error(NOT_INTEGER);
                    return;
                }
                offset = a.longValue;
                if (!a.parseLong(i + 2)) {
                    c.error(NOT_INTEGER);
                    return;
                }
                limit = a.longValue;
                limited = true;
                i += 2;
            } else if (!rev && a.is(i, REV)) {
                rev = true;
            } else if (!byScore && a.is(i, BYSCORE)) {
                byScore = true;
            } else if (!byScore && a.is(i, BYLEX)) {
                c.error("ERR BYLEX is not implemented by fluxperf's embedded server");
                return;
            } else {
                c.error(SYNTAX);
                return;
            }
        }
        if (limited && !byScore && (offset != 0 || limit != -1)) {
            c.error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX");
            return;
        }
        if (byScore) {
            zrangeByScore(a, rev, withScores, offset, limit);
        } else {
            zrangeByRank(a, rev, withScores);
        }
    }

    private void zrangeByRank(RespArgs a, boolean rev, boolean withScores) {
        if (!c.parseStartStop(a)) {
            return;
        }
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.rangeLookup(seg, RespEntry.ZSET);
            if (e == null) {
                return;
            }
            RespEntry.ZSet z = e.zset();
            long[] range = RespClient.range(c.rangeStart, c.rangeStop, z.size());
            ByteBuf o = c.out();
            rangeHeader(o, range[1] - range[0], withScores);
            Iterator<RespEntry.ZSet.Node> it = rev ? z.order.descendingIterator() : z.order.iterator();
            for (long i = 0; i < range[1] && it.hasNext(); i++) {
                RespEntry.ZSet.Node node = it.next();
                if (i >= range[0]) {
                    rangeMember(o, node, withScores);
                }
            }
        }
    }

    /**
     * ZRANGE's BYSCORE: members whose score lies between min and max (REV: max given first), each
     * end inclusive unless written {@code (score}, then LIMIT's offset and count (a negative count:
     * all).
     */
    private void zrangeByScore(RespArgs a, boolean rev, boolean withScores, long offset, long limit) {
        int minWord = rev ? 3 : 2;
        int maxWord = rev ? 2 : 3;
        boolean minOpen = a.length(minWord) > 0 && a.bytes[a.start(minWord)] == '(';
        boolean maxOpen = a.length(maxWord) > 0 && a.bytes[a.start(maxWord)] == '(';
        double min = RespDoubles.rangeEnd(a.bytes, a.start(minWord) + (minOpen ? 1 : 0), a.end(minWord));
        double max = RespDoubles.rangeEnd(a.bytes, a.start(maxWord) + (maxOpen ? 1 : 0), a.end(maxWord));
        if (Double.isNaN(min) || Double.isNaN(max)) {
            c.error("ERR min or max is not a float");
            return;
        }
        RespSegment seg = c.key(a, 1);
        synchronized (seg) {
            RespEntry e = c.rangeLookup(seg, RespEntry.ZSET);
            if (e == null) {
                return;
            }
            RespEntry.ZSet z = e.zset();
            // two passes over the members in range: count them for the reply's header, then write them
            long n = 0;
            long skipped = 0;
            Iterator<RespEntry.ZSet.Node> it = rev ? z.order.descendingIterator() : z.order.iterator();
            while (it.hasNext() && offset >= 0 && (limit < 0 || n < limit)) {
                double s = it.next().score();
                if (inScoreRange(s, min, minOpen, max, maxOpen)) {
                    if (skipped < offset) {
                        skipped++;
                    } else {
                        n++;
                    }
                }
            }
            ByteBuf o = c.out();
            rangeHeader(o, n, withScores);
            long written = 0;
            skipped = 0;
            it = rev ? z.order.descendingIterator() : z.order.iterator();
            while (written < n && it.hasNext()) {
                RespEntry.ZSet.Node node = it.next();
                if (!inScoreRange(node.score(), min, minOpen, max, maxOpen)) {
                    continue;
                }
                if (skipped < offset) {
                    skipped++;
                    continue;
                }
                rangeMember(o, node, withScores);
                written++;
            }
        }
    }

    private static boolean inScoreRange(double s, double min, boolean minOpen, double max, boolean maxOpen) {
        return (minOpen ? s > min : s >= min) && (maxOpen ? s < max : s <= max);
    }

    /** The array header of a ZRANGE reply of {@code n} members: RESP2 flattens WITHSCORES' pairs. */
    private void rangeHeader(ByteBuf o, long n, boolean withScores) {
        RespReplies.array(o, withScores && !c.resp3 ? n * 2 : n);
    }

    /** One member of a ZRANGE reply; WITHSCORES adds its score, in RESP3 as a pair of its own. */
    private void rangeMember(ByteBuf o, RespEntry.ZSet.Node node, boolean withScores) {
        if (withScores && c.resp3) {
            RespReplies.array(o, 2);
        }
        RespReplies.bulk(o, node.member());
        if (withScores) {
            RespReplies.dbl(o, node.score(), c.resp3);
        }
    }
}
