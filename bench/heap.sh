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
# (/usr/bin/time %M, heap + direct buffers + JVM) with its proportional share (Pss, sampled from
# /proc/PID/smaps_rollup every 0.2 s: ZGC maps its heap three times, which RSS counts three times
# and Pss once), the longest collection pause before the load, inside the windows and after them,
# and the process's CPU per request in the windows (result.json's cpuNanos) and over its whole life.
# Settings: CONNECTIONS [1000], RATE [100000], THREADS [2], DURATION (s) [20], HEAP [256m],
# GC_OPTS [the launcher's]: the collector's options in place of the launcher's (FLUXPERF_GC_OPTS),
# to compare collectors, e.g.
#   GC_OPTS='' bench/heap.sh                                # the JVM's default, G1
#   GC_OPTS='-XX:+UseZGC' bench/heap.sh
# JAVA_OPTS [none]: more JVM options for the run, to try one against the launcher's, e.g.
#   JAVA_OPTS='-XX:NativeMemoryTracking=summary' bench/heap.sh   # then jcmd PID VM.native_memory summary
# CONFIG [none]: a config file to run in place of the generated get workload (its rate, threads,
# connections and windows are the file's; DURATION and RATE then do nothing), with a statistics
# block every second and the admin endpoint, e.g. issue 53's scaling run of 20 workloads:
#   CONFIG=bench/heap-20-workloads.toml bench/heap.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
CONNECTIONS=${CONNECTIONS:-1000}
RATE=${RATE:-100000}
THREADS=${THREADS:-2}
DURATION=${DURATION:-20}
HEAP=${HEAP:-256m}
CONFIG=${CONFIG:-}
out=$(mktemp -d /tmp/fluxperf-heap.XXXXXX)
mcpid=""
trap '[ -n "$mcpid" ] && kill "$mcpid" 2>/dev/null; true' EXIT

./fluxperf --help >/dev/null    # builds the jar when needed
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
memcached -p "$port" -l 127.0.0.1 -U 0 -t 1 -c 4096 -m 1024 -u "$(id -un)" >"$out/memcached.log" 2>&1 & mcpid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

# through the launcher, as users run it: its class-data archive and its environment count in the memory
# (gc+phases: ZGC's pauses are lines of their own there; the other collectors' are in gc)
load=(-t "$THREADS" -c $((CONNECTIONS / THREADS)) --rate "$RATE" -d "$DURATION" -w 1 --method get --hit --keyspace 100000)
[ -n "$CONFIG" ] && load=(--config "$CONFIG" --stats-interval 1 --admin "127.0.0.1:0")
if [ -n "${GC_OPTS+set}" ]; then export FLUXPERF_GC_OPTS="$GC_OPTS"; fi
FLUXPERF_JAVA_OPTS="-Xmx$HEAP -Xlog:gc,gc+phases=info:file=$out/gc.log:timemillis,uptime ${JAVA_OPTS:-}" \
    /usr/bin/time -f '%M %U %S' -o "$out/rss" ./fluxperf run \
    -s "127.0.0.1:$port" "${load[@]}" --warmup 3 --no-live --out "$out/run" >"$out/run.txt" 2>&1 &
runpid=$!
# /usr/bin/time's child is the launcher, which execs java in the same process
pss=0
while kill -0 "$runpid" 2>/dev/null; do
    for child in $(pgrep -P "$runpid" 2>/dev/null); do
        while read -r key kb _; do
            [ "$key" = "Pss:" ] && echo "$(date +%s%3N) $kb" >>"$out/pss.series" && [ "$kb" -gt "$pss" ] && pss=$kb
        done <"/proc/$child/smaps_rollup" 2>/dev/null || true
    done
    sleep 0.2
done
echo "$pss" >"$out/pss"
wait "$runpid" || { cat "$out/run.txt" >&2; echo "heap: the run failed (output above; GC log in $out)" >&2; exit 1; }

python3 - "$out" "$CONNECTIONS" "$RATE" "$HEAP" "${GC_OPTS-the launcher defaults}" "$CONFIG" <<'PY'
import json, re, sys
out, conns, rate, heap, gc_opts, CONFIG = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
r = json.load(open(out + "/run/result.json"))
# the measured windows on the wall clock: the GC log's timemillis decoration is on the same clock
origin = r["windows"][0]["start"]
measured = [(r["startEpochMs"] + (w["start"] - origin) / 1e6, r["startEpochMs"] + (w["end"] - origin) / 1e6)
            for w in r["windows"]]
first, last = measured[0][0], measured[-1][1]
t = r["total"]
# A stop-the-world collection is a "Pause ..." line: with its heap before and after for G1, Serial and
# Parallel; alone (gc+phases) for ZGC and Shenandoah, whose heap figures are their cycle's own lines.
# A collection's heap "before" is its first figure, "after" its last (a Shenandoah cycle frees the
# garbage it found at once, then what it moved).
collections = {}           # GC id -> [heap before, heap after, asked for by System.gc()]
explicit = False           # Shenandoah names System.gc() on a line before the cycle's id
phase = {"before the load": [], "inside the windows": [], "after the windows": []}
for line in open(out + "/gc.log"):
    at = re.search(r"\[(\d+)ms\]", line)
    if not at:
        continue
    at = int(at.group(1))
    explicit = explicit or "Trigger: Explicit GC request (System.gc())" in line
    gc_id = re.search(r"\] GC\((\d+)\) ", line)
    sized = re.search(r"Pause .* (\d+)M->(\d+)M\((\d+)M\) ([\d.]+)ms", line)
    alone = re.search(r"\] GC\(\d+\) Pause [^>]* ([\d.]+)ms$", line.rstrip())
    cycle = (re.search(r"Garbage Collection \(.*\) (\d+)M\(\d+%\)->(\d+)M\(\d+%\)", line)  # ZGC
             or re.search(r"Concurrent cleanup (\d+)M->(\d+)M", line))  # Shenandoah
    stall = re.search(r"Allocation Stall \(.*\) ([\d.]+)ms", line)  # ZGC stops a thread that outruns it
    if sized:
        ms = float(sized.group(4))
    elif stall:
        ms = float(stall.group(1))
    elif alone:
        ms = float(alone.group(1))
    else:
        ms = None
    if ms is not None:
        where = "before the load" if at < first else "after the windows" if at > last else "inside the windows"
        phase[where].append(ms)
    heap_line = sized or cycle
    if heap_line and gc_id:
        c = collections.setdefault(int(gc_id.group(1)), [int(heap_line.group(1)), 0, explicit])
        explicit = False
        c[1] = int(heap_line.group(2))
        c[2] = c[2] or "System.gc()" in line
before = [c[0] for c in collections.values() if not c[2]]
after = [c[1] for c in collections.values() if not c[2]]
# the collections after the run's own one before its load (HostTuning's System.gc())
ids = sorted(collections)
own = [i for i in ids if collections[i][2]]
load_after = None if not own else [collections[i][1] for i in ids if i > own[-1]]
rss, user, sys_ = open(out + "/rss").read().split()[-3:]
rss = int(rss) // 1024
pss = int(open(out + "/pss").read()) // 1024
window_cpu = sum(w["cpuNanos"] for w in r["windows"] if w.get("cpuNanos") is not None)
print(f"{CONFIG} " if CONFIG else f"{conns} connections, target {rate}/s, ", end="")
print(f"heap capped at {heap}, collector options: {gc_opts or 'none (the JVM default)'}")
for w in r["windows"]:
    print(f"  window {w['number']}: {w['rate']:.0f} requests/s")
print(f"requests {t['requests']}, ok {t['ok']}, errors {t['error']}, timeouts {t['timeout']}, closed {t['closed']}")
if before:
    print(f"collections: {len(before)}; heap in use before a collection at most {max(before)} MB, "
          f"after at most {max(after)} MB")
else:
    print("collections: none during the whole run")
if load_after:
    print(f"in the load (after the collection before it): {len(load_after)} collections; heap after at most {max(load_after)} MB")
elif load_after is not None:
    print("in the load (after the collection before it): no collection")
every = [ms for p in phase.values() for ms in p]
print(f"stop-the-world pauses: {len(every)}, longest {max(every, default=0):.1f} ms over the whole process; "
      + "; ".join(f"{k}: {len(v)}, longest {max(v):.1f} ms" if v else f"{k}: none" for k, v in phase.items()))
print(f"CPU per request: {window_cpu / max(t['requests'], 1) / 1000:.2f} µs in the windows, "
      f"{(float(user) + float(sys_)) * 1e6 / max(t['requests'], 1):.2f} µs over the whole process "
      f"(user {float(user):.1f} s, system {float(sys_):.1f} s)")
print(f"peak resident memory of the process: {rss} MB (RSS); proportional share at most {pss} MB (Pss)")
PY
