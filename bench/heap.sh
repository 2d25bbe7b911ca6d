#!/usr/bin/env bash
# Heap of a large run (issue 7's target: 1,000 connections at 100,000 requests/s in under 256 MB).
#
#   bench/heap.sh                                  # 1,000 connections, 100,000/s, 20 s, -Xmx256m
#   CONNECTIONS=2000 RATE=50000 bench/heap.sh
#
# Runs `./fluxperf run` (the launcher, as users run it) against a real memcached (-c 4096) with the
# heap capped at HEAP (the run fails with an OutOfMemoryError if it needs more) and the GC log on,
# then prints the achieved rate of every window, the errors, the heap in use before and after each
# collection (the largest of each, over the whole process and after the run's own collection just
# before its load), the collections inside the measured windows (by the GC log's wall-clock time
# against the run directory's window times) and the process's peak resident memory
# (/usr/bin/time %M, heap + direct buffers + JVM).
# Settings: CONNECTIONS [1000], RATE [100000], THREADS [2], DURATION (s) [20], HEAP [256m].
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CONNECTIONS=${CONNECTIONS:-1000}
RATE=${RATE:-100000}
THREADS=${THREADS:-2}
DURATION=${DURATION:-20}
HEAP=${HEAP:-256m}
out=$(mktemp -d /tmp/fluxperf-heap.XXXXXX)
mcpid=""
trap '[ -n "$mcpid" ] && kill "$mcpid" 2>/dev/null; true' EXIT

./fluxperf --help >/dev/null    # builds the jar when needed
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
memcached -p "$port" -l 127.0.0.1 -U 0 -t 1 -c 4096 -m 1024 -u "$(id -un)" >"$out/memcached.log" 2>&1 & mcpid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

# through the launcher, as users run it: its class-data archive and its environment count in the memory
FLUXPERF_JAVA_OPTS="-Xmx$HEAP -Xlog:gc:file=$out/gc.log:timemillis,uptime" /usr/bin/time -f '%M' -o "$out/rss" ./fluxperf run \
    -s "127.0.0.1:$port" -t "$THREADS" -c $((CONNECTIONS / THREADS)) --rate "$RATE" -d "$DURATION" -w 1 \
    --warmup 3 --method get --hit --keyspace 100000 --no-live --out "$out/run" >"$out/run.txt" 2>&1 \
    || { cat "$out/run.txt" >&2; echo "heap: the run failed (output above; GC log in $out)" >&2; exit 1; }

python3 - "$out" "$CONNECTIONS" "$RATE" "$HEAP" <<'PY'
import json, re, sys
out, conns, rate, heap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
r = json.load(open(out + "/run/result.json"))
# the measured windows on the wall clock: the GC log's timemillis decoration is on the same clock
origin = r["windows"][0]["start"]
measured = [(r["startEpochMs"] + (w["start"] - origin) / 1e6, r["startEpochMs"] + (w["end"] - origin) / 1e6)
            for w in r["windows"]]
inside = []
t = r["total"]
before, after, pauses = [], [], []
load = None  # the collections after the run's own one before its load (HostTuning's System.gc())
for line in open(out + "/gc.log"):
    m = re.search(r"Pause .* (\d+)M->(\d+)M\((\d+)M\) ([\d.]+)ms", line)
    if m:
        at = int(re.search(r"\[(\d+)ms\]", line).group(1))
        if any(a <= at <= b for a, b in measured):
            inside.append(float(m.group(4)))
        if "System.gc()" in line:
            load = ([], [], [])
            continue
        for series, value in zip((before, after, pauses), (int(m.group(1)), int(m.group(2)), float(m.group(4)))):
            series.append(value)
        if load is not None:
            for series, value in zip(load, (int(m.group(1)), int(m.group(2)), float(m.group(4)))):
                series.append(value)
rss = int(open(out + "/rss").read().split()[-1]) // 1024
print(f"{conns} connections, target {rate}/s, heap capped at {heap}")
for w in r["windows"]:
    print(f"  window {w['number']}: {w['rate']:.0f} requests/s")
print(f"requests {t['requests']}, ok {t['ok']}, errors {t['error']}, timeouts {t['timeout']}, closed {t['closed']}")
if before:
    print(f"collections: {len(before)}; heap in use before a collection at most {max(before)} MB, "
          f"after at most {max(after)} MB; longest pause {max(pauses):.1f} ms")
else:
    print("collections: none during the whole run")
if load is not None and load[0]:
    print(f"in the load (after the collection before it): {len(load[0])} collections; heap after at most {max(load[1])} MB; "
          f"longest pause {max(load[2]):.1f} ms")
elif load is not None:
    print("in the load (after the collection before it): no collection")
if inside:
    print(f"inside the measured windows: {len(inside)} collections, longest pause {max(inside):.1f} ms")
else:
    print("inside the measured windows: no collection")
print(f"peak resident memory of the process: {rss} MB")
PY
