# bench/lib/parsers.sh - turn each tool's output into one line of figures.
# Sourced by bench/compare.sh. The peer parsers are those of
# ../shared/bench/peers.sh; parse_fluxperf is new.
#
# Every parser prints "requests rps p50_us p99_us p999_us" (latencies in µs,
# as each tool reports them); NA where a figure is missing.

# fluxperf --json -> "requests rps p50 p99 p999 cpu_us_per_req_window" and,
# on a second line, key=value extras:
#   errors timeouts closed   outcomes other than Ok/Miss over the run
#   misses                   gets that missed (should be 0 with --hit)
#   svc_p50 svc_p99          service time (from the actual write), µs
#   lag_p99                  send lag p99 (open loop only), µs
#   room_ms                  how long due requests waited for a connection with room over the
#                            measured windows, ms (open loop only; summed over load threads)
#   room_behind_ms           the part of it that began with a request already behind (a backlog)
#   win_cores                CPU cores the process used in the measured window
#   min_win_rate target      lowest window rate and the target rate (open loop)
#   max_win_rate             highest window rate (open loop: above the target after a backlog)
#   loop_share               the busiest load thread's CPU as a share of the run (0.90 and up: the
#                            client set the pace, see the report's Client: line)
#   stop                     why the run ended
# Latency: from the intended send time in open loop, from the write in closed loop.
parse_fluxperf() {
    python3 - "$1" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("0 NA NA NA NA NA"); print("parse=failed"); sys.exit(0)
t = d["total"]
def us(h, k):
    return ("%.0f" % (h[k] / 1000.0)) if h and h.get(k) is not None else "NA"
lat, svc, lag = t.get("latency"), t.get("service"), t.get("sendLag")
cpr = t.get("cpuNanosPerRequest")
print(t["requests"], "%.2f" % t["rate"], us(lat, "p50"), us(lat, "p99"), us(lat, "p999"),
      ("%.3f" % (cpr / 1000.0)) if cpr else "NA")
target = sum(w.get("rate") or 0 for w in d["config"]["workloads"])
cores = (t["cpuNanos"] / 1e9 / t["seconds"]) if t.get("cpuNanos") and t.get("seconds") else None
ex = {
    "errors": t["error"], "timeouts": t["timeout"], "closed": t["closed"], "misses": t["miss"],
    "svc_p50": us(svc, "p50"), "svc_p99": us(svc, "p99"), "lag_p99": us(lag, "p99"),
    "room_ms": ("%.1f" % (t["connections"]["roomWaitNanos"] / 1e6)) if lag and "roomWaitNanos" in (t.get("connections") or {}) else "NA",
    "room_behind_ms": ("%.1f" % (t["connections"]["roomWaitBehindNanos"] / 1e6)) if lag and "roomWaitBehindNanos" in (t.get("connections") or {}) else "NA",
    "win_cores": ("%.2f" % cores) if cores is not None else "NA",
    "min_win_rate": "%.0f" % min(w["rate"] for w in d["windows"]) if d["windows"] else "NA",
    "max_win_rate": "%.0f" % max(w["rate"] for w in d["windows"]) if d["windows"] else "NA",
    "loop_share": ("%.2f" % t["busiestLoadThreadCpuShare"]) if t.get("busiestLoadThreadCpuShare") is not None else "NA",
    "target": "%.0f" % target if target else "none",
    "stop": d.get("stopReason", "NA"),
}
print(" ".join("%s=%s" % kv for kv in ex.items()))
EOF
}

# memtier JSON -> "requests rps p50_us p99_us p999_us"
parse_memtier() {
    python3 - "$1" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    t = d["ALL STATS"]["Totals"]
except Exception:
    print("0 NA NA NA NA"); sys.exit(0)
p = t.get("Percentile Latencies", {})
f = lambda k: ("%.0f" % (p[k] * 1000)) if k in p else "NA"
print(t["Count"], "%.2f" % t["Ops/sec"], f("p50.00"), f("p99.00"), f("p99.90"))
EOF
}

# bench/lib/pace_reference.c's output -> "requests rps p50 p99 p999 cpu_us_per_req_window" and, on
# a second line, its extras: lag_p99 lag_max room_ms room_behind_ms misses win_cores (the names
# of parse_fluxperf's where they mean the same). Latency is from the intended send time.
parse_reference() {
    awk '/^total: / { for (i=2;i<=NF;i++) { split($i,kv,"="); v[kv[1]]=kv[2] } found=1 }
         END { if (!found) { print "0 NA NA NA NA NA"; print "parse=failed"; exit }
               printf "%s %s %s %s %s %s\n", v["requests"], v["rps"], v["p50"], v["p99"], v["p999"], v["cpu_us_per_req"]
               printf "lag_p99=%s lag_max=%s room_ms=%s room_behind_ms=%s misses=%s win_cores=%s\n", v["lag_p99"], v["lag_max"],
                      v["room_ms"], v["room_behind_ms"], v["misses"], v["win_cores"] }' "$1"
}

# memaslap output -> "requests get_rps p50 p99 p999"
# memaslap only prints a log2 histogram: bucket b holds latencies in
# (2^(b-1), 2^b] µs (ms_local_log2 in ms_stats.c), so percentiles are the
# bucket's upper bound, written "<=N". requests = all its ops, including the
# SETs it writes first to fill its key window (its CPU covers them too).
parse_memaslap() {
    awk '
        /^Get Statistics *$/ { ingetper=1 }
        ingetper && /^Global/ { tps=$4; ingetper=0 }
        /^Get Statistics \(/ { inhist=1; next }
        inhist && /^Total Statistics/ { inhist=0 }
        inhist && /^ *[0-9]+:/ { base=$1; sub(":","",base); for (i=2;i<=NF;i++) { b=base+i-2; cnt[b]=$i; tot+=$i; if (b>maxb) maxb=b } }
        /^Run time:/ { for (i=1;i<=NF;i++) if ($i=="Ops:") ops=$(i+1) }
        END {
            c=0; p50="NA"; p99="NA"; p999="NA"
            for (b=0; b<=maxb; b++) { c+=cnt[b]
                if (p50=="NA"  && c>=0.5*tot)   p50="<=" 2^b
                if (p99=="NA"  && c>=0.99*tot)  p99="<=" 2^b
                if (p999=="NA" && c>=0.999*tot) p999="<=" 2^b }
            if (ops == "") ops=0; if (tps == "") tps="NA"
            printf "%s %s %s %s %s\n", ops, tps, p50, p99, p999 }' "$1"
}

# redis-benchmark output -> "rps p50_us p99_us p999_us"
# p99.9 = first line of its percentile distribution at or above 99.9%
parse_redis_benchmark() {
    tr '\r' '\n' < "$1" | awk '
        /^[0-9.]+% <= [0-9.]+ milliseconds/ && !done999 { pct=$1; sub("%","",pct); if (pct+0 >= 99.9) { p999=$3*1000; done999=1 } }
        /throughput summary:/ { rps=$3 }
        /latency summary/ { getline; getline; p50=$3*1000; p99=$5*1000 }
        END { if (rps == "") print "NA NA NA NA"; else printf "%s %.0f %.0f %.0f\n", rps, p50, p99, p999 }'
}

# wrk output (with the done() hook in wrk_report_lua) -> "requests rps p50 p99 p999 errors"
parse_wrk() {
    awk '/^Requests\/sec:/ { rps=$2 }
         /^WRKSUMMARY/ { for (i=2;i<=NF;i++) { split($i,kv,"="); v[kv[1]]=kv[2] } }
         END { if (rps == "") { print "0 NA NA NA NA 0"; exit }
               err=v["connect_err"]+v["read_err"]+v["write_err"]+v["status_err"]+v["timeout_err"];
               printf "%s %s %s %s %s %s\n", v["requests"], rps, v["p50_us"], v["p99_us"], v["p999_us"], err }' "$1"
}

wrk_report_lua() {
    cat <<'EOF'
done = function(summary, latency, requests)
  local s = summary
  io.write(string.format("WRKSUMMARY requests=%d duration_us=%d connect_err=%d read_err=%d write_err=%d status_err=%d timeout_err=%d p50_us=%d p99_us=%d p999_us=%d mean_us=%.1f\n",
    s.requests, s.duration, s.errors.connect, s.errors.read, s.errors.write, s.errors.status, s.errors.timeout,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.mean))
end
EOF
}
