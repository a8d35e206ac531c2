#!/usr/bin/env bash
# Quick start: set up, build, and run the whole test suite — once normally (GCC, warnings are
# errors), once under AddressSanitizer + UndefinedBehaviorSanitizer (clang, LeakSanitizer
# included) — then every libFuzzer target for a few seconds from its seeds (same clang build).
set -euo pipefail
cd "$(dirname "$0")/.."

# The privilege tests run the built program, and read the fixtures and scripts, as the user
# nobody. Run as root from a tree nobody cannot reach (a clone in /root, which is mode 0700),
# they would fail for a reason that is not the program's: the suite then runs from a copy in a
# directory nobody can traverse, and the copy is removed afterwards.
if [[ $(id -u) -eq 0 && -z ${RDMI_TEST_FROM_COPY:-} ]] &&
   ! setpriv --reuid=nobody --regid=nogroup --clear-groups -- test -r "$PWD/scripts/test.sh"; then
  copy=$(mktemp -d /var/tmp/rdmi-probe-tests.XXXXXX)
  trap 'rm -rf "$copy"' EXIT
  echo "test.sh: the user nobody cannot reach $PWD; running the suite from a copy in $copy"
  tar --exclude='./build*' -cf - . | tar -xf - -C "$copy"
  chmod -R a+rX "$copy"
  status=0
  (cd "$copy" && RDMI_TEST_FROM_COPY=1 ./scripts/test.sh "$@") || status=$?
  exit "$status"
fi

scripts/setup.sh --tests
jobs=$(nproc)

# -O2 without debug information: optimised code under test, and a compile that fits CI's time.
# Dependencies linked shared here: compiling spdlog and fmt into every file (what the static
# default needs) costs a fifth more compile time, and the behaviour under test is the same.
cmake -S . -B build-test -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O2 -DCMAKE_C_FLAGS=-O2 \
      -DRDMI_PROBE_WERROR=ON -DBUILD_TESTING=ON -DRDMI_PROBE_STATIC_DEPS=OFF >/dev/null

cmake --build build-test -j"$jobs"

# -O0 -g1: line tables for the sanitizers' reports. -O1, which they suggest for speed, made
# this the longest stage of CI (6 min of compiling on 2 cores against 2 at -O0); its tests run
# 80 s longer at -O0, and no check is lost (optimisation can only hide undefined behaviour).
# clang, so that the libFuzzer targets (fuzz/) come with this build instead of a second one.
if ! grep -qs '^CMAKE_CXX_COMPILER:.*clang++-14$' build-asan/CMakeCache.txt; then
  rm -rf build-asan  # configured with another compiler (GCC before the fuzz targets joined it)
fi
cmake -S . -B build-asan -G Ninja -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
      -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O0 -g1" -DCMAKE_C_FLAGS="-O0 -g1" \
      -DRDMI_PROBE_WERROR=ON -DBUILD_TESTING=ON -DRDMI_PROBE_SANITIZE=address,undefined \
      -DRDMI_PROBE_FUZZ=ON >/dev/null
# The sanitizer build compiles while the plain pass's tests run: those leave much of the two
# cores idle (processes waiting on pipes, deadlines and sleeps), and at nice 19 the compiler
# takes only what they leave. Its own session, so that an early exit ends all of it.
asan_log=$(mktemp)
setsid nice -n 19 cmake --build build-asan -j"$jobs" >"$asan_log" 2>&1 &
asan_build=$!
trap 'kill -- "-$asan_build" 2>/dev/null || true; rm -f "$asan_log"' EXIT
# --no-tests=error: a tree that built no test (tests switched off) fails instead of passing.
ctest --test-dir build-test --output-on-failure --no-tests=error -j"$jobs"
if ! wait "$asan_build"; then
  tail -n 60 "$asan_log"
  echo "test.sh: the sanitizer build failed (its last lines above)" >&2
  exit 1
fi
# -LE: the tests that run no program of this tree (no-program: script, document and schema
# checks, labelled in tests/) and those labelled plain-only (text laid out a thousand ways,
# and groups that exercise processes, shells, deadlines or well-formed trees whose product code
# other groups run here: docs/testing.md says which and why) ran in the pass above.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure --no-tests=error -j"$jobs" -LE 'no-program|plain-only'

# Every fuzz target, from its seeds, RDMI_FUZZ_SECONDS each (default 3; 0 skips), one per core
# at a time: a crash, leak or timeout fails the run. Longer campaigns: scripts/fuzz.sh 120
# (docs/reliability.md).
if (( ${RDMI_FUZZ_SECONDS:-3} > 0 )); then
  FUZZ_BUILD_DIR=build-asan scripts/fuzz.sh "${RDMI_FUZZ_SECONDS:-3}"
fi
