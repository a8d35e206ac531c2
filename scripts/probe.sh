#!/usr/bin/env bash
# Quick start: set up, build, and run rdmi-probe on this machine. Arguments go to rdmi-probe.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja >/dev/null
cmake --build build --target rdmi-probe >/dev/null
exec build/rdmi-probe "$@"
