#!/usr/bin/env python3
"""Writes a redis-cli MONITOR log for replay benchmarks: COMMANDS lines at RATE commands/s from
CLIENTS client addresses, GET and SET 4:1 over KEYS keys, values of VALUE bytes.

    monitor_log.py FILE [COMMANDS [RATE [CLIENTS [KEYS [VALUE]]]]]
    monitor_log.py /tmp/m.log 500000 50000 50 100000 32     # the defaults
"""
import random
import sys


def main():
    path = sys.argv[1]
    commands, rate, clients, keys, value = (int(a) for a in (sys.argv[2:] + ["500000", "50000", "50", "100000", "32"][len(sys.argv) - 2:])[:5])
    rng = random.Random(1)
    base = 1_700_000_000
    v = "v" * value
    with open(path, "w") as f:
        f.write("OK\n")
        for i in range(commands):
            micros = i * 1_000_000 // rate
            ts = "%d.%06d" % (base + micros // 1_000_000, micros % 1_000_000)
            client = 50_001 + i % clients
            key = "key:%06d" % rng.randrange(keys)
            if i % 5 == 0:
                f.write('%s [0 127.0.0.1:%d] "SET" "%s" "%s"\n' % (ts, client, key, v))
            else:
                f.write('%s [0 127.0.0.1:%d] "GET" "%s"\n' % (ts, client, key))


if __name__ == "__main__":
    main()
