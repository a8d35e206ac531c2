#!/usr/bin/env bash
# Times a clean build of the rdmi-probe target as a newcomer gets it (the default configuration:
# Release, unity batches, dependencies linked in), without the compiler cache, and prints wall
# time, CPU time and the load average before and after (the figures mean little on a machine
# that other jobs share: the CPU time moves least). Extra arguments go to the configure step,
# e.g. -DRDMI_PROBE_UNITY=OFF to compare.
#
#   bench/build_time.sh [CMAKE_ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset CMAKE_CXX_COMPILER_LAUNCHER CMAKE_C_COMPILER_LAUNCHER
export CCACHE_DISABLE=1
cmake -S "$here" -B "$work/build" -G Ninja "$@" >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
# A failed build says why (its last lines) instead of only a non-zero status: its times then
# cover a part of the work.
status=0
/usr/bin/time -o "$work/time.txt" \
  -f 'cmake --build --target rdmi-probe: wall %e s, CPU %U s user + %S s system' \
  cmake --build "$work/build" -j"$(nproc)" --target rdmi-probe >"$work/build.log" 2>&1 || status=$?
grep 'cmake --build' "$work/time.txt"
if ((status != 0)); then
  tail -n 20 "$work/build.log" >&2
  echo "build_time.sh: the build failed: the times above are of a partial build" >&2
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
