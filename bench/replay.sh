#!/usr/bin/env bash
# Replay against run, and a replay's fidelity at 1x, against a local redis-server (issue 34).
#
#   bench/replay.sh                 # 3 alternating pairs, then 3 replays at 1x
#   PAIRS=5 COMMANDS=1000000 bench/replay.sh
#
# The log: a redis-cli MONITOR log of COMMANDS (500,000) GET and SET lines, 4:1, recorded at RATE
# (50,000) commands/s from 50 clients, values of 32 bytes (bench/lib/monitor_log.py).
#  1. Throughput, in alternating pairs: `replay --speed max --loop LOOPS` of the log against `run`
#     with the same mix (4:1 get/set, 32-byte values, 100,000 keys) for as long, closed loop, both
#     on 1 thread with 50 connections. Each row: commands/s and CPU per command (the whole process,
#     from the JSON results), the ratios replay/run, the mean commands in flight of each (Little's
#     law: answered per second times the mean time from the write to the reply) and what limited
#     each (replay: its Fidelity block's reason; run: cpu when its load thread was saturated, else
#     connections when they were 80 % full on average, else server).
#  2. Fidelity at 1x: the log replayed as recorded, one window per second; send lag p99 over the
#     whole replay and over its seconds after the first (the worst window's p99), and the
#     duration against the log's. For scale, bench/lib/pace_reference.c (a C client with fluxperf's
#     pacing) at the same rate against memcached shows what this machine lets a bare client do.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PAIRS=${PAIRS:-3}
COMMANDS=${COMMANDS:-500000}
RATE=${RATE:-50000}
LOOPS=${LOOPS:-2}
out=$(mktemp -d /tmp/fluxperf-replay-bench.XXXXXX)
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; [ -n "${mpid:-}" ] && kill "$mpid" 2>/dev/null; rm -rf "$out"' EXIT

./fluxperf --version >/dev/null  # builds the jar and its archive when needed (not timed)
python3 bench/lib/monitor_log.py "$out/monitor.log" "$COMMANDS" "$RATE" 50 100000 32
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --logfile "$out/redis.log"
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
cat > "$out/mix.toml" <<TOML
[general]
threads = 1
connections = 50
[[workload]]
name = "get"
method = "get"
weight = 4
keyspace = 100000
key-length = 10
bytes = 32
[[workload]]
name = "set"
method = "set"
weight = 1
keyspace = 100000
key-length = 10
bytes = 32
TOML

figures() {  # RUN.json REPLAY.json PAIR: commands/s, CPU per command, mean in flight and limit of each
    python3 - "$@" <<'PY'
import json, sys
run, rep = (json.load(open(f)) for f in sys.argv[1:3])
def total(j):
    t = j["total"]
    return t["rate"], t.get("cpuNanosPerRequest") or float("nan"), t["service"]["mean"]
r1, c1, s1 = total(run)
r2, c2, _ = total(rep)
f1 = r1 * s1 / 1e9  # Little's law: answered per second times the mean time from write to reply
f = rep["replay"]["inFlight"]
lim = rep["replay"]["limit"]["reason"] if rep["replay"].get("limit") else "-"
loop = run["total"].get("busiestLoadThreadCpuShare", -1)
lim1 = "cpu" if loop is not None and loop >= 0.9 else ("connections" if f1 >= 0.8 * 50 else "server")
print("%-5s %10.0f %10.0f %8.0f %8.0f %6.2f %6.2f %8.1f %8.1f %12s %12s" % (sys.argv[3], r1, r2, c1, c2, r2 / r1,
      c2 / c1, f1, f["mean"], lim1, lim))
PY
}

seconds=$(awk -v c="$COMMANDS" -v r="$RATE" -v l="$LOOPS" 'BEGIN { printf "%d", c * l / (2 * r) + 1 }')
printf '%-5s %10s %10s %8s %8s %6s %6s %8s %8s %12s %12s\n' pair run_rps rep_rps run_ns rep_ns rps_x cpu_x \
    run_infl rep_infl run_limit rep_limit
for i in $(seq "$PAIRS"); do
    ./fluxperf run --config "$out/mix.toml" -s "127.0.0.1:$port" --protocol redis -d "$seconds" --no-live \
        --json "$out/run.json" >"$out/run.txt" 2>&1
    ./fluxperf replay -l "$out/monitor.log" -s "127.0.0.1:$port" -c 50 --speed max --loop "$LOOPS" --no-live \
        --json "$out/replay.json" >"$out/replay.txt" 2>&1
    figures "$out/run.json" "$out/replay.json" "$i"
done

echo
printf '%-6s %14s %22s %12s %12s\n' replay lag_p99_us worst_window_p99_us duration_s expected_s
for i in $(seq "$PAIRS"); do
    ./fluxperf replay -l "$out/monitor.log" -s "127.0.0.1:$port" -c 50 --window 1s --json "$out/r.json" --no-live >"$out/fid.txt" 2>&1
    python3 - "$out/r.json" "$i" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["replay"]
later = [w["p99"] for w in r["windowSendLagNanos"][1:] if "p99" in w]
print("%-6s %14.0f %22.0f %12.3f %12.3f" % (sys.argv[2], r["sendLagNanos"]["p99"] / 1e3,
      (max(later) if later else float("nan")) / 1e3, r["replaySeconds"], r["expectedSeconds"]))
PY
done

if command -v memcached >/dev/null && command -v cc >/dev/null; then
    cc -O2 -o "$out/pace_reference" bench/lib/pace_reference.c -lm
    mport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mu=(); [ "$(id -u)" = 0 ] && mu=(-u nobody)  # memcached refuses to run as root without -u
    memcached "${mu[@]}" -l 127.0.0.1 -p "$mport" -U 0 -t 1 & mpid=$!
    sleep 0.3
    echo
    echo "for scale, the C reference at ${RATE}/s with 50 connections against memcached (1 s warm-up, 5 s):"
    "$out/pace_reference" 127.0.0.1 "$mport" "$RATE" 50 1 10000 1 5 1 sleep | grep '^total:'
fi
echo "($(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg))"
