#!/usr/bin/env bash
# bench/pace_cost.sh - where a paced request's cost goes, fluxperf beside the C reference client
# (bench/lib/pace_reference.c): syscalls, wake-ups and TCP segments per request, and CPU
# (user and system) per request, counted over the same WINDOW seconds in the middle of each run.
#
#   bench/pace_cost.sh                          # memcache get hit at 50,000/s, 50 connections
#   RATE=20000 ROUNDS=3 bench/pace_cost.sh
#   FLUXPERF_JAR=/tmp/old.jar bench/pace_cost.sh   # an earlier jar
#   BASE_JAR=/tmp/old.jar bench/pace_cost.sh        # this jar and an earlier one, in the same rounds
#   FLUXPERF_ARGS="--io-uring" bench/pace_cost.sh
#   FLUXPERF_JAVA_OPTS="-Dname=value" bench/pace_cost.sh   # JVM options of the first jar's runs only
#                                                 # (default: the launcher's collector options)
#   BASE_JAVA_OPTS="-Dname=value" BASE_JAR=...      # JVM options of BASE_JAR's runs (default: none);
#                                                 # the same jar twice compares a switch in alternating rounds
#
# How: memcached (one thread) on SERVER_CPU, each client on CLIENT_CPU. `perf stat -p` attaches to
# the client once its warm-up is over and counts its syscalls by name (tracepoints, no ptrace: the
# client runs at full speed) for WINDOW seconds; the requests of that span are the server's
# cmd_get delta; the segments are the client sockets' own (ss -ti segs_out + segs_in), not the
# machine's, so other processes' traffic does not count. Wake-ups are returns from the wait
# (epoll_wait, epoll_pwait, epoll_pwait2, io_uring_enter) and the context switches of the process.
# Needs perf with tracepoints (run as root), memcached, cc, ss.
set -u
set -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
RATE=${RATE:-50000}
CONNS=${CONNS:-50}
ROUNDS=${ROUNDS:-1}
WINDOW=${WINDOW:-8}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
FLUXPERF_ARGS=${FLUXPERF_ARGS:-}
OUTDIR=${OUTDIR:-$(mktemp -d "${TMPDIR:-/tmp}/fluxperf-pacecost.XXXXXX")}
HOST=127.0.0.1
mkdir -p "$OUTDIR"
EVENTS="raw_syscalls:sys_enter,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait,syscalls:sys_enter_epoll_pwait2,syscalls:sys_enter_io_uring_enter,syscalls:sys_enter_write,syscalls:sys_enter_writev,syscalls:sys_enter_sendto,syscalls:sys_enter_sendmsg,syscalls:sys_enter_read,syscalls:sys_enter_readv,syscalls:sys_enter_recvfrom,syscalls:sys_enter_recvmsg,syscalls:sys_enter_timerfd_settime,syscalls:sys_enter_futex,context-switches"

log() { echo "[pace_cost] $*" >&2; }
for b in perf memcached cc ss taskset; do command -v "$b" >/dev/null || { log "missing $b"; exit 1; }; done
FLUXPERF_JAR=${FLUXPERF_JAR:-}
if [ -z "$FLUXPERF_JAR" ]; then
    "$ROOT/fluxperf" --version >/dev/null || { log "building fluxperf failed"; exit 1; }
    FLUXPERF_JAR="$ROOT/cli/target/fluxperf.jar"
fi
# the jar runs as users run it: with the collector the launcher chose (checked once per build)
[ -n "${FLUXPERF_JAVA_OPTS+set}" ] || FLUXPERF_JAVA_OPTS=$(cat "$ROOT/cli/target/fluxperf.gc" 2>/dev/null || true)
cp "$FLUXPERF_JAR" "$OUTDIR/fluxperf.jar"
BASE_JAR=${BASE_JAR:-}
BASE_JAVA_OPTS=${BASE_JAVA_OPTS:-}
[ -z "$BASE_JAR" ] || cp "$BASE_JAR" "$OUTDIR/fluxperf-base.jar"
cc -O2 -o "$OUTDIR/pace_reference" "$HERE/lib/pace_reference.c" || exit 1

PORT=$(shuf -i 20000-30000 -n 1)
u=(); [ "$(id -u)" = 0 ] && u=(-u root)
taskset -c "$SERVER_CPU" memcached -t 1 -p "$PORT" -l "$HOST" -U 0 -m 1024 "${u[@]}" > "$OUTDIR/memcached.log" 2>&1 &
MC=$!
trap 'kill "$MC" 2>/dev/null' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/$HOST/$PORT") 2>/dev/null && break; sleep 0.1; done

mc_ops() {
    ( exec 3<>"/dev/tcp/$HOST/$PORT"; printf 'stats\r\nquit\r\n' >&3; timeout 2 cat <&3 ) 2>/dev/null | tr -d '\r' |
        awk '/^STAT cmd_get /{g=$3} /^STAT cmd_set /{s=$3} END{print g+s}'
}
# segments sent and received by the client's sockets to the server (both directions, once each)
client_segs() {
    ss -tin "dst $HOST:$PORT" 2>/dev/null | grep -o 'segs_\(out\|in\):[0-9]*' | awk -F: '{s+=$2} END{print s+0}'
}
proc_cpu() { awk '{print $14, $15}' "/proc/$1/stat"; }   # utime stime, ticks
HZ=$(getconf CLK_TCK)

measure() {  # <name> <seconds before counting> command...
    local name=$1 before=$2; shift 2
    taskset -c "$CLIENT_CPU" "$@" > "$OUTDIR/$name.out" 2>&1 &
    local pid=$!
    sleep "$before"
    local g0 s0 c0 g1 s1 c1
    g0=$(mc_ops); s0=$(client_segs); c0=$(proc_cpu "$pid")
    perf stat -x, -e "$EVENTS" -p "$pid" -o "$OUTDIR/$name.perf" -- sleep "$WINDOW" 2>/dev/null
    g1=$(mc_ops); s1=$(client_segs); c1=$(proc_cpu "$pid")
    wait "$pid"
    if [ -z "$g0" ] || [ -z "$g1" ]; then
        log "$name: the server's counters could not be read (a busy machine): no figures"
        return
    fi
    local n=$((g1 - g0))
    awk -F, -v n="$n" -v name="$name" -v seg=$((s1 - s0)) -v c0="$c0" -v c1="$c1" -v hz="$HZ" -v w="$WINDOW" '
        /^[0-9]/ { v[$3] = $1 }
        END {
            split(c0, a, " "); split(c1, b, " ")
            usr = (b[1] - a[1]) / hz * 1e6 / n; sys = (b[2] - a[2]) / hz * 1e6 / n
            waits = v["syscalls:sys_enter_epoll_wait"] + v["syscalls:sys_enter_epoll_pwait"] + v["syscalls:sys_enter_epoll_pwait2"] + v["syscalls:sys_enter_io_uring_enter"]
            writes = v["syscalls:sys_enter_write"] + v["syscalls:sys_enter_writev"] + v["syscalls:sys_enter_sendto"] + v["syscalls:sys_enter_sendmsg"]
            reads = v["syscalls:sys_enter_read"] + v["syscalls:sys_enter_readv"] + v["syscalls:sys_enter_recvfrom"] + v["syscalls:sys_enter_recvmsg"]
            printf "%-14s %8.0f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.2f %7.2f %7.2f %7.2f\n", name, n / w,
                v["raw_syscalls:sys_enter"] / n, waits / n, writes / n, reads / n,
                v["syscalls:sys_enter_timerfd_settime"] / n, v["syscalls:sys_enter_futex"] / n,
                v["context-switches"] / n, seg / n, usr, sys, usr + sys
        }' "$OUTDIR/$name.perf"
}

echo "# $(date -u '+%F %T UTC'), rate $RATE/s, $CONNS connections, memcached on CPU $SERVER_CPU, client on CPU $CLIENT_CPU, counted over ${WINDOW} s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %8s %8s %8s %8s %8s %8s %8s %8s %8s %7s %7s %7s\n' client req/s sysc/req waits/req wr/req rd/req tfd/req futex/req csw/req segs/req usr_us sys_us cpu_us
for r in $(seq 1 "$ROUNDS"); do
    for jar in fluxperf ${BASE_JAR:+fluxperf-base}; do
        opts=$BASE_JAVA_OPTS; [ "$jar" = fluxperf ] && opts=$FLUXPERF_JAVA_OPTS
        # shellcheck disable=SC2086
        measure $jar-$r 14 java $opts -jar "$OUTDIR/$jar.jar" run -s "$HOST:$PORT" -t 1 -c "$CONNS" --rate "$RATE" \
            --method get --hit --bytes 64 --keyspace 100000 --warmup 2 -d $((WINDOW + 14)) --no-live $FLUXPERF_ARGS
    done
    measure c_reference-$r 5 "$OUTDIR/pace_reference" "$HOST" "$PORT" "$RATE" "$CONNS" 1 100000 2 $((WINDOW + 6)) 1 sleep
done
log "outputs in $OUTDIR"
