#!/usr/bin/env bash
# Replay against run, a replay's speed factors, and its fidelity at 1x, against a local redis-server
# (issues 34 and 48).
#
#   bench/replay.sh                 # 3 alternating rounds, the speed factors, then 3 replays at 1x
#   PAIRS=5 COMMANDS=1000000 READER_THREADS="1 2 4" bench/replay.sh
#
# The log: a redis-cli MONITOR log of COMMANDS (500,000) GET and SET lines, 4:1, recorded at RATE
# (50,000) commands/s from 50 clients, values of 32 bytes (bench/lib/monitor_log.py).
#  1. Throughput, in alternating rounds: `run` with the same mix (4:1 get/set, 32-byte values,
#     100,000 keys) for as long as the replay, closed loop, then `replay --speed max --loop LOOPS`
#     of the log once for each of READER_THREADS (`--reader-threads`, default "1 2"), all on 1 load
#     thread with 50 connections. Each row: commands/s and CPU per command (the whole process,
#     from the JSON results), the ratios to the round's run, the mean commands in flight (run:
#     Little's law, answered per second times the mean time from the write to the reply; replay:
#     its Fidelity block's), what limited it (replay: its Fidelity block's reason; run: cpu when its
#     load thread was saturated, else connections when they were 80 % full on average, else
#     server), and the CPU of its threads and of redis-server over the process's life, as shares
#     of the measured seconds (bench/lib/thread_cpu.py; start-up and the in-process warm-up count
#     in, so they read a little high): the load thread, the replay's pacing thread (it also reads
#     and parses with 1 reader thread), the parse threads, and the server.
#  2. Speed factors: the log replayed at --speed 2 and --speed 4 (no --loop) with 1 reader thread;
#     the achieved factor is the log's span over the replay's duration, with the replay's limit
#     when it fell behind.
#  3. Fidelity at 1x: the log replayed as recorded, one window per second; send lag p99 over the
#     whole replay and over its seconds after the first (the worst window's p99), and the
#     duration against the log's. For scale, bench/lib/pace_reference.c (a C client with fluxperf's
#     pacing) at the same rate against memcached shows what this machine lets a bare client do.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PAIRS=${PAIRS:-3}
COMMANDS=${COMMANDS:-500000}
RATE=${RATE:-50000}
LOOPS=${LOOPS:-2}
READER_THREADS=${READER_THREADS:-1 2}
out=$(mktemp -d /tmp/fluxperf-replay-bench.XXXXXX)
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; [ -n "${mpid:-}" ] && kill "$mpid" 2>/dev/null; rm -rf "$out"' EXIT

./fluxperf --version >/dev/null  # builds the jar and its archive when needed (not timed)
python3 bench/lib/monitor_log.py "$out/monitor.log" "$COMMANDS" "$RATE" 50 100000 32
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --logfile "$out/redis.log" \
    --pidfile "$out/redis.pid"
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
rpid=$(cat "$out/redis.pid")
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

figures() {  # RUN.json RUN.cpu.json JSON CPU.json ROUND KIND: one row of the table
    python3 - "$@" <<'PY'
import json, sys
run, run_cpu, this, cpu = (json.load(open(f)) for f in sys.argv[1:5])
def total(j):
    t = j["total"]
    return t["rate"], t.get("cpuNanosPerRequest") or float("nan"), t["service"]["mean"]
r1, c1, s1 = total(run)
r2, c2, s2 = total(this)
if "replay" in this:
    f = this["replay"]["inFlight"]["mean"]
    lim = this["replay"]["limit"]["reason"] if this["replay"].get("limit") else "-"
    seconds = this["replay"]["replaySeconds"]
else:
    f = r2 * s2 / 1e9  # Little's law: answered per second times the mean time from write to reply
    loop = this["total"].get("busiestLoadThreadCpuShare", -1)
    lim = "cpu" if loop is not None and loop >= 0.9 else ("connections" if f >= 0.8 * 50 else "server")
    seconds = this["total"]["seconds"] if "seconds" in this["total"] else this["total"]["duration"]
t = cpu["threads"]
share = lambda *names: 100 * sum(t.get(n, 0) for n in names) / seconds
print("%-5s %-9s %9.0f %7.0f %6.2f %6.2f %8.1f %12s %6.0f %6.0f %6.0f %6.0f" % (sys.argv[5], sys.argv[6], r2, c2,
      r2 / r1, c2 / c1, f, lim, share("fluxperf-load"), share("fluxperf-replay"), share("fluxperf-parse-"),
      100 * cpu["server"] / seconds))
PY
}

seconds=$(awk -v c="$COMMANDS" -v r="$RATE" -v l="$LOOPS" 'BEGIN { printf "%d", c * l / (2 * r) + 1 }')
echo "CPU columns: % of the measured seconds; load = the load thread, pace = the replay's pacing (and, with 1"
echo "reader thread, reading) thread, parse = the parse threads together, server = redis-server"
printf '%-5s %-9s %9s %7s %6s %6s %8s %12s %6s %6s %6s %6s\n' round kind cmd_s ns_cmd rps_x cpu_x in_fl \
    limit load pace parse server
for i in $(seq "$PAIRS"); do
    python3 bench/lib/thread_cpu.py "$out/run.cpu.json" "$rpid" -- \
        ./fluxperf run --config "$out/mix.toml" -s "127.0.0.1:$port" --protocol redis -d "$seconds" --no-live \
        --json "$out/run.json" >"$out/run.txt" 2>&1
    figures "$out/run.json" "$out/run.cpu.json" "$out/run.json" "$out/run.cpu.json" "$i" run
    for rt in $READER_THREADS; do
        python3 bench/lib/thread_cpu.py "$out/replay.cpu.json" "$rpid" -- \
            ./fluxperf replay -l "$out/monitor.log" -s "127.0.0.1:$port" -c 50 --speed max --loop "$LOOPS" --no-live \
            --reader-threads "$rt" --json "$out/replay.json" >"$out/replay.txt" 2>&1
        figures "$out/run.json" "$out/run.cpu.json" "$out/replay.json" "$out/replay.cpu.json" "$i" "replay-r$rt"
    done
done

echo
printf '%-6s %6s %10s %10s %8s %12s\n' round speed log_s replay_s factor limit
for i in $(seq "$PAIRS"); do
    for speed in 2 4; do
        ./fluxperf replay -l "$out/monitor.log" -s "127.0.0.1:$port" -c 50 --speed "$speed" --no-live \
            --json "$out/s.json" >"$out/s.txt" 2>&1
        python3 - "$out/s.json" "$i" "$speed" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["replay"]
lim = r["limit"]["reason"] if r.get("limit") else "-"
print("%-6s %6s %10.3f %10.3f %8.3f %12s" % (sys.argv[2], sys.argv[3], r["originalSeconds"], r["replaySeconds"],
      r["originalSeconds"] / r["replaySeconds"], lim))
PY
    done
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
