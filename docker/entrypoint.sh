#!/bin/sh
# fluxperf's container entry point (the Dockerfile's ENTRYPOINT): runs the shaded jar with the
# arguments given, and passes the environment through, so that an Indexed Job's pod is its shard
# (JOB_COMPLETION_INDEX and FLUXPERF_SHARDS are read by fluxperf itself).
#
# FLUXPERF_HOLD_SECONDS: after a successful run, keep the container up this long so that
#   'kubectl cp' can copy the results out of a pod without a shared volume (0: exit at once).
# FLUXPERF_RESULTS: where the results are (for the message and the marker file); default /results.
# FLUXPERF_JAR, JAVA, FLUXPERF_JAVA_OPTS: the jar, the java binary and its options.
# FLUXPERF_GC_OPTS: the collector's options in place of ./fluxperf's choice (empty: the JVM's default).
set -u

JAR="${FLUXPERF_JAR:-/opt/fluxperf/fluxperf.jar}"
JAVA_BIN="${JAVA:-java}"
RESULTS="${FLUXPERF_RESULTS:-/results}"
HOLD="${FLUXPERF_HOLD_SECONDS:-0}"

case "$HOLD" in
    ''|*[!0-9]*)
        echo "fluxperf: FLUXPERF_HOLD_SECONDS must be a whole number of seconds, not '$HOLD'" >&2
        exit 2
        ;;
esac

# a read-only root: the JVM, Chronicle and JNA write only under /tmp (a volume of its own)
: "${HOME:=/tmp}"
if [ ! -w "$HOME" ]; then
    HOME=/tmp
fi
export HOME

if [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    echo "fluxperf: shard ${JOB_COMPLETION_INDEX} of ${FLUXPERF_SHARDS:-?}" >&2
fi

export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"  # as ./fluxperf sets it, for less resident memory
# the collector ./fluxperf chooses, for the same reason (pauses under a millisecond); Temurin has it
GC_OPTS="${FLUXPERF_GC_OPTS--XX:+UseShenandoahGC -XX:ShenandoahGCHeuristics=compact -Xms16m}"
case " ${FLUXPERF_JAVA_OPTS:-} " in
    *" -XX:+Use"*"GC "*) [ -n "${FLUXPERF_GC_OPTS+set}" ] || GC_OPTS="" ;;  # the user's collector: the JVM refuses two
esac
# as ./fluxperf does: hand glibc's freed memory (the JIT compilers' arenas) back every second
# (the image's Temurin 17 takes it, 17.0.9 and later), and no clean-up safepoint every second
# (docs/internals.md, "Safepoints")
# shellcheck disable=SC2086 # the options are words on purpose
"$JAVA_BIN" -XX:MaxRAMPercentage=75 $GC_OPTS -XX:TrimNativeHeapInterval=1000 \
    -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0 -Djava.io.tmpdir=/tmp -Djna.tmpdir=/tmp ${FLUXPERF_JAVA_OPTS:-} -jar "$JAR" "$@"
status=$?

if [ "$status" -eq 0 ] && [ "$HOLD" -gt 0 ]; then
    touch "$RESULTS/.fluxperf-done" 2>/dev/null || true
    echo "fluxperf: results ready in $RESULTS; copy them with kubectl cp within ${HOLD}s" >&2
    # a TERM (kubectl delete) ends the wait at once, with the run's status
    trap 'exit 0' TERM INT
    sleep "$HOLD" &
    wait $!
fi
exit "$status"
