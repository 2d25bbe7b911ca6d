#!/usr/bin/env bash
# The whole test suite: installs what the tests need, then builds and runs every module's tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/install-deps.sh
exec mvn -B -ntp verify "$@"
