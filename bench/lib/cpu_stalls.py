"""How much of its CPU the machine itself takes from a thread that never waits: reads the
monotonic clock in a tight loop for argv[1] seconds and counts the gaps between two reads of
10 µs or more (the thread was interrupted, or its virtual CPU was not running). Run it pinned
to the CPU a load generator will use: a paced run cannot send on time through a gap, so at a
fixed rate its send lag can be no better than what this finds. Prints one line."""
import sys
import time

LIMITS_NS = (10_000, 100_000, 1_000_000)


def measure(seconds):
    clock = time.perf_counter_ns
    counts = [0] * len(LIMITS_NS)
    lost = longest = 0
    prev = clock()
    end = prev + int(seconds * 1e9)
    while prev < end:
        now = clock()
        gap = now - prev
        prev = now
        if gap >= LIMITS_NS[0]:
            lost += gap
            longest = max(longest, gap)
            for i, limit in enumerate(LIMITS_NS):
                if gap >= limit:
                    counts[i] += 1
    return counts, lost, longest


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    counts, lost, longest = measure(seconds)
    print("stalls of a spinning thread: %.1f %% of the time in gaps of 10 us or more; "
          "%.0f gaps/s of 100 us or more, %.1f/s of 1 ms or more; longest %.2f ms"
          % (100.0 * lost / (seconds * 1e9), counts[1] / seconds, counts[2] / seconds, longest / 1e6))


if __name__ == "__main__":
    main()
