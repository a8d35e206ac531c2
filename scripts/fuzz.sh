#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs each for SECONDS (default 60), then
# prints executions, coverage and crashes per target. Exit status 1 when any target crashed,
# leaked or timed out, 2 when the targets could not be built.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]  (env: FUZZ_BUILD_DIR, FUZZ_FIXTURE_BUILD, FUZZ_JOBS)
# FUZZ_JOBS targets run at a time (default: the number of cores); each libFuzzer process uses one
# core, so on two cores two targets get their SECONDS each in half the time.
# FUZZ_BUILD_DIR names the build tree (default build-fuzz). A tree already configured with
# -DRDMI_PROBE_FUZZ=ON (such as scripts/test.sh's clang sanitizer build, build-asan) is reused
# as it is: only the fuzz targets and their seed corpora are brought up to date. Otherwise a
# dedicated clang tree is configured, seeded from FUZZ_FIXTURE_BUILD's fixtures (default build).
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=${FUZZ_BUILD_DIR:-build-fuzz}
fixtures=${FUZZ_FIXTURE_BUILD:-$PWD/build}
if ! grep -qs '^RDMI_PROBE_FUZZ:BOOL=ON$' "$build/CMakeCache.txt"; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 \
        -DRDMI_PROBE_FUZZ=ON -DBUILD_TESTING=OFF -DRDMI_PROBE_DPA=OFF \
        -DRDMI_PROBE_FUZZ_FIXTURE_BUILD="$fixtures" >/dev/null || exit 2
fi
cmake --build "$build" -j2 --target fuzz_all >/dev/null || exit 2
targets=("$@")
(( ${#targets[@]} )) || targets=(fuzz_elf fuzz_archive fuzz_header fuzz_sysfs fuzz_pc fuzz_ld_cache fuzz_json fuzz_redact fuzz_dpkg_status)
logs=$build/fuzz/logs
mkdir -p "$logs"
status=0
export LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
jobs=${FUZZ_JOBS:-$(nproc)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: FUZZ_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
# Each target runs in the background with its own corpus and log; at most $jobs at a time.
declare -A rcs
pids=() names=()
reap_oldest() {
  wait "${pids[0]}"
  rcs[${names[0]}]=$?
  pids=("${pids[@]:1}") names=("${names[@]:1}")
}
# An interrupted run stops its fuzzers too (background jobs of a script ignore SIGINT).
trap 'kill "${pids[@]}" 2>/dev/null; exit 130' INT TERM
for t in "${targets[@]}"; do
  corpus=$build/fuzz/corpus/$t artifacts=$build/fuzz/artifacts/$t/
  mkdir -p "$corpus" "$artifacts"
  "$build/fuzz/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" >"$logs/$t.log" 2>&1 &
  pids+=($!) names+=("$t")
  if (( ${#pids[@]} >= jobs )); then reap_oldest; fi
done
while (( ${#pids[@]} )); do reap_oldest; done
trap - INT TERM
printf '%-18s %8s %12s %10s %8s %8s\n' target seconds executions exec/s cov crashes
for t in "${targets[@]}"; do
  artifacts=$build/fuzz/artifacts/$t/
  rc=${rcs[$t]}
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$logs/$t.log" | tail -1 | cut -d' ' -f2)
  crashes=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  [[ $rc == 0 && $crashes == 0 ]] || status=1
  printf '%-18s %8s %12s %10s %8s %8s\n' "$t" "$seconds" "${execs:-?}" "${speed:-?}" "${cov:-?}" "$crashes"
done
echo "logs: $logs; findings (if any): $build/fuzz/artifacts/"
exit $status
