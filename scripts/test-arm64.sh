#!/usr/bin/env bash
# The aarch64 build and its tests: cross-compiles rdmi-probe, its unit tests and fixtures for
# aarch64 (Debian multiarch) and runs the unit suite and the CLI suite under qemu user-mode
# (no binfmt_misc needed: every test binary and every spawn of rdmi-probe goes through
# qemu-aarch64 -L /, so the loader and libc.so.6 are Debian's arm64 multiarch ones, one glibc
# build; docs/release.md says why not the cross toolchain's). The CLI suite includes the
# BlueField Arm side, where the bluefield-3.3 and both-dpu roots are this binary's own
# architecture.
#   scripts/test-arm64.sh [BUILD_DIR]      (default build-cross-arm64)
# Its build is ~190 C++ translation units cross-compiled at -O2 (rdmi_core, the unit tests), none
# shared with the native test build: longer than CI's whole budget on two cores, so CI does not
# run it (docs/release.md). JOBS=N sets the build's parallelism (default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-cross-arm64}
scripts/setup.sh --tests --cross-arm64
start=$(date +%s)
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
# The release link and flags (static dependencies, glibc <= 2.34, -O2): what ships is what is
# tested. Only what the suites below need is built: the program, the unit-test binary, the fixtures.
cmake -S . -B "$build" -G Ninja --toolchain cmake/toolchains/aarch64-linux-gnu.cmake \
  -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
  "-DCMAKE_C_FLAGS_RELEASE=-O2 -DNDEBUG" -DRDMI_PROBE_TESTS=ON -DRDMI_PROBE_STATIC_DEPS=ON -DRDMI_PROBE_STATIC_ZLIB=OFF \
  -DRDMI_PROBE_GLIBC_COMPAT=ON >/dev/null
nice cmake --build "$build" -j"${JOBS:-2}" --target rdmi-probe rdmi_probe_tests \
  tests/fixtures/doca/all tests/fixtures/fake_dpa/all tests/fixtures/ibverbs/all \
  tests/fixtures/libs/all tests/contract/all tests/hardening/all rdmi_sysfs_fixtures
built=$(date +%s)

file -b "$build/rdmi-probe" | grep -q "ARM aarch64" || { echo "test-arm64.sh: $build/rdmi-probe is not aarch64" >&2; exit 1; }
# --version, then two commands that start the run watchdog's thread: a broken emulation or
# start-up stops here in a minute instead of hanging every CLI case until its timeout.
scripts/release.sh --smoke "$build/rdmi-probe"
scripts/release.sh --check-glibc "$build/rdmi-probe"
# unit: the doctest binary (ctest prefixes it with the emulator); fixtures: the generated trees;
# cli: every case, each spawn through the emulator.
nice ctest --test-dir "$build" -R '^(unit|fixtures|cli|cli-selftest|schemas)$' --output-on-failure
end=$(date +%s)
echo "test-arm64.sh: build $((built - start)) s, tests under qemu $((end - built)) s"
