#!/usr/bin/env bash
# Start-up time of `./fluxperf run` (issue 7's target: JVM start to first request under 1 s; with the
# in-process warm-up that every run now does first, issue 34's: under 1.5 s).
#
#   bench/startup.sh               # 5 runs of each measurement, medians
#   RUNS=9 bench/startup.sh
#
# Two figures, each the median of RUNS runs:
#  1. exec to first request: a small listener (bench/lib/first_byte.py, speaking just enough of the
#     memcache text protocol) notes when the first byte of the first connection arrives; the
#     clock starts just before `./fluxperf run -s <listener> --requests 1` is executed, so the
#     launcher script, the JVM's start, argument parsing and the connect are all counted. Once
#     with the launcher (its class-data-sharing archive) and once as plain `java -jar`.
#  2. the whole `./fluxperf run --requests 1` against the embedded target, exec to exit: an upper
#     bound on start to first request when no --server is given (it also starts and stops the
#     embedded server and prints the report).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
RUNS=${RUNS:-5}
out=$(mktemp -d /tmp/fluxperf-startup.XXXXXX)
trap 'kill "${lpid:-}" 2>/dev/null || true; rm -rf "$out"' EXIT

./fluxperf --help >/dev/null    # builds the jar and the archive when needed (not timed)
./fluxperf run --requests 10 -c 1 --no-live >/dev/null

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "NA"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now_ms() { date +%s%3N; }

python3 bench/lib/first_byte.py "$out/port" "$out/first" & lpid=$!
for _ in $(seq 50); do [ -s "$out/port" ] && break; sleep 0.1; done
port=$(cat "$out/port")

first_request() {  # <command...>: ms from exec to the listener's first byte
    rm -f "$out/first"
    local t0; t0=$(now_ms)
    "$@" -s "127.0.0.1:$port" ${FIRST_ARGS:---requests 1} -c 1 --no-live >/dev/null 2>&1 || true
    for _ in $(seq 50); do [ -s "$out/first" ] && break; sleep 0.05; done
    echo $(( $(cat "$out/first") - t0 ))
}

with_cds=$(for _ in $(seq "$RUNS"); do first_request ./fluxperf run; done | median)
plain=$(for _ in $(seq "$RUNS"); do first_request java -jar cli/target/fluxperf.jar run; done | median)
# a paced run warms up in-process until C2 has compiled its path (2.6-7 s of load at 20,000/s or faster)
paced=$(for _ in $(seq "$RUNS"); do FIRST_ARGS="--rate 1000 -d 1" first_request ./fluxperf run; done | median)
whole=$(for _ in $(seq "$RUNS"); do
    t0=$(now_ms); ./fluxperf run --requests 1 -c 1 --no-live >/dev/null; echo $(( $(now_ms) - t0 ))
done | median)

echo "exec to first request, ./fluxperf (class-data sharing): ${with_cds} ms"
echo "exec to first request, java -jar (no archive):          ${plain} ms"
echo "exec to first request, ./fluxperf run --rate 1000:       ${paced} ms"
echo "./fluxperf run --requests 1 (embedded target), exec to exit: ${whole} ms"
echo "(medians of $RUNS runs; $(nproc) CPUs, load average $(cut -d' ' -f1 /proc/loadavg))"
