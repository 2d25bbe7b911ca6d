# bench/lib/common.sh - process handling, CPU accounting, the quiet-machine
# wait and the one-client-run primitive used by bench/compare.sh.
# Sourced, not executed. Adapted from ../shared/bench/peers.sh (our own
# shared script): stop_pid/cleanup, machine_ticks/server_ticks, wait_quiet
# and run_client are the same ideas, with a per-run time limit and random
# free ports added.
#
# Expects (set by the caller): HOST OUTDIR RAW SERVER_CPU CLIENT_CPU
# QUIET_MAX QUIET_WAIT TIME_BIN RUN_LIMIT (seconds, hard limit per client run).

STARTED_PIDS=()    # servers this script started (stopped on EXIT)
SERVER_PIDS=""     # server processes of the workload being measured
CLIENT_PID=""      # the client currently running (/usr/bin/time), if any
USED_PORTS=" "
RUN_SEQ=0
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)

log() { echo "[compare] $*" >&2; }

# cds_opts_for <jar> <its JVM options>: makes the jar a class-data archive beside it (<jar>.jsa),
# with the short training run the launchers (today's and earlier ones) make theirs with, and prints
# the JVM options that use it; nothing when CDS is 0 or the training run failed. A bench that runs
# a copied jar without one measures a start-up and a JIT's work in the windows that users don't get.
cds_opts_for() {
    [ "${CDS:-1}" = 1 ] || return 0
    local jsa="${1%.jar}.jsa" training="${1%.jar}-cds-run"
    rm -f "$jsa"
    # shellcheck disable=SC2086   # the JVM options are a list of words
    java $2 -XX:ArchiveClassesAtExit="$jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$1" \
        run --requests 2000 -c 2 --no-live --out "$training" > /dev/null 2>&1 || rm -f "$jsa"
    rm -rf "$training"
    if [ -f "$jsa" ]; then
        echo "-XX:SharedArchiveFile=$jsa -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off"
    else
        log "no class-data archive could be made for $1: it runs without one"
    fi
}
have() { command -v "$1" >/dev/null 2>&1; }
# any TCP socket on the port, listening or not (a connection's end or one in TIME_WAIT blocks a bind too)
port_busy() { ss -Htan "sport = :$1" 2>/dev/null | grep -q .; }

# a free TCP port below the kernel's ephemeral range (connections of earlier runs take those:
# nginx once failed to bind one), never one handed out before in this run
pick_port() {
    local p lo=20000 hi
    hi=$(awk '{print $1 - 1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32767)
    [ "$hi" -gt "$lo" ] 2>/dev/null || hi=32767
    for _ in $(seq 1 200); do
        p=$(shuf -i "$lo-$hi" -n 1)
        case "$USED_PORTS" in *" $p "*) continue;; esac
        port_busy "$p" && continue
        USED_PORTS="$USED_PORTS$p "
        echo "$p"; return 0
    done
    return 1
}

wait_port() {  # wait (10 s at most) until something accepts on $HOST:$1
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

stop_pid() {  # stop one process we started (TERM, then KILL after 5 s)
    local pid=$1 p keep=()
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    fi
    for p in "${STARTED_PIDS[@]}"; do [ "$p" = "$pid" ] || keep+=("$p"); done
    STARTED_PIDS=("${keep[@]}")
}

cleanup() {
    local pid
    if [ -n "$CLIENT_PID" ] && kill -0 "$CLIENT_PID" 2>/dev/null; then
        # CLIENT_PID is /usr/bin/time -> timeout -> client: stop that chain only
        for pid in $(pgrep -P "$CLIENT_PID" 2>/dev/null); do
            kill -TERM "$pid" 2>/dev/null    # timeout forwards TERM to the client
        done
        sleep 0.3
        kill -TERM "$CLIENT_PID" 2>/dev/null; wait "$CLIENT_PID" 2>/dev/null
    fi
    for pid in "${STARTED_PIDS[@]}"; do stop_pid "$pid"; done
}

# machine busy ticks (user+nice+system+irq+softirq+steal) from /proc/stat
machine_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9; exit}' /proc/stat; }
# utime+stime ticks of the current server processes and their children
server_ticks() {
    local p c t=0 v
    for p in $SERVER_PIDS; do
        for c in $p $(pgrep -P "$p" 2>/dev/null); do
            v=$(awk '{print $14+$15}' "/proc/$c/stat" 2>/dev/null) && [ -n "$v" ] && t=$((t + v))
        done
    done
    echo $t
}

# wait (at most QUIET_WAIT s) until other work keeps fewer than QUIET_MAX CPUs busy
wait_quiet() {
    [ "$QUIET_WAIT" -gt 0 ] 2>/dev/null || return 0
    local start=$SECONDS b0 b1 s0 s1 busy
    while :; do
        b0=$(machine_ticks); s0=$(server_ticks); sleep 2
        b1=$(machine_ticks); s1=$(server_ticks)
        busy=$(awk -v d=$(( (b1 - b0) - (s1 - s0) )) -v hz="$HZ" 'BEGIN{printf "%.2f", d/hz/2}')
        if awk -v b="$busy" -v m="$QUIET_MAX" 'BEGIN{exit !(b <= m)}'; then return 0; fi
        if [ $((SECONDS - start)) -ge "$QUIET_WAIT" ]; then
            log "machine still busy (${busy} CPUs used by others) after ${QUIET_WAIT}s; running anyway"
            return 0
        fi
        log "waiting for quiet machine (${busy} CPUs used by others)"
    done
}

# run_client <tag> -- command...
# Runs the command pinned to CLIENT_CPU under /usr/bin/time and a hard time
# limit (RUN_LIMIT s). Sets CLI_OUT CLI_USER CLI_SYS CLI_WALL SRV_CPU OTHERS
# LOAD1 CLI_CMD CLI_RC.
run_client() {
    local tag=$1; shift; [ "$1" = "--" ] && shift
    RUN_SEQ=$((RUN_SEQ + 1))
    CLI_OUT="$OUTDIR/$(printf '%03d' $RUN_SEQ)-$tag.out"
    local tf="$CLI_OUT.time" b0 b1 s0 s1
    CLI_CMD=$(printf '%q ' "$@"); CLI_CMD=${CLI_CMD% }
    echo "$CLI_CMD" > "$CLI_OUT.cmd"
    LOAD1=$(cut -d' ' -f1 /proc/loadavg)
    b0=$(machine_ticks); s0=$(server_ticks)
    # background + wait, so that a signal to this script is handled at once
    taskset -c "$CLIENT_CPU" "$TIME_BIN" -f '%U %S %e' -o "$tf" \
        timeout -k 5 "$RUN_LIMIT" "$@" > "$CLI_OUT" 2>&1 < /dev/null &
    CLIENT_PID=$!
    wait "$CLIENT_PID"; CLI_RC=$?
    CLIENT_PID=""
    b1=$(machine_ticks); s1=$(server_ticks)
    read -r CLI_USER CLI_SYS CLI_WALL < <(tail -n 1 "$tf" 2>/dev/null)
    case "$CLI_USER $CLI_SYS $CLI_WALL" in *[!0-9.\ ]*|'') CLI_USER=NA CLI_SYS=NA CLI_WALL=NA;; esac
    SRV_CPU=$(awk -v d=$((s1 - s0)) -v hz="$HZ" 'BEGIN{printf "%.2f", d/hz}')
    OTHERS=$(awk -v b=$((b1 - b0)) -v s=$((s1 - s0)) -v hz="$HZ" -v u="$CLI_USER" -v y="$CLI_SYS" -v w="$CLI_WALL" \
        'BEGIN{ if (w == "NA" || w <= 0) { print "NA"; exit } o=((b-s)/hz - u - y)/w; if (o<0) o=0; printf "%.2f", o }')
    [ "$CLI_RC" = 124 ] && log "client hit the ${RUN_LIMIT}s limit and was stopped, see $CLI_OUT"
    [ "$CLI_RC" = 0 ] || log "client exited with status $CLI_RC, see $CLI_OUT"
    return 0
}

median() { sort -g | awk '{a[NR]=$1} END{ if(NR==0){print "NA"; exit} if(NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2 }'; }
col_median() { printf '%s\n' "$@" | sed 's/^<=//' | grep -v '^NA$' | grep . | median; }
# spread of a column: (max-min)/median in %
col_spread() {
    printf '%s\n' "$@" | grep -v '^NA$' | grep . | sort -g | \
        awk '{a[NR]=$1} END{ if (NR<1) { print "NA"; exit } m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2;
                             if (m+0==0) print "NA"; else printf "%.1f", (a[NR]-a[1])/m*100 }'
}
# paired_ratios <peer name> "<fluxperf rps>" "<peer rps>" "<fluxperf cpu>" "<peer cpu>": each list one
# figure a round, in round order; prints the median, lowest and highest of the rounds' own ratios
# fluxperf/peer (a round missing either figure is left out)
paired_ratios() {
    awk -v peer="$1" -v fr="$2" -v pr="$3" -v fc="$4" -v pc="$5" '
        function pairs(a, b, out,   x, y, n, i, m) {
            n = split(a, x, " "); split(b, y, " "); m = 0
            for (i = 1; i <= n; i++) {
                sub(/^<=/, "", x[i]); sub(/^<=/, "", y[i])
                if (x[i] != "NA" && y[i] != "NA" && x[i] != "" && y[i] != "" && y[i] + 0 != 0) out[++m] = x[i] / y[i]
            }
            return m
        }
        function summary(out, m,   i, j, t, med) {
            if (m == 0) return "NA"
            for (i = 2; i <= m; i++) { t = out[i]; for (j = i - 1; j >= 1 && out[j] > t; j--) out[j + 1] = out[j]; out[j + 1] = t }
            med = (m % 2) ? out[(m + 1) / 2] : (out[m / 2] + out[m / 2 + 1]) / 2
            return sprintf("%.2f (%.2f-%.2f, %d rounds)", med, out[1], out[m], m)
        }
        BEGIN {
            nr = pairs(fr, pr, r); nc = pairs(fc, pc, c)
            printf "fluxperf/%s paired by round: rps %s; CPU per request %s\n", peer, summary(r, nr), summary(c, nc)
        }'
}
# ratio a/b with 2 decimals, NA when either is missing
ratio() { awk -v a="${1#<=}" -v b="${2#<=}" 'BEGIN{ if (a=="NA"||b=="NA"||a==""||b==""||b+0==0) print "NA"; else printf "%.2f", a/b }'; }
