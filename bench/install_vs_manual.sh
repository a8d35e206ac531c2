#!/usr/bin/env bash
# Times `rdmi-probe --json` (whose exit code reflects this machine, hence -i) on the complete fixture install against the manual chain of
# commands it replaces, and prints both medians and their ratio.
# Usage: bench/install_vs_manual.sh [BUILD_DIR]   (a test build: it has the fixture installs)
set -euo pipefail
build=${1:-build-test}
probe=$build/rdmi-probe
prefix=$(realpath "$build/tests/fixtures/prefixes/complete-3.3")
root=$(realpath "$build/tests/fixtures/roots/complete-3.3")
pcdir=$prefix/lib/x86_64-linux-gnu/pkgconfig
command -v hyperfine >/dev/null || { echo "hyperfine is needed: apt-get install hyperfine" >&2; exit 2; }
[[ -x $probe && -d $prefix ]] || { echo "build $build first (scripts/test.sh builds build-test)" >&2; exit 2; }

manual="pkg-config --modversion doca-common; pkg-config --modversion doca-verbs;
pkg-config --modversion doca-dpa; pkg-config --modversion doca-rdmi;
cat $prefix/applications/VERSION; ls $prefix/include/doca_rdmi_*.h;
$prefix/tools/doca_caps --version; $prefix/tools/dpacc --version"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PKG_CONFIG_PATH=$pcdir hyperfine -N -i --warmup 5 --runs 50 --export-json "$out/h.json" \
  -n "rdmi-probe --json (live: loads the runtime library, runs doca_caps and dpacc)" "$probe --json --doca-prefix $prefix" \
  -n "rdmi-probe --json --root (static)" "$probe --json --root $root" \
  -n "manual chain (pkg-config x4, cat, ls, doca_caps, dpacc)" "sh -c '$manual'" >/dev/null 2>&1 || true
/usr/bin/python3 - "$out/h.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
med = {r["command"]: r["median"] * 1000 for r in results}
for name, ms in med.items():
    print(f"{ms:8.2f} ms  {name}")
names = list(med)
print(f"manual chain / live probe: {med[names[2]] / med[names[0]]:.1f}x")
print(f"manual chain / static probe: {med[names[2]] / med[names[1]]:.1f}x")
PY
