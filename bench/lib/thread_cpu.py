#!/usr/bin/env python3
"""Runs a command and writes the CPU time each of its threads used, by thread name, and that of
another process (the server) over the same time, to a JSON file.

    thread_cpu.py OUT.json SERVER_PID -- COMMAND ARGS...

Samples /proc/PID/task/*/stat every 50 ms and keeps each thread's last figures, so a thread that
ends (a reader at the log's end) keeps its time up to its last sample. Threads of one kind (the load
threads, the log's reader threads) are summed under a name without their trailing number.
"""
import json
import os
import re
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def cpu(stat):
    # the fields after the name, which sits in parentheses and may hold spaces
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def sample(pid, threads):
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except FileNotFoundError:
        return
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                name = f.read().strip()
        except (FileNotFoundError, ProcessLookupError):
            continue
        threads[tid] = (name, cpu(stat))


def process_cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        return cpu(f.read())


def main():
    out, server = sys.argv[1], int(sys.argv[2])
    command = sys.argv[sys.argv.index("--") + 1:]
    threads = {}
    server0 = process_cpu(server)
    t0 = time.monotonic()
    p = subprocess.Popen(command)
    while p.poll() is None:
        sample(p.pid, threads)
        time.sleep(0.05)
    wall = time.monotonic() - t0
    server_cpu = process_cpu(server) - server0
    by_kind = {}
    for name, seconds in threads.values():
        kind = re.sub(r"[-#]?\d+$", "", name)
        by_kind[kind] = by_kind.get(kind, 0) + seconds
    with open(out, "w") as f:
        json.dump({"wall": wall, "threads": by_kind, "server": server_cpu}, f)
    sys.exit(p.returncode)


if __name__ == "__main__":
    main()
