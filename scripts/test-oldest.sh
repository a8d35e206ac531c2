#!/usr/bin/env bash
# Builds and tests rdmi-probe with the oldest toolchain this Debian machine can provide, as a
# stand-in for Ubuntu 22.04 (the BlueField's OS): GCC 11 (g++-11, the 22.04 compiler series) and
# CMake under the 3.22 policies that cmake_minimum_required sets. Debian has no suite that matches
# 22.04: bookworm's libraries are newer than 22.04's and bullseye's (GCC 10, CMake 3.18, CLI11
# 1.9, fmt 7, spdlog 1.8) older than the stated minimums, so the libraries here are bookworm's.
# docs/building.md lists what was and was not tried.
#   scripts/test-oldest.sh [--syntax-only] [BUILD_DIR]     (default build-gcc11)
#   --syntax-only: only check that g++-11 accepts every C++ source of the build (-fsyntax-only,
#                  no code generation or tests): a fraction of the CPU time of the full run.
# The full run: about 20 minutes of CPU from a cold cache (nothing is shared with GCC 12's
# objects), then the unit, fixture and CLI suites.
set -euo pipefail
cd "$(dirname "$0")/.."
syntax_only=0
if [[ ${1:-} == --syntax-only ]]; then
  syntax_only=1
  shift
fi
build=${1:-build-gcc11}
scripts/setup.sh --tests
if ! command -v g++-11 >/dev/null; then
  [[ $(id -u) -eq 0 ]] || { echo "test-oldest.sh: g++-11 missing: apt-get install g++-11" >&2; exit 2; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends g++-11 >/dev/null
fi
start=$(date +%s)
command -v ccache >/dev/null && export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}
# -O1: the point is what GCC 11 accepts and how the result behaves, not its speed.
CC=gcc-11 CXX=g++-11 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 -DRDMI_PROBE_TESTS=ON -DRDMI_PROBE_STATIC_DEPS=OFF \
  -DRDMI_PROBE_WERROR=OFF >/dev/null
grep -q 'CMAKE_CXX_COMPILER:.*g++-11' "$build/CMakeCache.txt" ||
  { echo "test-oldest.sh: $build is not configured with g++-11" >&2; exit 1; }

if ((syntax_only)); then
  # Every C++ translation unit of the build, as the build would compile it, with -fsyntax-only;
  # the precompiled header is read as the header it is made from.
  /usr/bin/python3 - "$build" <<'PY'
import json, os, shlex, subprocess, sys
build = sys.argv[1]
units = [u for u in json.load(open(os.path.join(build, "compile_commands.json")))
         if u["file"].endswith((".cpp", ".cxx"))]
failed = 0
for n, u in enumerate(units, 1):
    argv = shlex.split(u["command"]) if "command" in u else u["arguments"]
    if argv[0].endswith("ccache"):
        argv = argv[1:]
    out = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT"):
            skip = True
            continue
        if a in ("-MD", "-c", "-Winvalid-pch"):
            continue
        out.append(a)
    proc = subprocess.run(["nice", *out, "-fsyntax-only"], cwd=u["directory"], capture_output=True, text=True)
    if proc.returncode != 0:
        failed += 1
        print(f"FAIL {u['file']}\n{proc.stderr[:3000]}", flush=True)
    else:
        print(f"ok   {n}/{len(units)} {os.path.relpath(u['file'])}", flush=True)
print(f"{len(units) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
  echo "test-oldest.sh: g++-11 $(g++-11 -dumpfullversion) syntax check took $(($(date +%s) - start)) s"
  exit 0
fi

nice cmake --build "$build" -j2
built=$(date +%s)
nice ctest --test-dir "$build" -j2 -R '^(unit|fixtures|cli|check-outputs)$' --output-on-failure
end=$(date +%s)
echo "test-oldest.sh: g++-11 $(g++-11 -dumpfullversion), cmake $(cmake --version | sed -n '1s/.* //p') with 3.22 policies; build $((built - start)) s, tests $((end - built)) s"
