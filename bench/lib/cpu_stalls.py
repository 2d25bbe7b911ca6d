"""How much of its CPU the machine itself takes from a thread that never waits: reads the
monotonic clock in a tight loop for argv[1] seconds and counts the gaps between two reads of
10 us or more (the thread was interrupted, or its virtual CPU was not running). Run it pinned
to the CPU a load generator will use: a paced run cannot send on time through a gap, so at a
fixed rate its send lag can be no better than what this finds. Prints one line of stalls.

With RATE and COST_US... after the seconds, it also plays an ideal paced client over the gaps
it recorded: a request due every 1/RATE s, each needing COST_US of this CPU, started as soon as
the CPU is free of the ones before and not in a gap; and prints, per cost, the p99 of start minus
due time (the send lag that client would have had) over the whole measurement."""
import sys
import time

LIMITS_NS = (10_000, 100_000, 1_000_000)
RECORDED_NS = 2_000  # gaps recorded for the ideal client: anything longer than a clock read


def measure(seconds):
    clock = time.perf_counter_ns
    counts = [0] * len(LIMITS_NS)
    lost = longest = 0
    gaps = []
    start = prev = clock()
    end = prev + int(seconds * 1e9)
    while prev < end:
        now = clock()
        gap = now - prev
        if gap >= RECORDED_NS:
            gaps.append((prev - start, gap))
            if gap >= LIMITS_NS[0]:
                lost += gap
                longest = max(longest, gap)
                for i, limit in enumerate(LIMITS_NS):
                    if gap >= limit:
                        counts[i] += 1
        prev = now
    return counts, lost, longest, gaps


def ideal_client_p99_lag(gaps, span_ns, rate, cost_ns):
    """p99 send lag, ns, of a paced client that needs cost_ns per request on a CPU with these gaps."""
    period = 1e9 / rate
    t = 0.0
    g = 0  # first gap that has not ended by t
    lags = []

    def out_of_gap(t, g):
        while g < len(gaps) and gaps[g][0] + gaps[g][1] <= t:
            g += 1
        if g < len(gaps) and gaps[g][0] <= t:
            t = gaps[g][0] + gaps[g][1]
            g += 1
        return t, g

    for i in range(int(span_ns / period)):
        due = i * period
        t, g = out_of_gap(max(t, due), g)
        lags.append(t - due)
        work = cost_ns
        while work > 0:
            t, g = out_of_gap(t, g)
            free = (gaps[g][0] if g < len(gaps) else float("inf")) - t
            step = min(free, work)
            t += step
            work -= step
    lags.sort()
    return lags[int(len(lags) * 0.99)] if lags else 0.0


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    counts, lost, longest, gaps = measure(seconds)
    print("stalls of a spinning thread: %.1f %% of the time in gaps of 10 us or more; "
          "%.0f gaps/s of 100 us or more, %.1f/s of 1 ms or more; longest %.2f ms"
          % (100.0 * lost / (seconds * 1e9), counts[1] / seconds, counts[2] / seconds, longest / 1e6))
    if len(sys.argv) > 3:
        rate = float(sys.argv[2])
        for cost in sys.argv[3:]:
            p99 = ideal_client_p99_lag(gaps, seconds * 1e9, rate, float(cost) * 1000)
            print("an ideal client at %.0f/s needing %s us per request (%.2f of this CPU): send lag p99 %.0f us"
                  % (rate, cost, rate * float(cost) / 1e6, p99 / 1000))


if __name__ == "__main__":
    main()
