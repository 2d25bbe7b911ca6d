package io.fluxperf.engine.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * A publish workload's messages in one window (or the whole run), as its subscribers received them.
 * In a window: the publishes that ended ok in it, and per subscriber the messages that arrived in it
 * (the first time: {@code delivered}; again: {@code duplicated}) with their latency, from the send
 * time in the message to its arrival. Over the whole run, reconciled message by message with the
 * publishes: {@code delivered} counts each subscriber's messages of the publishes that ended ok,
 * {@code lost} those it never received (so delivered + lost = published × subscribers), and
 * {@code unconfirmed} the messages it received of publishes that did not end ok (a timeout whose
 * message went out all the same).
 *
 * @param published   publishes that ended ok
 * @param subscribers one per subscriber, in order
 * @param reconciled  the whole run's figures: {@code lost} and {@code unconfirmed} are known
 */
public record MessageFigures(long published, List<Subscriber> subscribers, boolean reconciled) {
    public MessageFigures {
        subscribers = List.copyOf(subscribers);
    }

    /**
     * One subscriber's figures.
     *
     * @param lost        run only: messages of ok publishes it never received; 0 in a window
     * @param unconfirmed run only: messages it received of publishes that did not end ok
     * @param latency     send time to arrival, ns, of the messages it received
     */
    public record Subscriber(int number, long delivered, long duplicated, long lost, long unconfirmed,
                             LatencySummary latency) {
    }

    public long delivered() {
        return subscribers.stream().mapToLong(Subscriber::delivered).sum();
    }

    public long duplicated() {
        return subscribers.stream().mapToLong(Subscriber::duplicated).sum();
    }

    public long lost() {
        return subscribers.stream().mapToLong(Subscriber::lost).sum();
    }

    public long unconfirmed() {
        return subscribers.stream().mapToLong(Subscriber::unconfirmed).sum();
    }

    /**
     * The report's lines: {@code Messages:} with the counts over every subscriber (over the run
     * with the reconciliation), then a {@code Subscriber N:} line each with its latency.
     */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        StringBuilder b = new StringBuilder("Messages: published ").append(published).append(" delivered ")
                .append(delivered());
        if (reconciled) {
            b.append(" lost ").append(lost());
        }
        b.append(" duplicated ").append(duplicated());
        if (reconciled && unconfirmed() > 0) {
            b.append(" unconfirmed ").append(unconfirmed());
        }
        b.append(" (").append(subscribers.size()).append(subscribers.size() == 1 ? " subscriber" : " subscribers");
        if (reconciled) {
            b.append("; delivered + lost = published × subscribers");
        }
        out.add(b.append(')').toString());
        for (Subscriber s : subscribers) {
            StringBuilder l = new StringBuilder("Subscriber ").append(s.number()).append(": delivered ").append(s.delivered());
            if (reconciled) {
                l.append(" lost ").append(s.lost());
            }
            l.append(" duplicated ").append(s.duplicated());
            if (reconciled && s.unconfirmed() > 0) {
                l.append(" unconfirmed ").append(s.unconfirmed());
            }
            LatencySummary t = s.latency();
            l.append(" p50: ").append(t.p50()).append(" ns p99: ").append(t.p99()).append(" ns p999: ").append(t.p999())
                    .append(" ns max: ").append(t.max()).append(" ns");
            out.add(l.toString());
        }
        return out;
    }
}
