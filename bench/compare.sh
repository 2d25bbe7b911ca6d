#!/usr/bin/env bash
# bench/compare.sh - fluxperf and its peers side by side, on this machine,
# against the same servers, with the ratios fluxperf/peer.
#
# For every workload, every tool runs REPEATS times, the tools taking turns
# (round r starts with the r-th tool), each run pinned to CLIENT_CPU while the
# server is pinned to SERVER_CPU. One table per workload, the median of each
# column taken separately over the kept repeats:
#
#   rps              requests/s (memaslap: its GET TPS)
#   p50 p99 p99.9    µs, as each tool reports them (fluxperf: HdrHistogram;
#                    memtier: its JSON; memaslap: log2 bucket upper bound "<=N")
#   cpu_us/req       client CPU (user+sys) per request. Peers: /usr/bin/time
#                    around the process / requests. fluxperf: its own JSON
#                    cpuNanosPerRequest, the process CPU of the measured window
#                    only (JVM start, JIT warm-up and the --hit preload excluded)
#   whole_us/req     fluxperf only: /usr/bin/time user+sys of the whole process
#                    (JVM start, preload, warm-up included) / measured requests
#   util cli/srv     CPU cores busy during the measurement: client (fluxperf:
#                    its window) / server (server CPU per server op × rps)
#   rps_ratio        fluxperf rps / this peer's rps             (>1: fluxperf faster)
#   cpu_ratio        fluxperf cpu_us/req / this peer's          (<1: fluxperf cheaper)
#   whole_ratio      fluxperf whole_us/req / this peer's whole process per request
#   srv_us/op        server CPU / operations it served (memcached cmd_get+cmd_set,
#                    redis total_commands_processed, nginx stub_status requests)
#   segs/op          TCP segments received machine-wide (/proc/net/snmp) / server ops
#   own_segs/op      TCP segments of the client's own connections to the server, both ways
#                    (ss -ti segs_out + segs_in, as bench/pace_cost.sh counts them) / server
#                    ops, over the last stretch of 1-s samples in which the same connections
#                    stayed open (fluxperf: its warm-up and window); other processes' traffic
#                    does not count. NA with a connection per request
#   spread           (max-min)/median of rps over the repeats, %
#   others           CPUs used by other processes during the run (>0.1: not clean)
#   runs             kept repeats / attempts
#
# Environment (defaults in brackets):
#   DURATION [10]    seconds measured per run (fluxperf: -d; memtier --test-time; ...)
#   WARMUP [2]       fluxperf --warmup seconds (so the JIT is warm when measuring)
#   REPEATS [3]      runs per tool and workload
#   ONLY             workloads to run [all]: mc_get_p1 mc_get_p16 mc_set_1k
#                    mc_rate20k mc_rate50k redis_get_p1 redis_get_p16
#                    redis_set_p1 redis_set_p16 redis_rate50k http_keepalive
#                    http_close http_rate20k trace_cost (fluxperf against
#                    itself with --trace)
#   MEMTIER          memtier_benchmark binary (its rows are skipped when unset)
#   FLUXPERF_JAR     jar to measure [the repo's cli/target/fluxperf.jar, built
#                    by ./fluxperf if stale]; copied into OUTDIR first, so a
#                    rebuild during the run does not change what is measured
#   FLUXPERF_JAVA_OPTS  JVM options of the measured jar's runs [the collector options
#                    the launcher ./fluxperf uses, from cli/target/fluxperf.gc; set empty for none]
#   BASE_JAVA_OPTS   JVM options of BASE_JAR's runs [none: the JVM's default collector, as an
#                    earlier launcher ran it]
#   BASE_JAR         a second fluxperf jar (an earlier build) run beside the first as the
#                    row fluxperf_base, in the same alternating rounds: the ratio columns of
#                    that row are after/before [none]
#   CDS [1]          each fluxperf jar runs with a class-data archive of its own, made by a
#                    short training run as the launcher makes it; 0: none
#   FLUXPERF_MALLOC_ARENA_MAX [2]  glibc's arena limit for the measured jar's runs, as the launcher
#                    sets it (BASE_JAR's runs keep the environment's: earlier launchers set none)
#   PEERS [1]        0: run no peer tools (for a before/after check of fluxperf alone)
#   PEERS_ANYWAY [0] 1: in workloads fluxperf cannot run yet, still run the peers
#   SERVER_CPU [0] CLIENT_CPU [1]   taskset CPUs
#   QUIET_MAX [0.25] QUIET_WAIT [120]  before each run, wait (at most
#                    QUIET_WAIT s) while other processes keep > QUIET_MAX CPUs busy
#   CLEAN_MAX        e.g. 0.1: re-run a repeat whose "others" is above it, up to
#                    MAX_TRIES [2*REPEATS] attempts per tool and workload
#   OUTDIR           raw outputs [new mktemp -d directory]
#   STALL_SECONDS [3]  fixed-rate workloads: seconds of bench/lib/cpu_stalls.py
#                    on CLIENT_CPU before the runs (the machine's own gaps, which
#                    no client can send through); 0 leaves it out
#   IDEAL_COSTS ["5 10 15 18"]  with it, the send lag p99 of an ideal client at
#                    the workload's rate needing each of these µs of CPU per request
#   REFERENCE_MODE [sleep]  fixed-rate workloads also run bench/lib/pace_reference.c
#                    (built with cc into OUTDIR), the plainest paced client in C, as
#                    the c_reference row: "sleep" waits in epoll like fluxperf's
#                    default, "busy" never blocks, like --busy-poll; "off" leaves it out
#
# Servers (memcached, redis-server, nginx) are started by this script on free
# random loopback ports (20000 up to the ephemeral range) and stopped on exit; only 127.0.0.1 is
# used. Every client run is bounded by `timeout` (DURATION*3+60 s).
# Output: tables on stdout, the same as markdown in $OUTDIR/summary.md, every
# attempt in $OUTDIR/raw.tsv, every tool's own output in $OUTDIR/NNN-*.

set -u
set -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")

DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
REPEATS=${REPEATS:-3}
ALL_WORKLOADS="mc_get_p1 mc_get_p16 mc_set_1k mc_rate20k mc_rate50k redis_get_p1 redis_get_p16 redis_set_p1 redis_set_p16 redis_rate50k http_keepalive http_close http_rate20k trace_cost"
ONLY=${ONLY:-$ALL_WORKLOADS}
MEMTIER=${MEMTIER:-}
FLUXPERF_JAR=${FLUXPERF_JAR:-}
BASE_JAR=${BASE_JAR:-}
BASE_JAVA_OPTS=${BASE_JAVA_OPTS:-}
CDS=${CDS:-1}
ARENAS=${FLUXPERF_MALLOC_ARENA_MAX-2}
PEERS=${PEERS:-1}
PEERS_ANYWAY=${PEERS_ANYWAY:-0}
SERVER_CPU=${SERVER_CPU:-0}
CLIENT_CPU=${CLIENT_CPU:-1}
QUIET_MAX=${QUIET_MAX:-0.25}
QUIET_WAIT=${QUIET_WAIT:-120}
CLEAN_MAX=${CLEAN_MAX:-}
MAX_TRIES=${MAX_TRIES:-$((2 * REPEATS))}
REFERENCE_MODE=${REFERENCE_MODE:-sleep}
CONNS=50                 # connections, one client thread, in every workload
KEYSPACE=100000          # keys 1..100000 for every tool that takes a key range
HOST=127.0.0.1
TIME_BIN=/usr/bin/time
RUN_LIMIT=$((DURATION * 3 + 60))
OUTDIR=${OUTDIR:-$(mktemp -d "${TMPDIR:-/tmp}/fluxperf-compare.XXXXXX")}
mkdir -p "$OUTDIR"
RAW="$OUTDIR/raw.tsv"
SUMMARY="$OUTDIR/summary.md"

# shellcheck source=lib/common.sh
. "$HERE/lib/common.sh"
# shellcheck source=lib/parsers.sh
. "$HERE/lib/parsers.sh"

trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM HUP

# ---------- prerequisites ----------
for b in taskset ss awk pgrep python3 java timeout shuf; do have "$b" || { log "missing $b"; exit 1; }; done
[ -x "$TIME_BIN" ] || { log "missing $TIME_BIN (apt-get install time)"; exit 1; }
[ "$(nproc)" -ge 2 ] || { log "need >= 2 CPUs for server/client pinning"; exit 1; }
if [ -n "$MEMTIER" ] && [ ! -x "$MEMTIER" ]; then log "MEMTIER=$MEMTIER is not executable: memtier rows skipped"; MEMTIER=""; fi
[ -n "$MEMTIER" ] || log "MEMTIER unset: memtier_benchmark rows skipped (see bench/README.md to build it)"
MEMASLAP=""
for b in memaslap memcaslap; do have "$b" && { MEMASLAP=$(command -v "$b"); break; }; done
[ -n "$MEMASLAP" ] || log "memaslap/memcaslap not installed (libmemcached-tools): its rows skipped"
# the C reference client of the fixed-rate workloads, built from its source for this run
REFERENCE=""
case "$REFERENCE_MODE" in
    off) ;;
    busy|sleep)
        if have cc && cc -O2 -o "$OUTDIR/pace_reference" "$HERE/lib/pace_reference.c" 2> "$OUTDIR/pace_reference.log"; then
            REFERENCE="$OUTDIR/pace_reference"
        else
            log "bench/lib/pace_reference.c could not be built (cc; see $OUTDIR/pace_reference.log): its rows skipped"
        fi ;;
    *) log "REFERENCE_MODE must be sleep, busy or off, not '$REFERENCE_MODE'"; exit 1 ;;
esac

# ---------- the fluxperf jar ----------
if [ -z "$FLUXPERF_JAR" ]; then
    "$ROOT/fluxperf" --version >/dev/null || { log "building fluxperf failed"; exit 1; }
    FLUXPERF_JAR="$ROOT/cli/target/fluxperf.jar"
fi
# measure the jar as users run it: with the JVM options the launcher chose (checked once per build)
if [ -z "${FLUXPERF_JAVA_OPTS+set}" ]; then
    FLUXPERF_JAVA_OPTS=$(tr "\n" " " < "$ROOT/cli/target/fluxperf.gc" 2>/dev/null || true)
fi
[ -f "$FLUXPERF_JAR" ] || { log "no jar at $FLUXPERF_JAR"; exit 1; }
JAR="$OUTDIR/fluxperf.jar"
cp "$FLUXPERF_JAR" "$JAR"
BASE=""
if [ -n "$BASE_JAR" ]; then
    [ -f "$BASE_JAR" ] || { log "no jar at $BASE_JAR"; exit 1; }
    BASE="$OUTDIR/fluxperf-base.jar"
    cp "$BASE_JAR" "$BASE"
fi
# each copied jar gets a class-data archive of its own, as the launchers make one (CDS=0: none)
FLUXPERF_JAVA_OPTS="$FLUXPERF_JAVA_OPTS $(cds_opts_for "$JAR" "$FLUXPERF_JAVA_OPTS")"
[ -n "$BASE" ] && BASE_JAVA_OPTS="$BASE_JAVA_OPTS $(cds_opts_for "$BASE" "$BASE_JAVA_OPTS")"
FP_VERSION=$(java -jar "$JAR" --version 2>/dev/null | head -n 1)
FP_HELP=$(java -jar "$JAR" run --help 2>&1)
GIT_REV=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
GIT_DIRTY=$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null | wc -l)
# does fluxperf's `run --protocol` list this protocol?
fluxperf_speaks() { grep -A3 -- '--protocol' <<< "$FP_HELP" | grep -qiw "$1"; }

HEADER="$(date -u '+%F %T UTC'), $(uname -r), nproc=$(nproc), cpu:$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
HEADER2="$FP_VERSION (git $GIT_REV, $GIT_DIRTY modified tracked files), java $(java -version 2>&1 | head -n1 | cut -d'"' -f2); DURATION=${DURATION}s WARMUP=${WARMUP}s REPEATS=$REPEATS; server CPU $SERVER_CPU, client CPU $CLIENT_CPU; $CONNS connections, 1 client thread; fluxperf JVM options: ${FLUXPERF_JAVA_OPTS:-none}, MALLOC_ARENA_MAX ${ARENAS:-unset}${BASE:+, base: ${BASE_JAVA_OPTS:-none}, MALLOC_ARENA_MAX ${MALLOC_ARENA_MAX:-unset}}"
log "raw outputs in $OUTDIR"
echo "# $HEADER"; echo "# $HEADER2"
{ echo "Measured $HEADER."; echo; echo "$HEADER2."; echo; } > "$SUMMARY"
{
    echo "# $HEADER"; echo "# $HEADER2"
    printf 'workload\ttool\tround\ttry\tkept\trequests\trps\tp50_us\tp99_us\tp999_us\tcpu_us_per_req\twhole_us_per_req\tuser_s\tsys_s\twall_s\trc\tsrv_cpu_s\tsrv_ops\tsrv_us_per_op\tsegs_per_op\town_segs_per_op\tcli_util\tsrv_util\tothers_cpus\tloadavg1\textra\tcmd\n'
} > "$RAW"

# ---------- servers (started on first use, stopped on exit) ----------
MC_PORT="" MC_PID="" REDIS_PORT="" REDIS_PID="" HTTP_PORT="" NGX_PID=""
SRV_OPS_FN=""    # prints the server's cumulative operation count (or NA)

start_pinned_server() {  # <name> <port> command... ; sets SPID
    local name=$1 port=$2; shift 2
    taskset -c "$SERVER_CPU" "$@" > "$OUTDIR/$name.log" 2>&1 &
    SPID=$!; STARTED_PIDS+=("$SPID")
    if ! wait_port "$port"; then log "$name did not start (see $OUTDIR/$name.log)"; stop_pid "$SPID"; SPID=""; return 1; fi
    log "$name pid $SPID on $HOST:$port (CPU $SERVER_CPU)"
}

mc_ops() {  # cmd_get + cmd_set of memcached
    ( exec 3<>"/dev/tcp/$HOST/$MC_PORT" || exit 1
      printf 'stats\r\nquit\r\n' >&3; timeout 2 cat <&3 ) 2>/dev/null | tr -d '\r' | \
        awk '/^STAT cmd_get /{g=$3} /^STAT cmd_set /{s=$3} END{ if (g=="") print "NA"; else print g+s }'
}
use_memcached() {
    if [ -z "$MC_PID" ]; then
        have memcached || { log "memcached not installed"; return 1; }
        MC_PORT=$(pick_port) || return 1
        local u=(); [ "$(id -u)" = 0 ] && u=(-u root)
        start_pinned_server memcached "$MC_PORT" memcached -t 1 -p "$MC_PORT" -l "$HOST" -U 0 -m 1024 "${u[@]}" || return 1
        MC_PID=$SPID
    fi
    SERVER_PIDS=$MC_PID; SRV_OPS_FN=mc_ops; SRV_PORT=$MC_PORT
}

redis_ops() { redis-cli -h "$HOST" -p "$REDIS_PORT" info stats 2>/dev/null | tr -d '\r' | awk -F: '/^total_commands_processed:/{print $2; f=1} END{if(!f) print "NA"}'; }
use_redis() {
    if [ -z "$REDIS_PID" ]; then
        have redis-server || { log "redis-server not installed"; return 1; }
        REDIS_PORT=$(pick_port) || return 1
        mkdir -p "$OUTDIR/redis"
        start_pinned_server redis "$REDIS_PORT" redis-server --port "$REDIS_PORT" --bind "$HOST" --save '' \
            --appendonly no --dir "$OUTDIR/redis" --daemonize no || return 1
        REDIS_PID=$SPID
    fi
    SERVER_PIDS=$REDIS_PID; SRV_OPS_FN=redis_ops; SRV_PORT=$REDIS_PORT
}

# nginx's request counter (stub_status; it counts these status requests too)
nginx_ops() {
    ( exec 3<>"/dev/tcp/$HOST/$HTTP_PORT" || exit 1
      printf 'GET /nginx_status HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3; timeout 2 cat <&3 ) 2>/dev/null | tr -d '\r' | \
        awk '/^ *[0-9]+ +[0-9]+ +[0-9]+ *$/ { print $3; found=1; exit } END { if (!found) print "NA" }'
}
use_nginx() {
    if [ -z "$NGX_PID" ]; then
        local ngx nd ngx_user=""
        ngx=$(command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; })
        [ -n "$ngx" ] || { log "nginx not installed"; return 1; }
        HTTP_PORT=$(pick_port) || return 1
        nd="$OUTDIR/nginx"; mkdir -p "$nd/logs" "$nd/html" "$nd/tmp"
        head -c 100 /dev/zero | tr '\0' 'a' > "$nd/html/small.txt"
        [ "$(id -u)" = 0 ] && ngx_user="user root;"
        cat > "$nd/nginx.conf" <<EOF
$ngx_user
worker_processes 1;
daemon off;
master_process on;
pid $nd/nginx.pid;
error_log $nd/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $nd/tmp/body;
  proxy_temp_path $nd/tmp/proxy;
  fastcgi_temp_path $nd/tmp/fastcgi;
  uwsgi_temp_path $nd/tmp/uwsgi;
  scgi_temp_path $nd/tmp/scgi;
  keepalive_requests 1000000;
  server {
    listen $HOST:$HTTP_PORT backlog=4096;
    root $nd/html;
    location / { }
    location = /nginx_status { stub_status; }
  }
}
EOF
        wrk_report_lua > "$OUTDIR/wrk-report.lua"
        # master + 1 worker, both inherit the pin; server_ticks covers the worker (pgrep -P)
        start_pinned_server nginx "$HTTP_PORT" "$ngx" -e "$nd/logs/error.log" -p "$nd/" -c "$nd/nginx.conf" || return 1
        NGX_PID=$SPID
    fi
    SERVER_PIDS=$NGX_PID; SRV_OPS_FN=nginx_ops; SRV_PORT=$HTTP_PORT
}

# ---------- one-run runners: each sets RES="requests rps p50 p99 p999", CPU_WIN, EXTRA ----------
one_fluxperf() {  # fluxperf run arguments beyond the common ones
    local json
    json="$OUTDIR/$(printf '%03d' $((RUN_SEQ + 1)))-fluxperf.json"
    # shellcheck disable=SC2086   # FLUXPERF_JAVA_OPTS is a list of words
    run_client "fluxperf-$CUR_WL" -- env ${ARENAS:+MALLOC_ARENA_MAX=$ARENAS} java $FLUXPERF_JAVA_OPTS -jar "$JAR" run -t 1 -c "$CONNS" \
        -d "$DURATION" -w 1 --warmup "$WARMUP" --keyspace "$KEYSPACE" --no-live --json "$json" "$@"
    local out line1 line2 req rps p50 p99 p999 cpuw
    out=$(parse_fluxperf "$json")
    line1=$(sed -n 1p <<< "$out"); line2=$(sed -n 2p <<< "$out")
    read -r req rps p50 p99 p999 cpuw <<< "$line1"
    RES="$req $rps $p50 $p99 $p999"; CPU_WIN=$cpuw; EXTRA=$line2
}

one_fluxperf_base() {  # one_fluxperf with BASE_JAR's jar (bash scoping: JAR is this call's)
    local JAR="$BASE" FLUXPERF_JAVA_OPTS="$BASE_JAVA_OPTS" ARENAS=""
    one_fluxperf "$@"
}

one_fluxperf_trace() {  # one_fluxperf with --trace into the run directory (removed afterwards)
    local trace
    trace="$OUTDIR/$(printf '%03d' $((RUN_SEQ + 1)))-trace"
    one_fluxperf --trace "$trace" "$@"
    rm -rf "$trace"
}

MT_POPULATED=" "   # "port:size" pairs memtier has written its whole key range with
memtier_populate() {  # <port> <protocol> <value size>
    case "$MT_POPULATED" in *" $1:$3 "*) return 0;; esac
    local json="$OUTDIR/populate-$2-$1-$3.json"
    run_client "memtier-populate-$2" -- "$MEMTIER" -s "$HOST" -p "$1" --protocol="$2" -t 1 -c "$CONNS" \
        --key-minimum=1 --key-maximum="$KEYSPACE" -d "$3" --hide-histogram \
        --ratio=1:0 --key-pattern=P:P --requests=allkeys --json-out-file="$json"
    log "memtier populate $2 :$1 ${3} B: $(parse_memtier "$json") (requests rps p50 p99 p999)"
    MT_POPULATED=" $1:$3$MT_POPULATED"
}
memtier_overwritten() { MT_POPULATED=" "; }   # after a memtier set run with another size
one_memtier() {  # <port> <protocol> [memtier args...]
    local port=$1 proto=$2; shift 2
    local json
    json="$OUTDIR/$(printf '%03d' $((RUN_SEQ + 1)))-memtier.json"
    # --distinct-client-seed --randomize: without them every memtier connection draws the same
    # key sequence, so 50 connections keep only a few thousand keys hot at a time and the server
    # answers from its CPU cache (bench/README.md, anomaly 3). fluxperf's connections draw
    # independent keys over the whole key space.
    run_client "memtier-$CUR_WL" -- "$MEMTIER" -s "$HOST" -p "$port" --protocol="$proto" -t 1 -c "$CONNS" \
        --key-minimum=1 --key-maximum="$KEYSPACE" --key-pattern=R:R --distinct-client-seed --randomize \
        --hide-histogram --test-time="$DURATION" --json-out-file="$json" "$@"
    RES=$(parse_memtier "$json"); CPU_WIN=NA; EXTRA=""
}
one_reference() {  # <port> <rate> [memcache|redis|http:PATH]: the C reference, one window of DURATION after WARMUP
    run_client "c_reference-$CUR_WL" -- "$REFERENCE" "$HOST" "$1" "$2" "$CONNS" 1 "$KEYSPACE" "$WARMUP" "$DURATION" 1 \
        "$REFERENCE_MODE" 50 "${3:-memcache}"
    local out line1
    out=$(parse_reference "$CLI_OUT")
    line1=$(sed -n 1p <<< "$out")
    RES=${line1% *}; CPU_WIN=${line1##* }; EXTRA=$(sed -n 2p <<< "$out")
}
one_memaslap() {  # <config file>
    # -w 2k x 50 concurrency = 102,400 keys, which memaslap SETs before its GETs
    run_client "memaslap-$CUR_WL" -- "$MEMASLAP" -s "$HOST:$MC_PORT" -T 1 -c "$CONNS" -t "${DURATION}s" \
        -X 64 -w 2k -F "$1" -S "${DURATION}s"
    RES=$(parse_memaslap "$CLI_OUT"); CPU_WIN=NA; EXTRA=""
}
one_redis_benchmark() {  # <get|set> <pipeline> <requests>
    run_client "redis-benchmark-$CUR_WL" -- redis-benchmark -h "$HOST" -p "$REDIS_PORT" \
        -t "$1" -n "$3" -c "$CONNS" -P "$2" -d 64 -r "$KEYSPACE" --threads 1
    RES="$3 $(parse_redis_benchmark "$CLI_OUT")"; CPU_WIN=NA; EXTRA=""
}
one_wrk() {  # <keepalive|close> <url>
    local hdr=() req rps p50 p99 p999 err
    [ "$1" = close ] && hdr=(-H 'Connection: close')
    run_client "wrk-$CUR_WL" -- wrk -t1 -c"$CONNS" -d"${DURATION}s" --latency "${hdr[@]}" -s "$OUTDIR/wrk-report.lua" "$2"
    read -r req rps p50 p99 p999 err < <(parse_wrk "$CLI_OUT")
    RES="$req $rps $p50 $p99 $p999"; CPU_WIN=NA; EXTRA="errors=$err"
}

# ---------- the comparison of one workload ----------
# compare_begin <id> <title>; add_tool <tool> <runner> [args...] (fluxperf first); compare_run
compare_begin() {
    CUR_WL=$1; CUR_TITLE=$2; TOOLS=(); RUNNERS=(); FP_SKIP=""; STALLS=""
    declare -gA V=()
}
add_tool() {
    local tool=$1; shift
    if [ "$tool" = fluxperf ] && [ -n "$FP_SKIP" ]; then return 0; fi
    case "$tool" in
        fluxperf*) ;;
        *) [ "$PEERS" = 0 ] && return 0 ;;
    esac
    TOOLS+=("$tool"); RUNNERS+=("$(printf '%q ' "$@")")
    # BASE_JAR: the same run with the earlier jar, right after in every round
    if [ "$tool" = fluxperf ] && [ -n "$BASE" ] && [ "$1" = one_fluxperf ]; then
        shift
        TOOLS+=(fluxperf_base); RUNNERS+=("$(printf '%q ' one_fluxperf_base "$@")")
    fi
}
# skip_workload <reason>: the workload is not run; prints the skip line
skip_workload() {
    echo; echo "== $CUR_WL: $CUR_TITLE =="; echo "skipped: $1"
    { echo "### $CUR_WL: $CUR_TITLE"; echo; echo "skipped: $1"; echo; } >> "$SUMMARY"
}
# fluxperf_lacks <reason>: fluxperf cannot run this workload yet. Returns 1
# (skip the workload) unless PEERS_ANYWAY=1: then the peers still run and the
# table says why fluxperf is missing.
fluxperf_lacks() {
    if [ "$PEERS_ANYWAY" = 1 ]; then FP_SKIP=$1; return 0; fi
    skip_workload "$1"; return 1
}

# TCP segments received machine-wide (loopback: every segment sent is also received)
tcp_insegs() { awk '/^Tcp:/ { if (!h) { for (i=1;i<=NF;i++) if ($i=="InSegs") c=i; h=1 } else { print $c; exit } }' /proc/net/snmp; }

# Every second while a client runs: the time, the server's operation count, the client connections'
# segments (both ways) and a fingerprint of which connections are open (their local ports). ss
# comes first, so the counter's own short connection is not among them.
own_segs_sampler() {  # <file>
    while :; do
        local conns
        conns=$(ss -tinH state established "dst $HOST:$SRV_PORT" 2>/dev/null |
            awk '/^[^ \t]/ { n++; k=split($3, a, ":"); h=(h*31 + a[k]) % 1000000007 }   # a connection: its local port
                 { for (i=1;i<=NF;i++) if ($i ~ /^segs_(out|in):/) { split($i, kv, ":"); s+=kv[2] } }
                 END { print s+0, n+0, h+0 }')
        echo "$conns $($SRV_OPS_FN)" >> "$1"
        sleep 1
    done
}

# own_segs_per_op <file>: segments / server ops over the last stretch with the same connections open
# (fluxperf's preload has connections of its own; the last are the warm-up's and the window's),
# from its second sample on (the first may hold the connects)
own_segs_per_op() {
    awk '$4 == "NA" { next }
         $2 == 0 || $3 != h || $2 != c { h=$3; c=$2; k=0 }
         $2 > 0 { k++; if (k == 2) { s0=$1; o0=$4 } else if (k > 2) { s1=$1; o1=$4; ok=1 } else ok=0 }
         END { if (ok && o1 > o0) printf "%.2f", (s1 - s0) / (o1 - o0); else print "NA" }' "$1" 2>/dev/null || echo NA
}

run_once() {  # <tool index> <round>
    local i=$1 round=$2 tool=${TOOLS[$1]} tries=0 keep req rps p50 p99 p999 cpu whole cli_util
    local o0 o1 g0 g1 segs ops srv_op srv_util best="" best_oth="" best_try=""
    while :; do
        wait_quiet
        tries=$((tries + 1))
        RES="0 NA NA NA NA"; CPU_WIN=NA; EXTRA=""
        o0=$($SRV_OPS_FN); g0=$(tcp_insegs)
        local own_file="$OUTDIR/$(printf '%03d' $((RUN_SEQ + 1)))-own-segs.txt" sampler own
        own_segs_sampler "$own_file" & sampler=$!
        eval "${RUNNERS[$i]}"
        kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
        own=$(own_segs_per_op "$own_file")
        g1=$(tcp_insegs); o1=$($SRV_OPS_FN)
        read -r req rps p50 p99 p999 <<< "$RES"
        whole=$(awk -v u="$CLI_USER" -v s="$CLI_SYS" -v n="$req" 'BEGIN{ if (u!="NA" && n>0) printf "%.3f", (u+s)/n*1e6; else print "NA" }')
        if [ "$CPU_WIN" != NA ]; then   # fluxperf and the C reference: CPU of the measured window
            cpu=$CPU_WIN
            cli_util=$(sed -n 's/.*win_cores=\([^ ]*\).*/\1/p' <<< "$EXTRA"); cli_util=${cli_util:-NA}
        else
            cpu=$whole
            cli_util=$(awk -v u="$CLI_USER" -v s="$CLI_SYS" -v w="$CLI_WALL" 'BEGIN{ if (u=="NA"||w<=0) print "NA"; else printf "%.2f", (u+s)/w }')
        fi
        ops=$(awk -v a="$o0" -v b="$o1" 'BEGIN{ if (a=="NA"||b=="NA"||a==""||b=="") print "NA"; else print b-a }')
        # TCP segments per server operation (machine-wide counter: clean only when others ~0)
        segs=$(awk -v a="$g0" -v b="$g1" -v n="$ops" 'BEGIN{ if (n=="NA"||n<=0||a==""||b=="") print "NA"; else printf "%.2f", (b-a)/n }')
        # server util during the measurement = server CPU per op x client rps
        # (fluxperf's process also preloads and warms up; per-op cost covers that)
        srv_op=$(awk -v c="$SRV_CPU" -v n="$ops" 'BEGIN{ if (n=="NA"||n<=0) print "NA"; else printf "%.3f", c/n*1e6 }')
        if [ "$srv_op" != NA ]; then
            srv_util=$(awk -v s="$srv_op" -v r="$rps" 'BEGIN{ if (r=="NA") print "NA"; else printf "%.2f", s*r/1e6 }')
        else
            srv_util=$(awk -v c="$SRV_CPU" -v w="$CLI_WALL" 'BEGIN{ if (w=="NA"||w<=0) print "NA"; else printf "%.2f", c/w }')
        fi
        # clean = taken while other processes were (nearly) idle, and the run produced figures
        local clean=1 ok=1
        [ "$req" = 0 ] || [ "$rps" = NA ] && ok=0
        if [ -n "$CLEAN_MAX" ] && awk -v o="$OTHERS" -v m="$CLEAN_MAX" 'BEGIN{exit !(o == "NA" || o > m)}'; then
            clean=0
        fi
        keep=0; [ "$clean" = 1 ] && [ "$ok" = 1 ] && keep=1
        printf '%s\t' "$CUR_WL" "$tool" "$round" "$tries" "$keep" "$req" "$rps" "$p50" "$p99" "$p999" "$cpu" "$whole" \
            "$CLI_USER" "$CLI_SYS" "$CLI_WALL" "$CLI_RC" "$SRV_CPU" "$ops" "$srv_op" "$segs" "$own" "$cli_util" "$srv_util" "$OTHERS" "$LOAD1" "$EXTRA" >> "$RAW"
        printf '%s\n' "$CLI_CMD" >> "$RAW"
        log "$CUR_WL $tool round=$round try=$tries kept=$keep rps=$rps p50=$p50 p99=$p99 p999=$p999 cpu_us/req=$cpu whole=$whole" \
            "util=$cli_util/$srv_util srv_us/op=$srv_op segs/op=$segs own_segs/op=$own others=$OTHERS rc=$CLI_RC ${EXTRA}"
        local this="$rps|$p50|$p99|$p999|$cpu|$whole|$cli_util|$srv_util|$srv_op|$segs|$own|$OTHERS|$EXTRA"
        [ "$keep" = 1 ] && break
        # remember the least disturbed attempt that produced figures
        if [ "$ok" = 1 ] && { [ -z "$best" ] || awk -v o="$OTHERS" -v b="$best_oth" 'BEGIN{exit !(o != "NA" && (b == "NA" || o < b))}'; }; then
            best=$this; best_oth=$OTHERS; best_try=$tries
        fi
        if [ "$tries" -ge "$MAX_TRIES" ]; then
            if [ -n "$best" ]; then
                this=$best
                log "$CUR_WL $tool round=$round: no clean attempt in $tries; keeping attempt $best_try (others=$best_oth)"
                printf '# kept\t%s\t%s\t%s\t%s (least disturbed, no clean attempt)\n' "$CUR_WL" "$tool" "$round" "$best_try" >> "$RAW"
            else
                log "$CUR_WL $tool round=$round: $tries attempts, none produced figures"
            fi
            break
        fi
    done
    IFS='|' read -r rps p50 p99 p999 cpu whole cli_util srv_util srv_op segs own OTHERS EXTRA <<< "$this"
    V[$i,rps]+="$rps "; V[$i,p50]+="$p50 "; V[$i,p99]+="$p99 "; V[$i,p999]+="$p999 "
    V[$i,cpu]+="$cpu "; V[$i,whole]+="$whole "; V[$i,cu]+="$cli_util "; V[$i,su]+="$srv_util "
    V[$i,sop]+="$srv_op "; V[$i,seg]+="$segs "; V[$i,own]+="$own "
    V[$i,oth]+="$OTHERS "; V[$i,kept]=$(( ${V[$i,kept]:-0} + 1 )); V[$i,tries]=$(( ${V[$i,tries]:-0} + tries ))
    [ -n "$EXTRA" ] && V[$i,extra]+="$EXTRA"$'\n'
    return 0
}

# med <tool index> <column> [decimals]: median of the kept repeats, rounded
med() {
    local w m; read -ra w <<< "${V[$1,$2]:-}"; m=$(col_median "${w[@]}")
    awk -v x="$m" -v d="${3:-}" 'BEGIN{ if (x=="NA"||x==""||d=="") print x; else printf "%.*f\n", d, x }'
}

compare_run() {
    local n=${#TOOLS[@]} round k i
    [ "$n" -gt 0 ] || return 0
    for round in $(seq 1 "$REPEATS"); do
        for k in $(seq 0 $((n - 1))); do
            run_once $(( (k + round - 1) % n )) "$round"
        done
    done
    compare_report
}

compare_report() {
    local n=${#TOOLS[@]} i fp="" r_rps r_cpu r_whole lt p50 p99 p999 w spread
    for i in $(seq 0 $((n - 1))); do [ "${TOOLS[$i]}" = fluxperf ] && fp=$i; done
    echo; echo "== $CUR_WL: $CUR_TITLE =="
    [ -n "$FP_SKIP" ] && echo "fluxperf skipped: $FP_SKIP"
    printf '%-17s %9s %7s %7s %7s %10s %12s %9s %9s %9s %11s %10s %8s %12s %7s %6s %5s\n' tool rps p50 p99 p99.9 \
        cpu_us/req whole_us/req cli/srv rps_ratio cpu_ratio whole_ratio srv_us/op segs/op own_segs/op spread% others runs
    {
        echo "### $CUR_WL: $CUR_TITLE"; echo
        [ -n "$FP_SKIP" ] && { echo "fluxperf skipped: $FP_SKIP"; echo; }
        echo "| tool | rps | p50 µs | p99 µs | p99.9 µs | client CPU µs/req | fluxperf whole-process µs/req | util cli/srv | rps fluxperf/peer | CPU fluxperf/peer | whole-process CPU fluxperf/peer | server µs/op | TCP segs/op, machine-wide | TCP segs/op, own connections | rps spread | others | runs |"
        echo "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    } >> "$SUMMARY"
    for i in $(seq 0 $((n - 1))); do
        lt=""; case "${V[$i,p50]}" in '<='*) lt="<=";; esac
        p50=$lt$(med "$i" p50 0); p99=$lt$(med "$i" p99 0); p999=$lt$(med "$i" p999 0)
        read -ra w <<< "${V[$i,rps]}"; spread=$(col_spread "${w[@]}")
        local m_rps m_cpu m_whole
        m_rps=$(med "$i" rps 0); m_cpu=$(med "$i" cpu 2); m_whole=$(med "$i" whole 2)
        r_rps="-" r_cpu="-" r_whole="-"
        if [ -n "$fp" ] && [ "$i" != "$fp" ]; then
            r_rps=$(ratio "$(med "$fp" rps)" "$(med "$i" rps)")
            r_cpu=$(ratio "$(med "$fp" cpu)" "$(med "$i" cpu)")
            r_whole=$(ratio "$(med "$fp" whole)" "$(med "$i" whole)")   # the peer's whole process too
        fi
        [ "$i" = "$fp" ] || m_whole="-"
        local util="$(med "$i" cu 2)/$(med "$i" su 2)" runs="${V[$i,kept]}/${V[$i,tries]}"
        local sop seg own; sop=$(med "$i" sop 2); seg=$(med "$i" seg 2); own=$(med "$i" own 2)
        printf '%-17s %9s %7s %7s %7s %10s %12s %9s %9s %9s %11s %10s %8s %12s %7s %6s %5s\n' "${TOOLS[$i]}" "$m_rps" \
            "$p50" "$p99" "$p999" "$m_cpu" "$m_whole" "$util" "$r_rps" "$r_cpu" "$r_whole" "$sop" "$seg" "$own" "$spread" "$(med "$i" oth 2)" "$runs"
        printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%% | %s | %s |\n' "${TOOLS[$i]}" \
            "$m_rps" "$p50" "$p99" "$p999" "$m_cpu" "$m_whole" "$util" \
            "$r_rps" "$r_cpu" "$r_whole" "$sop" "$seg" "$own" "$spread" "$(med "$i" oth 2)" "$runs" >> "$SUMMARY"
    done
    echo >> "$SUMMARY"
    if [ -n "$fp" ] && [ "$REPEATS" -gt 1 ]; then
        # each round runs every tool back to back, so a round's own ratio leaves out the machine's
        # drift between rounds, which the ratio of medians above keeps
        for i in $(seq 0 $((n - 1))); do
            [ "$i" = "$fp" ] && continue
            notes=$(paired_ratios "${TOOLS[$i]}" "${V[$fp,rps]}" "${V[$i,rps]}" "${V[$fp,cpu]}" "${V[$i,cpu]}")
            echo "$notes"; echo "$notes" >> "$SUMMARY"; echo >> "$SUMMARY"
        done
    fi
    if [ -n "$STALLS" ]; then
        echo "client CPU $CLIENT_CPU before the runs, $STALLS"
        { echo "client CPU $CLIENT_CPU before the runs, ${STALLS//$'\n'/; }"; echo; } >> "$SUMMARY"
    fi
    if [ -n "$fp" ] && [ -n "${V[$fp,extra]:-}" ]; then
        # fluxperf's own view of each run: outcomes, service time, send lag, window rates
        local notes
        notes=$(printf '%s' "${V[$fp,extra]}" | awk '
            { for (i=1;i<=NF;i++) { split($i,kv,"="); v[kv[1]]=v[kv[1]] (NR>1?",":"") kv[2] } }
            END { printf "fluxperf per run: errors %s; timeouts %s; closed %s; misses %s; service p50 %s µs, p99 %s µs; send lag p99 %s µs; waited for a connection with room %s ms (%s of it behind); lowest window rate %s, highest %s (target %s); window CPU cores %s; busiest load thread on CPU %s of the run; stop %s",
                  v["errors"], v["timeouts"], v["closed"], v["misses"], v["svc_p50"], v["svc_p99"], v["lag_p99"], v["room_ms"], v["room_behind_ms"], v["min_win_rate"], v["max_win_rate"], v["target"], v["win_cores"], v["loop_share"], v["stop"] }')
        echo "$notes"; echo "$notes" >> "$SUMMARY"; echo >> "$SUMMARY"
    fi
    local notes
    for i in $(seq 0 $((n - 1))); do
        [ "${TOOLS[$i]}" = c_reference ] && [ -n "${V[$i,extra]:-}" ] || continue
        # the plainest paced client's send lag at the same time: the floor for fluxperf's
        notes=$(printf '%s' "${V[$i,extra]}" | awk -v mode="$REFERENCE_MODE" '
            { for (i=1;i<=NF;i++) { split($i,kv,"="); v[kv[1]]=v[kv[1]] (NR>1?",":"") kv[2] } }
            END { printf "c_reference (%s) per run: send lag p99 %s µs, largest %s µs; waited for a connection with room %s ms (%s of it behind); window CPU cores %s; misses %s",
                  mode, v["lag_p99"], v["lag_max"], v["room_ms"], v["room_behind_ms"], v["win_cores"], v["misses"] }')
        echo "$notes"; echo "$notes" >> "$SUMMARY"; echo >> "$SUMMARY"
    done
}

# ---------- workloads: one function each ----------
wl_mc_get_p1() {
    compare_begin mc_get_p1 "memcache get hit, 64 B values, pipeline 1"
    use_memcached || { skip_workload "memcached could not be started"; return; }
    add_tool fluxperf one_fluxperf -s "$HOST:$MC_PORT" --method get --hit --bytes 64 --pipeline 1
    if [ -n "$MEMASLAP" ]; then
        printf 'key\n16 16 1\nvalue\n64 64 1\ncmd\n0 0\n1 1\n' > "$OUTDIR/memaslap-get.cfg"
        add_tool memaslap one_memaslap "$OUTDIR/memaslap-get.cfg"
    fi
    if [ -n "$MEMTIER" ]; then
        memtier_populate "$MC_PORT" memcache_text 64
        add_tool memtier_benchmark one_memtier "$MC_PORT" memcache_text --ratio=0:1 -d 64 --pipeline=1
    fi
    compare_run
}
# the cost of --trace: fluxperf against itself, the "peer" being the traced run
wl_trace_cost() {
    compare_begin trace_cost "memcache get hit, 64 B values, pipeline 1: fluxperf without and with --trace"
    use_memcached || { skip_workload "memcached could not be started"; return; }
    add_tool fluxperf one_fluxperf -s "$HOST:$MC_PORT" --method get --hit --bytes 64 --pipeline 1
    add_tool fluxperf_trace one_fluxperf_trace -s "$HOST:$MC_PORT" --method get --hit --bytes 64 --pipeline 1
    compare_run
}
wl_mc_get_p16() {
    compare_begin mc_get_p16 "memcache get hit, 64 B values, pipeline 16"
    use_memcached || { skip_workload "memcached could not be started"; return; }
    add_tool fluxperf one_fluxperf -s "$HOST:$MC_PORT" --method get --hit --bytes 64 --pipeline 16
    if [ -n "$MEMTIER" ]; then
        memtier_populate "$MC_PORT" memcache_text 64
        add_tool memtier_benchmark one_memtier "$MC_PORT" memcache_text --ratio=0:1 -d 64 --pipeline=16
    fi
    compare_run
}
wl_mc_set_1k() {
    compare_begin mc_set_1k "memcache set, 1 KB values, pipeline 1"
    use_memcached || { skip_workload "memcached could not be started"; return; }
    add_tool fluxperf one_fluxperf -s "$HOST:$MC_PORT" --method set --bytes 1024 --pipeline 1
    if [ -n "$MEMTIER" ]; then
        add_tool memtier_benchmark one_memtier "$MC_PORT" memcache_text --ratio=1:0 -d 1024 --pipeline=1
        memtier_overwritten    # its keys now hold 1 KB values: get workloads populate again
    fi
    compare_run
}
mc_rate() {  # <rate>
    compare_begin "mc_rate$(($1 / 1000))k" "memcache get hit, 64 B values, fixed rate $1/s (open loop)"
    use_memcached || { skip_workload "memcached could not be started"; return; }
    # what the machine lets any client do at a fixed rate: the gaps a thread that never waits sees
    if [ "${STALL_SECONDS:-3}" != 0 ]; then
        wait_quiet
        # and the send lag they would give an ideal client at this rate, per CPU cost of a request
        STALLS=$(taskset -c "$CLIENT_CPU" python3 "$HERE/lib/cpu_stalls.py" "${STALL_SECONDS:-3}" "$1" ${IDEAL_COSTS:-5 10 15 18})
    fi
    add_tool fluxperf one_fluxperf -s "$HOST:$MC_PORT" --method get --hit --bytes 64 --pipeline 1 --rate "$1"
    [ -n "$REFERENCE" ] && add_tool c_reference one_reference "$MC_PORT" "$1"
    if [ -n "$MEMTIER" ]; then
        memtier_populate "$MC_PORT" memcache_text 64
        # --rate-limiting is per connection
        add_tool memtier_benchmark one_memtier "$MC_PORT" memcache_text --ratio=0:1 -d 64 --pipeline=1 \
            --rate-limiting=$(($1 / CONNS))
    fi
    compare_run
}
wl_mc_rate20k() { mc_rate 20000; }
wl_mc_rate50k() { mc_rate 50000; }

# the machine's own gaps at a fixed rate (see mc_rate); sets STALLS
fixed_rate_stalls() {  # <rate>
    if [ "${STALL_SECONDS:-3}" != 0 ]; then
        wait_quiet
        STALLS=$(taskset -c "$CLIENT_CPU" python3 "$HERE/lib/cpu_stalls.py" "${STALL_SECONDS:-3}" "$1" ${IDEAL_COSTS:-5 10 15 18})
    fi
}
wl_redis_rate50k() {
    compare_begin redis_rate50k "redis get hit, 64 B values, fixed rate 50000/s (open loop)"
    if ! fluxperf_speaks redis; then fluxperf_lacks "fluxperf has no redis yet" || return 0; fi
    use_redis || { skip_workload "redis-server could not be started"; return; }
    fixed_rate_stalls 50000
    add_tool fluxperf one_fluxperf -s "$HOST:$REDIS_PORT" --protocol redis --method get --hit --bytes 64 --pipeline 1 --rate 50000
    [ -n "$REFERENCE" ] && add_tool c_reference one_reference "$REDIS_PORT" 50000 redis
    if [ -n "$MEMTIER" ]; then
        memtier_populate "$REDIS_PORT" redis 64
        add_tool memtier_benchmark one_memtier "$REDIS_PORT" redis --ratio=0:1 -d 64 --pipeline=1 \
            --rate-limiting=$((50000 / CONNS))
    fi
    compare_run
}
wl_http_rate20k() {
    compare_begin http_rate20k "HTTP GET of a 100-byte file, keep-alive, fixed rate 20000/s (open loop)"
    if ! fluxperf_speaks http; then fluxperf_lacks "fluxperf has no http yet" || return 0; fi
    use_nginx || { skip_workload "nginx could not be started"; return; }
    fixed_rate_stalls 20000
    add_tool fluxperf one_fluxperf -s "$HOST:$HTTP_PORT" --protocol http --method get --path /small.txt --rate 20000
    [ -n "$REFERENCE" ] && add_tool c_reference one_reference "$HTTP_PORT" 20000 http:/small.txt
    compare_run
}

# redis and HTTP: skipped (or peers only, PEERS_ANYWAY=1) while the fluxperf
# jar's `run --help` does not list the protocol under --protocol.
redis_wl() {  # <get|set> <pipeline>
    compare_begin "redis_$1_p$2" "redis $1, 64 B values, pipeline $2"
    if ! fluxperf_speaks redis; then fluxperf_lacks "fluxperf has no redis yet" || return 0; fi
    use_redis || { skip_workload "redis-server could not be started"; return; }
    local hit=(); [ "$1" = get ] && hit=(--hit)
    add_tool fluxperf one_fluxperf -s "$HOST:$REDIS_PORT" --protocol redis --method "$1" "${hit[@]}" --bytes 64 --pipeline "$2"
    if have redis-benchmark; then
        # its keys are key:<random below -r>: 5 x KEYSPACE random SETs leave <1% of its GETs missing
        [ "$1" = get ] && taskset -c "$CLIENT_CPU" redis-benchmark -h "$HOST" -p "$REDIS_PORT" -t set \
            -n $((5 * KEYSPACE)) -r "$KEYSPACE" -P 16 -d 64 -q > /dev/null 2>&1
        local n=$((90000 * DURATION)); [ "$2" -gt 1 ] && n=$((1200000 * DURATION))
        add_tool redis-benchmark one_redis_benchmark "$1" "$2" "$n"
    fi
    if [ -n "$MEMTIER" ]; then
        [ "$1" = get ] && memtier_populate "$REDIS_PORT" redis 64
        local ratio=0:1; [ "$1" = set ] && ratio=1:0
        add_tool memtier_benchmark one_memtier "$REDIS_PORT" redis --ratio=$ratio -d 64 --pipeline="$2"
    fi
    compare_run
}
wl_redis_get_p1()  { redis_wl get 1; }
wl_redis_get_p16() { redis_wl get 16; }
wl_redis_set_p1()  { redis_wl set 1; }
wl_redis_set_p16() { redis_wl set 16; }

http_wl() {  # <keepalive|close>
    local what="keep-alive"; [ "$1" = close ] && what="a new connection per request (Connection: close)"
    compare_begin "http_$1" "HTTP GET of a 100-byte file, $what"
    if ! fluxperf_speaks http; then fluxperf_lacks "fluxperf has no http yet" || return 0; fi
    use_nginx || { skip_workload "nginx could not be started"; return; }
    local url="http://$HOST:$HTTP_PORT/small.txt"
    local fp=(-s "$HOST:$HTTP_PORT" --protocol http --method get --path /small.txt)
    # like wrk's Connection: close run: one request per connection, the server closes it
    [ "$1" = close ] && fp+=(--connect-per-request --header 'Connection: close')
    add_tool fluxperf one_fluxperf "${fp[@]}"
    have wrk && add_tool wrk one_wrk "$1" "$url"
    compare_run
}
wl_http_keepalive() { http_wl keepalive; }
wl_http_close()     { http_wl close; }

# ---------- main ----------
for wl in $ONLY; do
    if declare -F "wl_$wl" > /dev/null; then
        "wl_$wl"
    else
        log "unknown workload '$wl' (known: $ALL_WORKLOADS)"
    fi
done
log "done; markdown summary: $SUMMARY; every attempt: $RAW"
