#!/usr/bin/env bash
# Hostile sizes: `env` on a DOCA pkg-config directory holding N extra doca-*.pc files (10k, 40k,
# 100k), and `diff` of two saved documents of a given size. Prints wall time, CPU time (user +
# system) and peak RSS per size (GNU time), so growth can be read off: linear means the 100k
# row is about 2.5x the 40k row. On a loaded machine the wall time is an upper bound and the CPU
# time the figure to compare. Not a pass/fail test.
#
#   bench/hostile_sizes.sh BUILD_DIR        (a build with the test fixtures: build-test works)
#
# The inputs are generated under BUILD_DIR/bench/hostile (kept; remove it to regenerate).
set -euo pipefail
load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
build=$(realpath "${1:-build-test}")
probe=$build/rdmi-probe
fixtures=$build/tests/fixtures
[[ -x $probe ]] || { echo "hostile_sizes.sh: $probe missing" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "hostile_sizes.sh: GNU time is needed (apt-get install time)" >&2; exit 2; }
work=$build/bench/hostile
mkdir -p "$work"

measure() {  # label, command...: "label  wall  CPU  peak-RSS-MiB  exit"
  local label=$1
  shift
  local out rc
  out=$(mktemp)
  set +e
  /usr/bin/time -f '%e %U %S %M' -o "$out" "$@" >/dev/null 2>&1
  rc=$?
  set -e
  read -r secs user sys kib < <(tail -1 "$out")
  rm -f "$out"
  printf '| %s | %s | %.2f | %d | %d |\n' "$label" "$secs" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" \
    $((kib / 1024)) "$rc"
}

echo "load average at start: $load_at_start"
echo
echo "| run | wall (s) | CPU (s) | peak RSS (MiB) | exit |"
echo "| --- | ---: | ---: | ---: | ---: |"
for n in 10000 40000 100000; do
  root=$work/pc-$n
  if [[ ! -e $root/.done ]]; then
    rm -rf "$root"
    cp -a "$fixtures/roots/complete-3.3" "$root"
    pcdir=$root/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig  # DOCA's own .pc directory
    /usr/bin/python3 - "$pcdir" "$n" <<'EOF'
import sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(f"{d}/doca-extra{i:06d}.pc", "w") as f:
        f.write(f"prefix=/opt/mellanox/doca\nName: doca-extra{i}\nDescription: x\nVersion: 3.3.0105\n"
                f"Libs: -L${{prefix}}/lib -ldoca_extra{i}\n")
EOF
    touch "$root/.done"
  fi
  # A generous --timeout: on a loaded machine the default 10 s would end the 100k run early.
  measure "env --json, $n extra .pc files" "$probe" env --json --timeout 600 --root "$root"
done
for mb in 8 15 60; do
  a=$work/doc-$mb-a.json
  b=$work/doc-$mb-b.json
  if [[ ! -e $b ]]; then
    /usr/bin/python3 - "$a" "$b" "$mb" "$(dirname "$0")/../tests/cli/golden/env_host.json" <<'EOF'
import json, sys
a, b, mb, golden = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
# A doca-env document (the golden one) whose libraries list is padded to the size: the shape
# test_diff_inputs.py uses.
base = json.load(open(golden))
entry = {"pkg_config_name": "", "installed": True,
         "pc_path": "/opt/mellanox/doca/lib/x86_64-linux-gnu/pkgconfig/" + "x" * 40}
count = (mb << 20) // (len(json.dumps(entry)) + 30)
base["libraries"] = [{**entry, "pkg_config_name": f"doca-lib{i:07d}"} for i in range(count)]
open(a, "w").write(json.dumps(base))
base["libraries"][count // 2]["installed"] = False
open(b, "w").write(json.dumps(base))
EOF
  fi
  measure "diff, two $(du -m "$a" | cut -f1) MiB documents" "$probe" diff "$a" "$b"
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
