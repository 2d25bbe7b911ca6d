#!/usr/bin/env bash
# Installs what fluxperf needs on Debian 12, skipping what is already there. Safe to run again.
#   scripts/install-deps.sh         everything the build and the tests need: a JDK 17 and Maven;
#                                   memcached, redis-server and nginx that the tests start on free
#                                   loopback ports; Chromium for the heatmap page test; fonts for the
#                                   PNG heatmap's labels; Python and a C compiler for the bench helpers;
#                                   tcpdump and Python's redis, pymemcache and pylibmc clients for the
#                                   capture replay tests
#   scripts/install-deps.sh build   only what building and running fluxperf needs (the launcher's case)
set -euo pipefail

need=()
command -v javac >/dev/null || need+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || need+=(maven)
if [ "${1:-all}" != build ]; then
  command -v memcached >/dev/null || need+=(memcached)
  command -v redis-server >/dev/null || need+=(redis-server redis-tools)
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need+=(nginx)
  command -v chromium >/dev/null || need+=(chromium)
  command -v python3 >/dev/null || need+=(python3)   # bench/lib's scripts, tested in bench/jmh
  command -v cc >/dev/null || need+=(gcc libc6-dev)   # bench/lib/pace_reference.c, built by its test in bench/jmh
  [ -f /usr/include/libmemcached-1.0/memcached.h ] || need+=(libmemcached-dev)   # libmemcached's own key placement, compared in the engine's tests
  fc-list 2>/dev/null | grep -qi dejavu || need+=(fontconfig fonts-dejavu-core)   # text in heatmap PNGs
  command -v promtool >/dev/null || need+=(prometheus)   # promtool checks the admin endpoint's /metrics; the service is not wanted
  # real clients captured with tcpdump and replayed (replay's CapturedClientsReplayTest); Debian's python3, not a pyenv one
  command -v tcpdump >/dev/null || [ -x /usr/bin/tcpdump ] || [ -x /usr/sbin/tcpdump ] || need+=(tcpdump)
  /usr/bin/python3 -c 'import redis' 2>/dev/null || need+=(python3-redis)
  /usr/bin/python3 -c 'import pymemcache' 2>/dev/null || need+=(python3-pymemcache)
  /usr/bin/python3 -c 'import pylibmc' 2>/dev/null || need+=(python3-pylibmc)
fi

if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "install-deps: installing ${need[*]}" >&2
  $sudo apt-get update -qq
  # RUNLEVEL=1 keeps Debian's maintainer scripts from starting the packaged services:
  # the tests start their own servers on free ports.
  RUNLEVEL=1 DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
  # only promtool is wanted from the prometheus package: a server it started must not keep running
  if printf '%s\n' "${need[@]}" | grep -qx prometheus; then
    $sudo systemctl disable --now prometheus >/dev/null 2>&1 || true
    $sudo service prometheus stop >/dev/null 2>&1 || true
  fi
fi
