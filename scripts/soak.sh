#!/usr/bin/env bash
# The soak of issue 6 (not part of the test suite): two runs at a fixed rate side by side, for
# DURATION seconds (default 1800: 30 minutes),
#   1. against the embedded target (`fluxperf run` without --server),
#   2. against a real memcached through the fault proxy (io.fluxperf.testkit.FaultProxyMain from
#      the engine's test classes), which applies one fault every FAULT_EVERY seconds, in turn:
#      stall, reset, truncate, corrupt, drop, stop reading, delay, swap.
# Each run is a get workload with --hit, in windows of WINDOW seconds, with --json. The script
# checks that no request is unaccounted for (in every window requests = ok + miss + error +
# timeout + closed; over the run, requests = requests issued, counted from the bytes sent), and
# reports the achieved rate of each window and the resident memory (VmRSS from /proc, sampled
# every SAMPLE seconds) of each fluxperf process at its start, peak and end.
#
#   scripts/soak.sh                          # 30 minutes
#   DURATION=120 scripts/soak.sh             # 2 minutes (windows and faults every 10 s)
#
# Settings (environment): DURATION, WINDOW and FAULT_EVERY (seconds; both default to 60, or to
# DURATION/12 for runs shorter than 12 minutes), RATE (requests/s per run, default 10000),
# CONNECTIONS (default 25), SAMPLE (default 5), FAULTS (FaultProxyMain's --faults list),
# FLUXPERF_JAVA_OPTS (JVM flags of the fluxperf runs), SERIAL=1 (one run after the other rather
# than side by side: cleaner latency on a machine with few cores, twice the time), OUT (directory
# for logs and JSON; default a new /tmp/fluxperf-soak.*). Exit status 0 only when both runs ended normally and nothing is
# unaccounted for.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"

DURATION=${DURATION:-1800}
if [ "$DURATION" -lt 720 ]; then short=$((DURATION / 12)); [ "$short" -ge 5 ] || short=5; else short=60; fi
WINDOW=${WINDOW:-$short}
FAULT_EVERY=${FAULT_EVERY:-$short}
RATE=${RATE:-10000}
CONNECTIONS=${CONNECTIONS:-25}
SAMPLE=${SAMPLE:-5}
FAULTS=${FAULTS:-stall:2s,reset,truncate:40,corrupt:0.0001:5s,drop,stop-reading:3s,delay:50ms:5s,swap}
OUT=${OUT:-$(mktemp -d /tmp/fluxperf-soak.XXXXXX)}
WINDOWS=$((DURATION / WINDOW))
[ "$WINDOWS" -ge 1 ] || { echo "soak: DURATION ($DURATION) must be at least WINDOW ($WINDOW)" >&2; exit 2; }
GET_BYTES=22 # "get " + a 16-byte key + "\r\n": requests issued = bytes sent / 22
mkdir -p "$OUT"
log() { echo "soak: $*" >&2; }

pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# ---- build: the fluxperf jar, and the engine's test classes for the fault proxy; copied, so that
# builds by others while the soak runs do not change what runs
log "building (logs in $OUT/build.log)"
./fluxperf --help >/dev/null 2>"$OUT/build.log" || { cat "$OUT/build.log" >&2; exit 1; }
cp cli/target/fluxperf.jar "$OUT/fluxperf.jar"
mvn_build() { mvn -q -B "$@" >>"$OUT/build.log" 2>&1; }
mvn_build -o -pl engine -am test-compile dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" \
  || mvn_build -pl engine -am test-compile dependency:build-classpath -Dmdep.outputFile="$OUT/cp.txt" \
  || { cat "$OUT/build.log" >&2; exit 1; }
rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
cp -r engine/target/classes "$OUT/classes/engine"
cp -r engine/target/test-classes "$OUT/classes/engine-test"
cp -r trace-format/target/classes "$OUT/classes/trace-format"
deps=$(sed "s#$root/trace-format/target/classes#$OUT/classes/trace-format#; s#$root/engine/target/classes#$OUT/classes/engine#" "$OUT/cp.txt")
proxy_cp="$OUT/classes/engine-test:$OUT/classes/engine:$deps"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
await_port() {
  for _ in $(seq 1 100); do
    (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "soak: nothing listens on 127.0.0.1:$1" >&2; return 1
}

# ---- the two runs: side by side (SERIAL=1: one after the other, for small machines)
common=(run --method get --hit --rate "$RATE" -c "$CONNECTIONS" -d "$WINDOW" -w "$WINDOWS" --no-live)
log "$DURATION s at $RATE/s, $WINDOWS windows of $WINDOW s, faults every $FAULT_EVERY s; output in $OUT"
rss() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || true; }
# samples the resident memory of the given runs ("name:pid") every SAMPLE seconds until they end
sample() {
  local start now alive item
  start=$(date +%s)
  while :; do
    alive=0
    for item in "$@"; do kill -0 "${item#*:}" 2>/dev/null && alive=1; done
    [ "$alive" -eq 1 ] || break
    sleep "$SAMPLE"
    now=$(($(date +%s) - start))
    for item in "$@"; do
      kb=$(rss "${item#*:}")
      [ -n "$kb" ] && echo "$now $kb" >>"$OUT/${item%%:*}.rss"
    done
  done
}
: >"$OUT/embedded.rss"
: >"$OUT/proxied.rss"
# shellcheck disable=SC2086
java ${FLUXPERF_JAVA_OPTS:-} -Xlog:gc:file="$OUT/embedded.gc.log" -jar "$OUT/fluxperf.jar" "${common[@]}" --json "$OUT/embedded.json" >"$OUT/embedded.txt" 2>&1 &
embedded_pid=$!
pids+=("$embedded_pid")
[ "${SERIAL:-0}" = 1 ] && sample "embedded:$embedded_pid"
# memcached and the fault proxy in front of it (its first fault comes FAULT_EVERY from now: after the preload)
mport=$(free_port)
muser=()
[ "$(id -u)" -eq 0 ] && muser=(-u root)
memcached -l 127.0.0.1 -p "$mport" -U 0 -m 256 -t 2 "${muser[@]}" >"$OUT/memcached.log" 2>&1 &
pids+=($!)
await_port "$mport"
java -cp "$proxy_cp" io.fluxperf.testkit.FaultProxyMain --target "127.0.0.1:$mport" --every "${FAULT_EVERY}s" \
  --faults "$FAULTS" >"$OUT/proxy.log" 2>&1 &
proxy_pid=$!
pids+=("$proxy_pid")
for _ in $(seq 1 100); do grep -q '^listening' "$OUT/proxy.log" && break; sleep 0.1; done
pport=$(sed -n 's/^listening 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$OUT/proxy.log")
[ -n "$pport" ] || { cat "$OUT/proxy.log" >&2; exit 1; }

# shellcheck disable=SC2086
java ${FLUXPERF_JAVA_OPTS:-} -Xlog:gc:file="$OUT/proxied.gc.log" -jar "$OUT/fluxperf.jar" "${common[@]}" -s "127.0.0.1:$pport" --json "$OUT/proxied.json" \
  >"$OUT/proxied.txt" 2>&1 &
proxied_pid=$!
pids+=("$proxied_pid")
sample "embedded:$embedded_pid" "proxied:$proxied_pid"
set +e
wait "$embedded_pid"; embedded_status=$?
wait "$proxied_pid"; proxied_status=$?
set -e
kill "$proxy_pid" 2>/dev/null || true
wait "$proxy_pid" 2>/dev/null || true

# ---- the figures
failed=0
report() {
  local run=$1 status=$2 json="$OUT/$1.json"
  echo "== $run: exit status $status"
  if [ "$status" -ne 0 ] || [ ! -s "$json" ]; then
    echo "   the run failed; its output:"; sed 's/^/   /' "$OUT/$run.txt"
    failed=1
    return
  fi
  jq -r 'def pad(n): tostring | ([range(n - length)] | map(" ") | join("")) + .;
    "   window  requests       ok   miss  error timeout closed  achieved/s target/s   p99 ms  conn.closed unaccounted",
    (.windows[] | "   " + (.number | pad(6)) + (.requests | pad(10)) + (.ok | pad(9)) + (.miss | pad(7))
      + (.error | pad(7)) + (.timeout | pad(8)) + (.closed | pad(7)) + (.rate | floor | pad(12))
      + (.workloads[0].targetRate | floor | pad(9)) + (.latency.p99 / 1000000 | floor | pad(9))
      + (.connections.closed | pad(13)) + (.requests - .ok - .miss - .error - .timeout - .closed | pad(12)))' "$json"
  local unaccounted
  unaccounted=$(jq --argjson b "$GET_BYTES" '
    ([.windows[] | .requests - .ok - .miss - .error - .timeout - .closed | fabs] | add)
    + ((.total.requests - ([.windows[].requests] | add)) | fabs)
    + ((.total.bytesSent / $b) - .total.requests | fabs)' "$json")
  jq -r --argjson b "$GET_BYTES" '"   total: requests \(.total.requests), issued (bytes sent / \($b)) \(.total.bytesSent / $b), ok \(.total.ok), miss \(.total.miss), error \(.total.error), timeout \(.total.timeout), closed \(.total.closed); latency p99 \(.total.latency.p99 // "?") ns"' "$json"
  echo "   unaccounted requests: $unaccounted"
  [ "$unaccounted" = "0" ] || failed=1
  awk -v half="$((DURATION / 2))" '
    NR == 1 { start = $2 }
    { if ($2 > peak) peak = $2; end = $2
      if ($1 >= half) { if (lo == "" || $2 < lo) lo = $2; if ($2 > hi) hi = $2 } }
    END { printf "   resident memory (VmRSS): start %.0f MB, peak %.0f MB, end %.0f MB; second half %.0f..%.0f MB (%d samples)\n",
          start / 1024, peak / 1024, end / 1024, lo / 1024, hi / 1024, NR }' "$OUT/$run.rss"
  # resident memory grows while the JVM first touches its young generation; the heap left after each
  # collection (live data) is what shows a leak
  sed -n 's/.*Pause.* [0-9]*M->\([0-9]*\)M(\([0-9]*\)M).*/\1 \2/p' "$OUT/$run.gc.log" | awk '
    NR == 1 { first = $1 } { if ($1 > max) max = $1; last = $1; committed = $2 }
    END { if (NR) printf "   heap after GC: first %d MB, last %d MB, max %d MB (%d collections; heap committed %d MB)\n", first, last, max, NR, committed
          else print "   heap after GC: no collection" }'
}
{
  echo "soak: $DURATION s at $RATE requests/s (get, --hit, $CONNECTIONS connections), windows of $WINDOW s, faults every $FAULT_EVERY s"
  report embedded "$embedded_status"
  report proxied "$proxied_status"
  echo "== fault proxy"
  sed 's/^/   /' "$OUT/proxy.log"
} | tee "$OUT/summary.txt"
if [ "$failed" -ne 0 ]; then
  log "FAILED (details in $OUT)"
  exit 1
fi
log "passed: nothing unaccounted for (details in $OUT)"
