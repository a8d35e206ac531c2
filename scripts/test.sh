#!/usr/bin/env bash
# Quick start: set up, build, and run the whole test suite — once normally (warnings are
# errors), once under AddressSanitizer + UndefinedBehaviorSanitizer (LeakSanitizer included).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
jobs=$(nproc)

# -O2 without debug information: optimised code under test, and a compile that fits CI's time.
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O2 -DCMAKE_C_FLAGS=-O2 \
      -DRDMI_PROBE_WERROR=ON -DRDMI_PROBE_TESTS=ON >/dev/null
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"

# -O1 -g1: what the sanitizers recommend, with line tables for their reports, and a fast compile.
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" \
      -DCMAKE_C_FLAGS="-O1 -g1" -DRDMI_PROBE_WERROR=ON -DRDMI_PROBE_SANITIZE=address,undefined >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"

# Optional short fuzz pass (clang + libFuzzer): off by default because building the targets alone
# takes minutes on a small machine. RDMI_FUZZ_SECONDS=10 scripts/test.sh runs each target 10 s.
if [[ -n ${RDMI_FUZZ_SECONDS:-} ]]; then
  scripts/fuzz.sh "$RDMI_FUZZ_SECONDS"
fi
